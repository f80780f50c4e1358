import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { countWords, MemoryLedger, PostgresLedger, SqliteLedger } from '@content-analysis/credits';
import type { Ledger } from '@content-analysis/credits';
import { Engine, imageDetectionFeature, plagiarismFeature } from '@content-analysis/engine';
import { AnalysisQueue, AnalysisWorker, close, createApiServer, listen } from '../src/index.js';
import { startHarness } from './harness.js';
import {
  deleteKeys, dropSchema, freshKeyPrefix, freshSchema, postgresSkipReason, postgresUrl, redisSkipReason, redisUrl,
} from './services.js';
import { FixedAiImageClassifierDouble, gradientPng } from './testImage.js';

/**
 * Issue 26, items 3 and 8: the cost of a request is reserved before any work, on every ledger and through the
 * queue, and in scale-out mode a worker analyses the input its API node read and priced instead of fetching it again.
 */

const IMAGE = gradientPng(320, 288).toString('base64');
const IMAGE_COST = 300;

/** 40 image detections at once for an account of 2000 credits (6 detections); the statuses, sorted. */
async function fortyDetections(url: string, token: string): Promise<number[]> {
  const responses = await Promise.all(Array.from({ length: 40 }, () => fetch(`${url}/v2/image-detection`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ image: IMAGE }),
  })));
  await Promise.all(responses.map((r) => r.arrayBuffer()));
  return responses.map((r) => r.status).sort();
}

const SIX_AND_34 = [...Array(6).fill(200), ...Array(34).fill(402)];

const pgSkip = await postgresSkipReason('Reservation tests on PostgreSQL');
const queueSkip = (await redisSkipReason('Reservation tests through the queue')) ?? pgSkip;

describe('40 concurrent image detections on a balance for 6', () => {
  const dirs: string[] = [];
  const schemas: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    for (const schema of schemas) await dropSchema(schema);
  });

  const ledgers: Array<[string, () => Promise<Ledger>, string | undefined]> = [
    ['memory', async () => new MemoryLedger(), undefined],
    ['SQLite', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'reservation-'));
      dirs.push(dir);
      return new SqliteLedger({ path: join(dir, 'ledger.db') });
    }, undefined],
    ['PostgreSQL', async () => {
      const schema = freshSchema();
      schemas.push(schema);
      return PostgresLedger.open({ connectionString: postgresUrl, schema, maxConnections: 4 });
    }, pgSkip],
  ];

  for (const [name, open, skip] of ledgers) {
    it.skipIf(skip !== undefined)(`run 6 and refuse 34 with 402 before any work, on the ${name} ledger`, async () => {
      const classifier = new FixedAiImageClassifierDouble(0.2);
      const h = await startHarness({ features: [imageDetectionFeature], services: { imageClassifier: classifier }, ledger: await open() });
      try {
        expect(await fortyDetections(h.url, h.token)).toEqual(SIX_AND_34);
        expect(classifier.versions).toHaveLength(6);
        expect(await h.ledger.balance(h.accountId)).toBe(2000 - 6 * IMAGE_COST);
        const entries = await h.ledger.history(h.accountId, 1000);
        expect(entries.filter((e) => e.kind === 'charge')).toHaveLength(6);
        expect(entries.filter((e) => e.kind === 'refund')).toHaveLength(0);
      } finally {
        await h.stop();
      }
    }, 60_000);
  }
});

/** A loopback web page that serves `first` on its first fetch and `later` on every other one. */
async function changingPage(first: string, later: string): Promise<{ fetches: () => number; fetch: { resolve: () => Promise<Array<{ address: string; family: 4 }>>; dial: () => { host: string; port: number } }; close(): Promise<void> }> {
  let fetches = 0;
  const server = createServer((req, res) => {
    req.resume();
    const text = fetches++ === 0 ? first : later;
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    fetches: () => fetches,
    fetch: { resolve: async () => [{ address: '93.184.216.34', family: 4 }], dial: () => ({ host: '127.0.0.1', port }) },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const words = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word}${i % 97}`).join(' ');
const SHORT_PAGE = `${words(69, 'harbour')} end.`;
const LONG_PAGE = `${words(15_000, 'lantern')} end.`;

describe.skipIf(queueSkip !== undefined)('an API node and a worker on PostgreSQL and Redis', () => {
  let schema: string;
  let prefix: string;
  let ledger: PostgresLedger;
  let queue: AnalysisQueue;
  let worker: AnalysisWorker | undefined;
  let server: Server | undefined;
  let page: Awaited<ReturnType<typeof changingPage>> | undefined;

  beforeAll(async () => {
    schema = freshSchema();
    prefix = freshKeyPrefix();
    ledger = await PostgresLedger.open({ connectionString: postgresUrl, schema, maxConnections: 4 });
    queue = await AnalysisQueue.open({ url: redisUrl, prefix, timeoutMs: 60_000 });
  });
  afterEach(async () => {
    if (server) {
      server.closeAllConnections();
      await close(server);
      server = undefined;
    }
    await worker?.close();
    worker = undefined;
    await page?.close();
    page = undefined;
  });
  afterAll(async () => {
    await queue.close();
    await ledger.close();
    await deleteKeys(prefix);
    await dropSchema(schema);
  });

  async function start(apiEngine: Engine, workerEngine: Engine, concurrency = 1): Promise<string> {
    worker = await AnalysisWorker.start(workerEngine, { url: redisUrl, prefix, concurrency, log: () => undefined });
    server = createApiServer({ engine: apiEngine, rateLimit: false, log: () => undefined });
    return (await listen(server, 0)).url;
  }

  async function client(credits: number): Promise<{ accountId: string; token: string }> {
    const account = await ledger.createAccount({ credits });
    return { accountId: account.id, token: (await ledger.createToken(account.id)).token };
  }

  it('charges a website on the text the worker analyses: fetched once by the API node, handed over as it is', async () => {
    page = await changingPage(SHORT_PAGE, LONG_PAGE);
    const url = await start(
      new Engine({ ledger, offload: queue, features: [plagiarismFeature], fetch: page.fetch }),
      new Engine({ features: [plagiarismFeature], fetch: page.fetch }),
    );
    const { accountId, token } = await client(100_000);
    const response = await fetch(`${url}/v2/plagiarism`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ website: 'http://pages.example.com/changing' }),
    });
    const body = (await response.json()) as any;
    expect(response.status).toBe(200);
    expect(page.fetches()).toBe(1);
    expect(body.text).toBe(SHORT_PAGE);
    expect(body.result.textWordCounts).toBe(countWords(SHORT_PAGE));
    expect(body.credits_used).toBe(2 * countWords(SHORT_PAGE));
    expect(await ledger.balance(accountId)).toBe(100_000 - 2 * countWords(SHORT_PAGE));
  }, 60_000);

  it('runs 6 of 40 concurrent image detections for a balance of 6 through the queue and refuses 34 before queueing', async () => {
    const classifier = new FixedAiImageClassifierDouble(0.2);
    const url = await start(
      new Engine({ ledger, offload: queue, features: [imageDetectionFeature] }),
      new Engine({ features: [imageDetectionFeature], services: { imageClassifier: classifier } }),
      2,
    );
    const { accountId, token } = await client(2000);
    expect(await fortyDetections(url, token)).toEqual(SIX_AND_34);
    expect(classifier.versions).toHaveLength(6);
    expect(await ledger.balance(accountId)).toBe(2000 - 6 * IMAGE_COST);
  }, 60_000);
});
