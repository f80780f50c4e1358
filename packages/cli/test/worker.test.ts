import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countWords, PostgresLedger } from '@content-analysis/credits';
import { Engine } from '@content-analysis/engine';
import { AnalysisQueue, close, createApiServer, listen } from '@content-analysis/server';
import type { JobStores } from '@content-analysis/server';
import { jobStoresOf } from '../src/jobStores.js';
import { sourcesPath } from '../src/ledgerFile.js';
import { serveStores } from '../src/serve.js';
import {
  deleteKeys, dropSchema, freshKeyPrefix, freshSchema, postgresSkipReason, postgresUrl, redisSkipReason, redisUrl,
} from '../../server/test/services.js';
import { gradientPng } from '../../server/test/testImage.js';
import { buildWorkspace } from './build.js';
import { kill, killAll, logEvents, startWorker as startCliWorker } from './processes.js';
import type { WorkerProcess } from './processes.js';

/**
 * `content-analysis worker`: an API node in this process queues image detection, plagiarism and fact checks in Redis (fresh key prefix per test)
 * and charges in PostgreSQL (fresh schema per test); the workers are child processes of the built CLI.
 */
const skip = (await redisSkipReason('worker tests')) ?? (await postgresSkipReason('worker tests'));

const IMAGE = gradientPng(320, 288).toString('base64');
const KEEPER_SOURCE = 'The lighthouse keeper climbed the spiral stairs every evening at dusk to light the lamp. In winter storms the ' +
  'waves rose higher than the rocks, and salt spray coated the windows of the lantern room.';
const ESSAY = 'Coastal life has always depended on small acts of care. The lighthouse keeper climbed the spiral stairs every ' +
  'evening at dusk to light the lamp. Nobody in the village thought of this as heroic; it was simply the job.';
const EIFFEL_EVIDENCE = 'The Eiffel Tower in Paris was completed in 1889. The tower is 330 metres tall.';
const CLAIMS = 'The Eiffel Tower was completed in 1889 for the World Fair in Paris. It is about 330 metres tall. I think it ' +
  'is the most beautiful building in Europe, and millions of people visit it every year to see the city from above. ' +
  'Nobody I know has ever climbed all of its stairs, although the lifts are slow in summer.';
const COST = 300;
/** Short locks, so that a killed worker's job is taken again within seconds. */
const LOCK_SECONDS = 2;

beforeAll(() => {
  if (skip === undefined) buildWorkspace();
}, 120_000);
afterAll(killAll);

