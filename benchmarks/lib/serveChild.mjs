// The child process of the server benchmarks: a server with an in-memory ledger and one funded account, rate limit
// off and quiet, listening on loopback; tells the parent its URL and token, answers its event-loop delay reads
// (loopDelay.mjs), and exits when the parent goes.
import { answerLoopDelay } from './loopDelay.mjs';

/** Starts the server; `analysis` is passed to the Engine as is (undefined: the engine's default). */
export async function serveChild(analysis) {
  const { MemoryLedger } = await import('../../packages/credits/dist/index.js');
  const { Engine } = await import('../../packages/engine/dist/index.js');
  const { createApiServer, listen } = await import('../../packages/server/dist/index.js');
  const ledger = new MemoryLedger();
  const account = await ledger.createAccount({ credits: 1e12 });
  const { token } = await ledger.createToken(account.id);
  const engine = new Engine(analysis === undefined ? { ledger } : { ledger, analysis });
  const server = createApiServer({ engine, rateLimit: false, log: () => undefined });
  const { url } = await listen(server, 0, '127.0.0.1');
  answerLoopDelay();
  process.send({ url, token });
  process.on('disconnect', () => process.exit(0));
}
