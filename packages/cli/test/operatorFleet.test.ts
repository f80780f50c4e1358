import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countWords, PostgresLedger } from '@content-analysis/credits';
import {
  deleteKeys, dropSchema, freshKeyPrefix, freshSchema, postgresSkipReason, postgresUrl, redisConnection, redisSkipReason, redisUrl,
} from '../../server/test/services.js';
import { gradientPng } from '../../server/test/testImage.js';
import { main } from '../src/index.js';
import { buildWorkspace } from './build.js';
import { captureIo } from './io.js';
import { kill, killAll, logEvents, startServe, startWorker, storeFreeEnvironment } from './processes.js';
import type { ServeNode, WorkerProcess } from './processes.js';

/**
 * What an operator does with a fleet, every part a process of the built CLI on one PostgreSQL schema and one Redis
 * prefix made for this file: accounts, tokens and credits made with the CLI against PostgreSQL; an image burst whose
 * only worker is killed with SIGKILL while Redis shows a job active, then a second worker started; every request
 * answered and charged once; Redis holding none of the inputs afterwards; /metrics and the logs showing what happened.
 */
const skip = (await postgresSkipReason('operator fleet tests')) ?? (await redisSkipReason('operator fleet tests'));

const IMAGES = [0, 1, 2, 3].map((i) => gradientPng(320 + 16 * i, 288).toString('base64'));
const IMAGE_COST = 300;
/** One credit a word; a sentence no result carries verbatim unless the input stays somewhere. */
const TEXT = 'The quiet cartographer of Vellmar drew seventeen rivers that nobody had ever sailed, and every spring she added one more. '
  .repeat(3).trim();
const TEXT_COST = countWords(TEXT);

async function cli(argv: string[]): Promise<Record<string, unknown>> {
  const io = captureIo();
  const code = await main(argv, io);
  if (code !== 0) throw new Error(`content-analysis ${argv.join(' ')} exited ${code}: ${io.err()}`);
  return JSON.parse(io.out()) as Record<string, unknown>;
}

/** Every value stored under `prefix`, whatever its type, as one string. */
async function redisContent(redis: ReturnType<typeof redisConnection>, prefix: string): Promise<{ keys: string[]; content: string }> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    keys.push(...found);
    cursor = next;
  } while (cursor !== '0');
  let content = '';
  for (const key of keys) {
    const type = await redis.type(key);
    const value = type === 'string' ? await redis.get(key)
      : type === 'hash' ? await redis.hgetall(key)
      : type === 'list' ? await redis.lrange(key, '0', '-1')
      : type === 'set' ? await redis.smembers(key)
      : type === 'zset' ? await redis.zrange(key, '0', '-1')
      : type === 'stream' ? await redis.xrange(key, '-', '+')
      : type;
    content += `${key} ${JSON.stringify(value)}\n`;
  }
  return { keys, content };
}

