import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresLedger } from '@content-analysis/credits';
import {
  deleteKeys, dropSchema, freshKeyPrefix, freshSchema, postgresSkipReason, postgresUrl, redisSkipReason, redisUrl,
} from '../../server/test/services.js';
import { main } from '../src/index.js';
import { buildWorkspace } from './build.js';
import { captureIo } from './io.js';
import { kill, killAll, logEvents, startServe, startWorker, storeFreeEnvironment } from './processes.js';
import type { ServeNode, WorkerProcess } from './processes.js';

/**
 * The README's scale-out topology, every part a process of the built CLI: two API nodes (`serve --database
 * --redis`) and two `worker`s, on one PostgreSQL schema and one Redis prefix made for this file. The load is AI-text
 * detection, a queued feature, so every answer was computed by a worker and charged by the node that received it.
 * Two attacks of issue 26 are replayed here too: more concurrent requests than a balance pays for, and bodies that
 * never finish sent without a token.
 */
const skip = (await postgresSkipReason('multi-node tests')) ?? (await redisSkipReason('multi-node tests'));

async function cli(argv: string[]): Promise<Record<string, unknown>> {
  const io = captureIo();
  const code = await main(argv, io);
  if (code !== 0) throw new Error(`content-analysis ${argv.join(' ')} exited ${code}: ${io.err()}`);
  return JSON.parse(io.out()) as Record<string, unknown>;
}

/** 75 words: 75 credits. */
const TEXT = 'The lighthouse keeper climbed the spiral stairs every evening at dusk to light the lamp. In winter storms the waves rose higher than the rocks. '
  .repeat(3).trim();
const COST = 75;
/** Tokens per account: each takes a share of the load small enough for the rate limit's burst of 60. */
const TOKENS = 10;

interface Answer {
  node: number;
  /** The HTTP status, or `lost` when the connection died without an answer. */
  status: number | 'lost';
  body: Record<string, unknown>;
}