describe.skipIf(skip !== undefined)('content-analysis worker', () => {
  let schema: string;
  let prefix: string;
  let ledger: PostgresLedger;
  let queue: AnalysisQueue | undefined;
  let server: Server | undefined;
  let url: string;
  let workers: WorkerProcess[];

  async function startApi(timeoutMs: number, stores?: JobStores): Promise<void> {
    const opened = await AnalysisQueue.open({ url: redisUrl, prefix, timeoutMs, ...(stores ? { stores } : {}) });
    queue = opened;
    server = createApiServer({ engine: new Engine({ ledger, offload: opened }), log: () => undefined });
    url = (await listen(server, 0)).url;
  }

  beforeEach(async () => {
    schema = freshSchema();
    prefix = freshKeyPrefix();
    ledger = await PostgresLedger.open({ connectionString: postgresUrl, schema, maxConnections: 4 });
    workers = [];
  });

  afterEach(async () => {
    await Promise.all(workers.map((w) => kill(w.child)));
    if (server) {
      server.closeAllConnections();
      await close(server);
      server = undefined;
    }
    await queue?.close();
    queue = undefined;
    await ledger.close();
    await deleteKeys(prefix);
    await dropSchema(schema);
  });

  async function startWorker(holdMs: number, concurrency = 1, collections: string[] = []): Promise<WorkerProcess> {
    const worker = await startCliWorker(
      ['--redis', redisUrl, '--queue-prefix', prefix, '--concurrency', String(concurrency), '--lock-duration', String(LOCK_SECONDS), ...collections],
      { ...process.env, CONTENT_ANALYSIS_WORKER_HOLD_MS: String(holdMs), CONTENT_ANALYSIS_DATABASE_URL: '' },
    );
    workers.push(worker);
    return worker;
  }

  /** Resolves with the worker whose log first shows a started job. */
  async function firstToStart(candidates: WorkerProcess[], timeoutMs = 20_000): Promise<WorkerProcess> {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      const found = candidates.find((w) => logEvents(w.log, 'job_start', 'job_retry').length > 0);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('no worker started a job');
  }

  async function client(credits: number): Promise<{ accountId: string; token: string }> {
    const account = await ledger.createAccount({ credits });
    const { token } = await ledger.createToken(account.id);
    return { accountId: account.id, token };
  }

  function post(path: string, token: string, body: unknown): Promise<Response> {
    return fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
  }

  function detect(token: string): Promise<Response> {
    return post('/v2/image-detection', token, { image: IMAGE });
  }

  it('runs image detection jobs on two worker processes and charges each request once', async () => {
    await startApi(60_000);
    const pair = await Promise.all([startWorker(400), startWorker(400)]);
    const { accountId, token } = await client(5000);
    const responses = await Promise.all(Array.from({ length: 4 }, () => detect(token)));
    const bodies = (await Promise.all(responses.map((r) => r.json()))) as Record<string, unknown>[];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    for (const body of bodies) expect(body).toMatchObject({ version: '5', mime_type: 'image/png', credits_used: COST });
    expect(await ledger.balance(accountId)).toBe(5000 - 4 * COST);
    const finished = pair.map((w) => logEvents(w.log, 'job_finish').length);
    expect(finished[0]! + finished[1]!).toBe(4);
    expect(finished.every((n) => n > 0)).toBe(true);
  }, 60_000);

  it('retries the job of a worker killed mid-job on the other worker, and charges the request once', async () => {
    await startApi(60_000);
    const pair = await Promise.all([startWorker(3000), startWorker(3000)]);
    const { accountId, token } = await client(1000);
    const pending = detect(token);
    const victim = await firstToStart(pair);
    victim.child.kill('SIGKILL');
    await victim.exited;
    const survivor = pair.find((w) => w !== victim)!;
    const response = await pending;
    expect(response.status).toBe(200);
    expect(((await response.json()) as Record<string, unknown>).credits_remaining).toBe(1000 - COST);
    expect(logEvents(survivor.log, 'job_retry')).toContainEqual(expect.objectContaining({ feature: 'image-detection', attempt: 2 }));
    expect(logEvents(survivor.log, 'job_finish')).toHaveLength(1);
    expect(await ledger.balance(accountId)).toBe(1000 - COST);
    expect((await ledger.history(accountId, 10)).filter((entry) => entry.kind === 'charge')).toEqual([expect.objectContaining({ amount: COST, memo: 'image-detection' })]);
  }, 60_000);

  it('lets a running job finish on SIGTERM, then exits 0', async () => {
    await startApi(60_000);
    const worker = await startWorker(1500);
    const { accountId, token } = await client(1000);
    const pending = detect(token);
    await firstToStart([worker]);
    worker.child.kill('SIGTERM');
    const response = await pending;
    expect(response.status).toBe(200);
    expect(await worker.exited).toBe(0);
    expect(worker.out).toContain('content-analysis worker stopped');
    expect(await ledger.balance(accountId)).toBe(1000 - COST);
  }, 60_000);

  it('checks plagiarism (v2 and v1) and facts on a worker, against the collections given to the worker, and charges each once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-worker-collections-'));
    try {
      const sources = join(dir, 'sources.jsonl');
      const evidence = join(dir, 'evidence.jsonl');
      writeFileSync(sources, `${JSON.stringify({ url: 'https://history.example.org/keeper', text: KEEPER_SOURCE })}\n`);
      writeFileSync(evidence, `${JSON.stringify({ url: 'https://encyclopedia.example.org/eiffel', title: 'Eiffel Tower', text: EIFFEL_EVIDENCE })}\n`);
      // The API node in this process names the worker's stores in its jobs but reads none itself: what it answers
      // came from the worker.
      await startApi(60_000, jobStoresOf({ stores: serveStores({}, {}), sharedIndex: false, indexPath: sourcesPath(undefined, {}), sources, evidence }));
      const worker = await startWorker(0, 1, ['--sources', sources, '--evidence', evidence]);
      const { accountId, token } = await client(5000);
      const v2 = await post('/v2/plagiarism', token, { text: ESSAY });
      const v1 = await post('/v1/plagiarism', token, { text: ESSAY });
      const facts = await post('/v2/fact-checker', token, { text: CLAIMS });
      expect([v2.status, v1.status, facts.status]).toEqual([200, 200, 200]);
      const [v2Body, v1Body, factsBody] = (await Promise.all([v2.json(), v1.json(), facts.json()])) as any[];
      const essayCost = 2 * countWords(ESSAY);
      const claimsCost = 2 * countWords(CLAIMS);
      expect(v2Body.sources.map((source: { url: string }) => source.url)).toEqual(['https://history.example.org/keeper']);
      expect(v2Body).toMatchObject({ credits_used: essayCost, credits_remaining: 5000 - essayCost });
      expect(v1Body).toMatchObject({ results_count: 1, credits_used: essayCost, credits_remaining: 5000 - 2 * essayCost });
      expect(factsBody.claims.some((c: { links: { url: string }[] }) => c.links.some((l) => l.url === 'https://encyclopedia.example.org/eiffel'))).toBe(true);
      expect(factsBody).toMatchObject({ creditsUsed: claimsCost, creditsRemaining: 5000 - 2 * essayCost - claimsCost });
      expect(await ledger.balance(accountId)).toBe(5000 - 2 * essayCost - claimsCost);
      expect((await ledger.history(accountId, 10)).filter((e) => e.kind === 'charge').map((e) => [e.memo, e.amount])).toEqual([
        ['fact-checker', claimsCost], ['plagiarism-v1', essayCost], ['plagiarism', essayCost],
      ]);
      expect(logEvents(worker.log, 'job_start').map((e) => e.feature))
        .toEqual(['plagiarism', 'plagiarism-v1', 'fact-checker']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses a plagiarism job meant for another source store: a clear 503, uncharged, and a log line', async () => {
    // The API nodes check against the PostgreSQL index; this worker was started without --database.
    await startApi(60_000, { sources: 'postgres://127.0.0.1:5432/test schema shared_sources', evidence: 'none' });
    const worker = await startWorker(0);
    const { accountId, token } = await client(5000);
    const response = await post('/v2/plagiarism', token, { text: ESSAY });
    expect(response.status).toBe(503);
    const body = (await response.json()) as { description: string };
    expect(body.description).toMatch(/^The analysis worker that took this request cannot run it: the API node's plagiarism sources are postgres:\/\/127\.0\.0\.1:5432\/test schema shared_sources but this worker's are sqlite \S+sources\.sqlite\. Nothing was charged/);
    expect(await ledger.balance(accountId)).toBe(5000);
    expect(logEvents(worker.log, 'job_refused')).toEqual([expect.objectContaining({ feature: 'plagiarism', reason: expect.stringContaining('schema shared_sources') })]);
    // Image detection needs no store: the same worker runs it.
    expect((await detect(token)).status).toBe(200);
  }, 60_000);

  it('answers 503 and charges nothing when no worker finishes the job in time', async () => {
    await startApi(1000);
    const { accountId, token } = await client(1000);
    const response = await detect(token);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toMatchObject({ status: 503, error: 'SERVICE_UNAVAILABLE' });
    expect(await ledger.balance(accountId)).toBe(1000);
  }, 30_000);
});