describe.skipIf(skip !== undefined)('an operator\'s fleet on PostgreSQL and Redis', () => {
  const schema = freshSchema();
  const ratePrefix = freshKeyPrefix();
  const queuePrefix = freshKeyPrefix();
  const database = ['--database', postgresUrl, '--database-schema', schema];
  const queue = ['--redis', redisUrl, '--queue-prefix', queuePrefix];
  let node: ServeNode;
  let redis: ReturnType<typeof redisConnection>;
  let ledger: PostgresLedger;

  beforeAll(async () => {
    buildWorkspace();
    redis = redisConnection();
    node = await startServe([...database, '--redis-prefix', ratePrefix, '--no-tool-server', ...queue], storeFreeEnvironment());
    ledger = await PostgresLedger.open({ connectionString: postgresUrl, schema, maxConnections: 1 });
  }, 120_000);

  afterAll(async () => {
    await killAll();
    redis?.disconnect();
    await ledger?.close();
    await deleteKeys(ratePrefix);
    await deleteKeys(queuePrefix);
    await dropSchema(schema);
  });

  it('finishes an image burst whose only worker was killed mid-job on a second worker: all 200, each charged once, no input left in Redis', async () => {
    await cli(['accounts', 'create', 'imaging', '--credits', '0', ...database]);
    const { token } = await cli(['tokens', 'create', '--account', 'imaging', '--label', 'burst', ...database]) as { token: string };
    expect(await cli(['credits', 'add', String(4 * IMAGE_COST + 2 * TEXT_COST), '--account', 'imaging', ...database])).toEqual({ account: 'imaging', balance: 4 * IMAGE_COST + 2 * TEXT_COST });

    // Short locks, so that the dead worker's job is found stalled within seconds.
    const first = await startWorker([...queue, '--lock-duration', '2'], { ...storeFreeEnvironment(), CONTENT_ANALYSIS_WORKER_HOLD_MS: '1500' });
    const post = (path: string, body: unknown) => fetch(`${node.url}${path}`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
    // The images first, and the texts once an image job is in the queue, so that the job the first worker holds when
    // it is killed is an image's (the queue is first in, first out; sent together, a text could be queued first).
    const images = IMAGES.map((image) => post('/v2/image-detection', { image }));
    const active = `${queuePrefix}:analysis:active`;
    const queued = async () => (await redis.llen(`${queuePrefix}:analysis:wait`)) + (await redis.llen(active));
    for (let i = 0; i < 400 && (await queued()) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    const pending = [
      ...images,
      post('/v2/ai-content-detection', { text: TEXT }),
      post('/v2/ai-content-detection', { text: TEXT }),
    ];
    for (let i = 0; i < 400 && (await redis.llen(active)) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await redis.llen(active)).toBeGreaterThan(0);
    await kill(first.child);
    const second: WorkerProcess = await startWorker([...queue, '--lock-duration', '2', '--concurrency', '2'], storeFreeEnvironment());

    const answers = await Promise.all(pending);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await ledger.balance('imaging')).toBe(0);
    const charges = (await ledger.history('imaging', 100)).filter((e) => e.kind === 'charge');
    expect(charges.map((e) => e.amount).sort()).toEqual([IMAGE_COST, IMAGE_COST, IMAGE_COST, IMAGE_COST, TEXT_COST, TEXT_COST].sort());
    expect(logEvents(second.log, 'job_retry').length).toBeGreaterThan(0);
    expect(logEvents(second.log, 'job_finish').length).toBeGreaterThanOrEqual(6 - logEvents(first.log, 'job_finish').length);

    // Nothing of the inputs stays in Redis: no job, no image bytes, no text.
    const { keys, content } = await redisContent(redis, queuePrefix);
    expect(keys.filter((key) => /:analysis:[0-9a-f-]{36}$/.test(key))).toEqual([]);
    for (const image of IMAGES) expect(content.includes(image.slice(1000, 1100))).toBe(false);
    expect(content.includes('cartographer of Vellmar')).toBe(false);

    // The node's metrics and request log saw the burst.
    const metrics = await (await fetch(`${node.url}/metrics`)).text();
    expect(metrics).toMatch(/content_analysis_http_requests_total\{route="\/v2\/image-detection",method="POST",status="200"\} 4\n/);
    expect(metrics).toMatch(/content_analysis_credits_charged_total\{route="\/v2\/image-detection"\} 1200\n/);
    expect(metrics).toMatch(/content_analysis_job_retries_total\{feature="image-detection"\} [1-9]/);
    expect(metrics).toMatch(/content_analysis_queue_jobs\{state="active"\} 0\n/);
    expect(metrics).toMatch(/content_analysis_http_request_duration_seconds_bucket\{le="\+Inf",route="\/v2\/ai-content-detection",method="POST"\} 2\n/);
    const requests = logEvents(node.log, 'request').filter((e) => e.route === '/v2/image-detection');
    expect(requests).toHaveLength(4);
    for (const entry of requests) expect(entry).toMatchObject({ status: 200, credits: IMAGE_COST, request_id: expect.any(String), duration_ms: expect.any(Number) });
    const ready = await fetch(`${node.url}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { models: true, database: true, redis: true } });
  }, 180_000);
});