describe.skipIf(skip !== undefined)('two API nodes and two workers, as processes', () => {
  const schema = freshSchema();
  const ratePrefix = freshKeyPrefix();
  const queuePrefix = freshKeyPrefix();
  let ledger: PostgresLedger;
  let nodes: ServeNode[];
  let workers: WorkerProcess[];

  beforeAll(async () => {
    buildWorkspace();
    ledger = await PostgresLedger.open({ connectionString: postgresUrl, schema, maxConnections: 2 });
    const env = storeFreeEnvironment();
    const queue = ['--redis', redisUrl, '--queue-prefix', queuePrefix];
    [nodes, workers] = await Promise.all([
      Promise.all([0, 1].map(() => startServe(['--database', postgresUrl, '--database-schema', schema, '--redis-prefix', ratePrefix, ...queue], env))),
      Promise.all([0, 1].map(() => startWorker([...queue, '--concurrency', '2'], env))),
    ]);
  }, 120_000);

  afterAll(async () => {
    await killAll();
    await ledger?.close();
    await deleteKeys(ratePrefix);
    await deleteKeys(queuePrefix);
    await dropSchema(schema);
  });

  /** An account and its tokens, made as an operator does: with the CLI against the nodes' PostgreSQL schema. */
  async function client(credits: number): Promise<{ accountId: string; tokens: string[] }> {
    const database = ['--database', postgresUrl, '--database-schema', schema];
    const { account: accountId } = await cli(['accounts', 'create', '--credits', '0', ...database]) as { account: string };
    expect(await cli(['credits', 'add', String(credits), '--account', accountId, ...database])).toEqual({ account: accountId, balance: credits });
    const tokens = [];
    for (let i = 0; i < TOKENS; i++) tokens.push((await cli(['tokens', 'create', '--account', accountId, ...database]) as { token: string }).token);
    return { accountId, tokens };
  }

  async function detect(node: number, token: string): Promise<Answer> {
    try {
      const response = await fetch(`${nodes[node]!.url}/v2/ai-content-detection`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ text: TEXT }),
      });
      return { node, status: response.status, body: (await response.json()) as Record<string, unknown> };
    } catch {
      return { node, status: 'lost', body: {} };
    }
  }

  const finishedJobs = (worker: WorkerProcess) => logEvents(worker.log, 'job_finish').length;

  /** Resolves once every job a worker started has finished and no worker has logged anything for a second. */
  async function workersIdle(): Promise<void> {
    let lines = -1;
    for (let quiet = 0; quiet < 1000; quiet = lines === countLines() ? quiet + 100 : 0) {
      lines = countLines();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const started = workers.flatMap((w) => logEvents(w.log, 'job_start', 'job_retry')).length;
    expect(workers.map(finishedJobs).reduce((x, y) => x + y)).toBe(started);
  }
  const countLines = () => workers.reduce((n, w) => n + w.log.length, 0);

  it('lets exactly 100 of 300 concurrent requests over both nodes through against a balance for 100, and leaves 0', async () => {
    const { accountId, tokens } = await client(100 * COST);
    const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => detect(i % 2, tokens[i % TOKENS]!)));
    const passed = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 402);
    expect(passed).toHaveLength(100);
    expect(refused).toHaveLength(200);
    for (const answer of passed) expect(answer.body).toMatchObject({ status: 200, score: expect.any(Number), credits_used: COST });
    for (const answer of refused) {
      expect(answer.body).toEqual({
        status: 402,
        error: 'PAYMENT_REQUIRED',
        description: expect.stringMatching(/^Insufficient credits: this request costs 75 credits and the balance is \d+\.$/),
      });
    }
    // Each accepted charge left its own balance, from 100 requests' worth down to none.
    expect(passed.map((a) => a.body.credits_remaining).sort((x, y) => Number(x) - Number(y)))
      .toEqual(Array.from({ length: 100 }, (_, i) => i * COST));
    expect(passed.filter((a) => a.node === 0).length).toBeGreaterThan(0);
    expect(passed.filter((a) => a.node === 1).length).toBeGreaterThan(0);
    expect(await ledger.balance(accountId)).toBe(0);
    expect((await ledger.history(accountId, 1000)).filter((e) => e.kind === 'charge')).toHaveLength(100);
    expect(workers.map(finishedJobs).every((n) => n > 0)).toBe(true);
  }, 60_000);

  it('runs only the jobs a balance pays for: 40 concurrent requests over both nodes on a balance for 6 start 6 jobs', async () => {
    const { accountId, tokens } = await client(6 * COST);
    const startedBefore = workers.flatMap((w) => logEvents(w.log, 'job_start', 'job_retry')).length;
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => detect(i % 2, tokens[i % TOKENS]!)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(6);
    expect(answers.filter((a) => a.status === 402)).toHaveLength(34);
    await workersIdle();
    const startedAfter = workers.flatMap((w) => logEvents(w.log, 'job_start', 'job_retry')).length;
    expect(startedAfter - startedBefore).toBe(6);
    expect(await ledger.balance(accountId)).toBe(0);
  }, 60_000);

  it('lets no unauthenticated client make an authenticated request wait: 300 stalled /mcp/v1 and 60 REST bodies on one node', async () => {
    const { tokens } = await client(100 * COST);
    const { hostname, port } = new URL(nodes[0]!.url);
    const sockets: Socket[] = [];
    const heads = [
      `POST /mcp/v1 HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nAccept: application/json\r\n`,
      `POST /v2/ai-content-detection HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n`,
    ];
    try {
      // 300 on the tool server, more than the node's 256 analysis places, and 60 on REST, each declaring 100,000
      // bytes and sending 17.
      await Promise.all(Array.from({ length: 360 }, (_, i) => new Promise<void>((resolve) => {
        const socket = connect(Number(port), hostname, () => {
          socket.write(`${heads[i < 300 ? 0 : 1]}Content-Length: 100000\r\n\r\n{"jsonrpc":"2.0",`);
          resolve();
        });
        socket.on('error', () => resolve());
        sockets.push(socket);
      })));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const health = [];
      for (let i = 0; i < 20; i++) {
        const response = await fetch(`${nodes[0]!.url}/health`);
        await response.arrayBuffer();
        health.push(response.status);
      }
      expect(health).toEqual(Array(20).fill(200));
      const answers = await Promise.all([0, 1, 2].map((i) => detect(0, tokens[i]!)));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  }, 60_000);

  it('keeps no charge of a node killed with SIGKILL mid-load whose answer its client did not receive', async () => {
    const perNode = 120;
    const credits = 1_000_000;
    const toA = await client(credits);
    const toB = await client(credits);
    let answeredOnB = 0;
    let killed: Promise<void> | undefined;
    const onB = Array.from({ length: perNode }, (_, i) => detect(1, toB.tokens[i % TOKENS]!).then((answer) => {
      // Mid-load: ten answers are in, the others are queued, running or being charged.
      if (answer.status === 200 && ++answeredOnB === 10) killed = kill(nodes[1]!.child);
      return answer;
    }));
    const onA = Array.from({ length: perNode }, (_, i) => detect(0, toA.tokens[i % TOKENS]!));
    const [answersA, answersB] = await Promise.all([Promise.all(onA), Promise.all(onB)]);
    await killed;
    expect(killed).toBeDefined();

    // The node that lived answered everything and charged it all, exactly.
    expect(answersA.filter((a) => a.status === 200)).toHaveLength(perNode);
    expect(await ledger.balance(toA.accountId)).toBe(credits - perNode * COST);

    const receivedB = answersB.filter((a) => a.status === 200);
    const lostB = answersB.filter((a) => a.status === 'lost');
    expect(receivedB.length).toBeGreaterThanOrEqual(10);
    expect(lostB.length).toBeGreaterThan(0);
    expect(receivedB.length + lostB.length).toBe(perNode);
    // The workers finish the jobs the dead node left (and nobody charges them); meanwhile PostgreSQL sees the dead
    // node's connections close and rolls back what they left open.
    await workersIdle();
    // A charge whose answer was still being handed over when the node died is pending under the dead node's lease:
    // any live ledger refunds it (node A's every 5 seconds, this one now; whichever takes the lease first).
    for (let i = 0; i < 100 && (await ledger.recoverUndelivered()) + (await ledger.pendingDeliveries()) > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await ledger.pendingDeliveries()).toBe(0);
    const entriesB = await ledger.history(toB.accountId, 1000);
    const refunded = new Set(entriesB.filter((e) => e.kind === 'refund').map((e) => e.refundOf));
    const keptB = entriesB.filter((e) => e.kind === 'charge' && !refunded.has(e.id));
    // Every answer B gave was charged (the balance after its charge is the credits_remaining its client read), and
    // every charge kept is one whose answer a client holds. A charge whose answer was out but not yet marked
    // delivered when the node died is refunded too: an answer may go uncharged, never a charge unanswered.
    const chargedBalances = new Set(entriesB.filter((e) => e.kind === 'charge').map((e) => e.balanceAfter));
    expect(receivedB.filter((a) => !chargedBalances.has(Number(a.body.credits_remaining)))).toEqual([]);
    const remainingSeen = new Set(receivedB.map((a) => a.body.credits_remaining));
    expect(keptB.length).toBeLessThanOrEqual(receivedB.length);
    expect(keptB.filter((e) => !remainingSeen.has(e.balanceAfter))).toEqual([]);
    expect(await ledger.balance(toB.accountId)).toBe(credits - keptB.length * COST);
  }, 60_000);
});
