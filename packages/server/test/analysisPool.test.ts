import { afterEach, describe, expect, it } from 'vitest';
import { countWords } from '@content-analysis/credits';
import { aiContentDetectionFeature, AnalysisPool } from '@content-analysis/engine';
import { startHarness } from './harness.js';
import type { Harness } from './harness.js';

const ESSAY =
  'My grandmother kept bees behind the shed for almost forty years, and every August the whole house smelled of ' +
  'wax. She never wore gloves. When I asked her why, she said the bees knew her hands better than she did, which ' +
  'made no sense to me at nine and makes only a little more sense now. The honey was dark, almost bitter some ' +
  'years, and she sold it from a card table at the end of the lane with a coffee tin for the money. ';

/** Close to the endpoint's 150,000-character limit: the longest AI-text request. */
const LONG = ESSAY.repeat(Math.floor(150_000 / ESSAY.length));

let harness: Harness | undefined;
let pool: AnalysisPool | undefined;
afterEach(async () => {
  await harness?.stop();
  await pool?.close();
  harness = pool = undefined;
});

describe('the analysis pool behind the HTTP API', () => {
  /** One task running and one waiting: a pool of one thread with `maxQueue: 1` is full until the first ends. */
  function fillQueue(full: AnalysisPool): Promise<unknown> {
    const fill = Promise.all([0, 1].map(() => full.run('aiText', { text: LONG, options: { sentences: true } })));
    expect(full.queueSize).toBe(1);
    return fill;
  }

  it('answers 503 with Retry-After and the error body when the queue is full, and charges nothing for it', async () => {
    pool = new AnalysisPool({ threads: 1, maxQueue: 1, retryAfter: 2 });
    harness = await startHarness({ features: [aiContentDetectionFeature], credits: 1_000_000, analysis: { pool } });
    const filled = fillQueue(pool);
    const refused = await harness.post('/v2/ai-content-detection', { text: ESSAY });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(await refused.json()).toEqual({
      status: 503,
      error: 'SERVICE_UNAVAILABLE',
      description: 'The analysis queue is full (1 waiting); retry shortly.',
    });
    expect(await harness.ledger.balance(harness.accountId)).toBe(1_000_000);
    await filled;
    // Once the queue drains the same request is served and charged.
    const served = await harness.post('/v2/ai-content-detection', { text: ESSAY });
    expect(served.status).toBe(200);
    expect(await harness.ledger.balance(harness.accountId)).toBe(1_000_000 - countWords(ESSAY));
  });

  it('answers a tool call past the full queue with the same error body as an isError result, uncharged', async () => {
    pool = new AnalysisPool({ threads: 1, maxQueue: 1 });
    harness = await startHarness({ features: [aiContentDetectionFeature], credits: 1_000_000, analysis: { pool } });
    const h = harness;
    const filled = fillQueue(pool);
    const response = await fetch(`${h.url}/mcp/v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${h.token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ai-text-detection', arguments: { text: ESSAY } } }),
    });
    const { result } = (await response.json()) as { result: { isError?: boolean; content: Array<{ text: string }> } };
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0]!.text)).toEqual({
      status: 503, error: 'SERVICE_UNAVAILABLE', description: 'The analysis queue is full (1 waiting); retry shortly.',
    });
    expect(await h.ledger.balance(h.accountId)).toBe(1_000_000);
    await filled;
  });

  it('keeps /health fast while a 150k-character AI-text request runs', async () => {
    pool = new AnalysisPool({ threads: 1 });
    harness = await startHarness({ features: [aiContentDetectionFeature], credits: 1_000_000, analysis: { pool } });
    const h = harness;
    // The worker loads its model on its first task; the timing is about a warm pool.
    expect((await h.post('/v2/ai-content-detection', { text: ESSAY.repeat(2) })).status).toBe(200);
    const started = performance.now();
    let done = false;
    const request = h.post('/v2/ai-content-detection', { text: LONG }).then(async (r) => {
      done = true;
      return { status: r.status, ms: performance.now() - started, body: await r.json() };
    });
    const health: number[] = [];
    while (!done) {
      const t = performance.now();
      const r = await fetch(`${h.url}/health`);
      expect(r.status).toBe(200);
      await r.json();
      health.push(performance.now() - t);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const { status, ms } = await request;
    expect(status).toBe(200);
    expect(health.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...health)).toBeLessThan(ms / 3);
  });
});
