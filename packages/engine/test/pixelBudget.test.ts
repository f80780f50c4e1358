import { describe, expect, it } from 'vitest';
import type { AiImageClassification, AiImageClassifier } from '@content-analysis/classifiers';
import { pixelHeavyPng } from '../../../scripts/fuzz/lib/index.mjs';
import { analyzeImageAuthenticity, ApiError, detectAiImage, PixelBudget, processPixelBudget } from '../src/index.js';
import { meteredEngine, rejection, routeToLocal, startLocalServer } from './helpers.js';

/** A classifier that counts how many images it holds at once, answering after `ms`. */
function countingClassifier(ms: number): AiImageClassifier & { most: number } {
  let now = 0;
  const counter = {
    most: 0,
    async classify(): Promise<AiImageClassification> {
      now += 1;
      counter.most = Math.max(counter.most, now);
      await new Promise((resolve) => setTimeout(resolve, ms));
      now -= 1;
      return { version: '5', ai_probability: 0.5, human_probability: 0.5, score: 50, confidence: 'low' };
    },
  };
  return counter;
}

describe('PixelBudget', () => {
  it('admits work while its pixels fit, in order, and gives them back when it settles', async () => {
    const budget = new PixelBudget({ maxPixels: 100 });
    const order: string[] = [];
    let release: () => void = () => undefined;
    const first = budget.run(60, () => new Promise<void>((resolve) => { release = resolve; }).then(() => order.push('first')));
    const second = budget.run(60, async () => { order.push('second'); });
    await new Promise((resolve) => setImmediate(resolve));
    expect([budget.inFlight, budget.waiting]).toEqual([60, 1]);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
    expect([budget.inFlight, budget.waiting]).toEqual([0, 0]);
  });

  it('refuses with SERVICE_UNAVAILABLE and Retry-After when too many wait or one waits too long', async () => {
    const budget = new PixelBudget({ maxPixels: 10, maxWaiting: 1, maxWaitMs: 50, retryAfter: 7 });
    const hold = budget.run(10, () => new Promise((resolve) => setTimeout(resolve, 200)));
    const waiting = budget.run(10, async () => 'ran');
    await expect(budget.run(10, async () => 'ran')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfter: 7 });
    await expect(waiting).rejects.toBeInstanceOf(ApiError);
    await hold;
    expect(budget.inFlight).toBe(0);
  });

  it('runs an image larger than the whole budget alone', async () => {
    const budget = new PixelBudget({ maxPixels: 10 });
    await expect(budget.run(1_000, async () => 'alone')).resolves.toBe('alone');
  });

  it('checks its options', () => {
    expect(() => new PixelBudget({ maxPixels: 0 })).toThrow('Expected positive integer for maxPixels but received 0');
  });
});

describe('detectAiImage under a pixel budget (issue 26 item 7)', () => {
  it('decodes pixel-heavy PNGs sent at once one budget at a time and refuses the excess before any work', async () => {
    // 2000 x 2000 (4 Mpx, a few KB on the wire) against a budget of 5 Mpx: one image at a time.
    const png = pixelHeavyPng(2000, 2000);
    expect(png.length).toBeLessThan(20_000);
    const budget = new PixelBudget({ maxPixels: 5_000_000, maxWaiting: 3, maxWaitMs: 60_000 });
    const classifier = countingClassifier(20);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, () => detectAiImage(png, { classifier, version: '5', field: 'image', pixelBudget: budget })),
    );
    expect(classifier.most).toBe(1);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(4);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => o.reason as ApiError);
    expect(refused.map((e) => [e.code, e.retryAfter])).toEqual([['SERVICE_UNAVAILABLE', 5], ['SERVICE_UNAVAILABLE', 5]]);
    expect(budget.inFlight).toBe(0);
  });
});

describe('advanced image detection under the pixel budget (issue 26 item 7)', () => {
  it('decodes pixel-heavy PNGs sent at once one budget at a time and refuses the excess before any work', async () => {
    // 600 x 600 (0.36 Mpx) against a budget of 0.5 Mpx: one image at a time; 1 runs, 3 wait, 2 are refused.
    const png = pixelHeavyPng(600, 600);
    const budget = new PixelBudget({ maxPixels: 500_000, maxWaiting: 3, maxWaitMs: 120_000 });
    const classifier = countingClassifier(20);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, () => analyzeImageAuthenticity(png, { classifier, pixelBudget: budget })),
    );
    expect(classifier.most).toBe(1);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(4);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => o.reason as ApiError);
    expect(refused.map((e) => [e.code, e.retryAfter])).toEqual([['SERVICE_UNAVAILABLE', 5], ['SERVICE_UNAVAILABLE', 5]]);
    expect(budget.inFlight).toBe(0);
  });

  it('answers 503 with Retry-After and charges nothing when the process budget is full', async () => {
    const png = pixelHeavyPng(400, 400);
    const server = await startLocalServer((_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(png));
    // The process's budget held whole by one analysis and its waiting line full: the next image is refused at once.
    let release: () => void = () => undefined;
    const held = processPixelBudget.run(processPixelBudget.maxPixels, () => new Promise<void>((resolve) => { release = resolve; }));
    const waiters = Array.from({ length: processPixelBudget.maxWaiting }, () => processPixelBudget.run(1, async () => undefined));
    try {
      const { engine, ledger, accountId, token } = await meteredEngine({ credits: 2000, fetch: routeToLocal(() => server.port) });
      const error = await rejection(engine.execute('advanced-image-detection', { image_url: 'http://images.example.com/heavy.png' }, { token }));
      expect([error.code, error.retryAfter]).toEqual(['SERVICE_UNAVAILABLE', 5]);
      expect(await ledger.balance(accountId)).toBe(2000);
      expect((await ledger.history(accountId)).map((e) => e.kind).sort()).toEqual(['charge', 'refund', 'topup']);
    } finally {
      release();
      await Promise.all([held, ...waiters]);
      await server.close();
    }
    expect([processPixelBudget.inFlight, processPixelBudget.waiting]).toEqual([0, 0]);
  });
});
