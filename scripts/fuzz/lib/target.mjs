// What the fuzzer talks to: the HTTP API of a real engine on 127.0.0.1, a ledger with a funded and a poor account,
// and a local resource server that answers every URL the engine fetches. The engine's fetch hooks resolve every host
// name to a public-looking address and dial every connection to that local server, so no other address is ever
// reached; the address policy itself is unchanged (localhost, private and malformed URLs are still refused).
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';

const RICH = 1e12;
const POOR = 10;

/** A gzip body that inflates to 64 MiB (the fetcher must stop at its byte limit). */
let gzipBomb;

/**
 * Starts the target. `modules` holds the packages under test (built or source): `Engine`, `MemoryLedger`,
 * `createApiServer`, `listen`. `services` goes to the engine (e.g. a classifier test double).
 */
export async function startTarget(modules, options = {}) {
  let resource = { kind: 'status', status: 404 };
  const resources = createServer((req, res) => {
    const current = resource;
    req.resume();
    if (current.kind === 'bytes') {
      const headers = current.contentType === undefined ? {} : { 'content-type': current.contentType };
      res.writeHead(current.status, headers).end(current.file.bytes);
    } else if (current.kind === 'redirect') {
      res.writeHead(current.status, { location: current.location }).end();
    } else if (current.kind === 'gzip-bomb') {
      gzipBomb ??= gzipSync(Buffer.alloc(64 * 1024 * 1024));
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipBomb);
    } else {
      res.writeHead(current.status).end();
    }
  });
  await new Promise((resolve) => resources.listen(0, '127.0.0.1', resolve));
  const resourcePort = resources.address().port;

  const ledger = new modules.MemoryLedger();
  const logged = [];
  const engine = new modules.Engine({
    ledger,
    fetch: {
      timeoutMs: 5000,
      connectTimeoutMs: 2000,
      resolve: async () => [{ address: '93.184.216.34', family: 4 }],
      dial: () => ({ host: '127.0.0.1', port: resourcePort }),
    },
    ...(options.services ? { services: options.services } : {}),
  });
  const server = modules.createApiServer({ engine, rateLimit: false, log: (message, error) => logged.push({ message, error }) });
  const { url } = await modules.listen(server, 0, '127.0.0.1');
  const rich = await ledger.createAccount({ credits: RICH });
  const poor = await ledger.createAccount({ credits: POOR });
  const tokens = {
    valid: (await ledger.createToken(rich.id)).token,
    poor: (await ledger.createToken(poor.id)).token,
  };

  return {
    url,
    engine,
    ledger,
    logged,
    accounts: { rich: rich.id, poor: poor.id },
    tokens,
    serve(next) {
      resource = next ?? { kind: 'status', status: 404 };
    },
    /** Puts both accounts back to their starting balances. */
    async refill() {
      for (const [id, level] of [[rich.id, RICH], [poor.id, POOR]]) {
        const balance = await ledger.balance(id);
        if (balance < level) await ledger.topUp(id, level - balance, 'fuzz refill');
      }
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      resources.closeAllConnections();
      await new Promise((resolve) => resources.close(resolve));
      await ledger.close();
    },
  };
}
