// Preloaded (`node --import`) into the `serve` and `worker` processes of the attack replay, never into a deployment:
// an HTTP connection to 93.184.216.34:80, the public address the replay writes into its attack URLs, goes to the
// replay's attack site on loopback (REPLAY_SITE_PORT) instead. The engine's address policy runs unchanged (the URL
// is public); only the socket's destination moves, as the test suite's `dial` fetch option does in process.
import http from 'node:http';

export const SITE_ADDRESS = '93.184.216.34';
const port = Number(process.env.REPLAY_SITE_PORT);
if (Number.isSafeInteger(port) && port > 0) {
  const createConnection = http.Agent.prototype.createConnection;
  http.Agent.prototype.createConnection = function redirected(options, callback) {
    const to = options.host === SITE_ADDRESS && Number(options.port ?? 80) === 80 ? { ...options, host: '127.0.0.1', port } : options;
    return createConnection.call(this, to, callback);
  };
}
