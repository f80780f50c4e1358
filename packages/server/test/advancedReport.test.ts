import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLedger } from '@content-analysis/credits';
import { Engine, builtinFeatures } from '@content-analysis/engine';
import type { AnalysisOffload } from '@content-analysis/engine';
import { close, createApiServer, listen } from '../src/index.js';
import { json, startHarness } from './harness.js';
import type { Harness } from './harness.js';
import { FixedAiImageClassifierDouble, gradientPng, imageHost } from './testImage.js';

const PHOTO = gradientPng(320, 288);
const URL = 'http://images.example.com/photo.png';

let host: Awaited<ReturnType<typeof imageHost>>;
let h: Harness;
/** A test double answering 0.2 for every image; these tests are about the answer around the analysis. 1100 credits
 * pay for the two analyses of the first test, so the last request of the second finds too few. */
const classifier = new FixedAiImageClassifierDouble(0.2);
beforeAll(async () => {
  host = await imageHost({ '/photo.png': PHOTO });
  h = await startHarness({ features: builtinFeatures(), fetch: host.fetch, services: { imageClassifier: classifier }, credits: 1100 });
});
afterAll(async () => {
  await h.stop();
  await host.close();
});

describe('POST /v2/advanced-image-detection with report: "html"', () => {
  it('answers the same analysis as one self-contained HTML page, charged 500 credits like the JSON', async () => {
    const before = await h.ledger.balance(h.accountId);
    const jsonAnswer = await json(await h.post('/v2/advanced-image-detection', { image_url: URL }));
    expect(jsonAnswer.balance).toBe(before - 500);
    expect('report_figures' in jsonAnswer).toBe(false);
    const response = await h.post('/v2/advanced-image-detection', { image_url: URL, report: 'html' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await response.text();
    expect(await h.ledger.balance(h.accountId)).toBe(before - 1000);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain(`<h1>${jsonAnswer.title}</h1>`);
    expect(html).toContain(`<div class="badge">${jsonAnswer.authenticity}</div>`);
    expect(html).toContain(`<dt>Balance</dt><dd>${before - 1000} credits</dd>`);
    // The image and the six kernels' main maps, plus their further maps; every image embedded, nothing to fetch.
    const sources = [...html.matchAll(/<img src="([^"]*)"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThanOrEqual(7);
    expect(sources.every((s) => s.startsWith('data:image/'))).toBe(true);
    expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
  }, 60_000);

  it('documents the option and the page in the OpenAPI document', async () => {
    const doc = await json(await fetch(`${h.url}/openapi.json`));
    const post = doc.paths['/v2/advanced-image-detection'].post;
    expect(post.requestBody.content['application/json'].schema.properties.report.enum).toEqual(['json', 'html']);
    expect(Object.keys(post.responses['200'].content)).toEqual(['application/json', 'text/html']);
    expect(Object.keys(doc.paths['/v2/image-detection'].post.responses['200'].content)).toEqual(['application/json']);
  });

  it('keeps the JSON error answers and charges nothing for them', async () => {
    const unauthorized = await h.post('/v2/advanced-image-detection', { image_url: URL, report: 'html' }, { token: null });
    expect(unauthorized.status).toBe(401);
    expect((await json(unauthorized)).error).toBe('Unauthorized');
    const before = await h.ledger.balance(h.accountId);
    const bad = await h.post('/v2/advanced-image-detection', { image_url: URL, report: 'pdf' });
    expect(bad.status).toBe(400);
    expect(await json(bad)).toMatchObject({ error: 'Invalid URL provided', description: 'report must be "json" or "html"' });
    const poor = await h.post('/v2/advanced-image-detection', { image_url: URL, report: 'html' });
    expect(poor.status).toBe(402);
    expect((await json(poor)).error).toBe('Insufficient credits');
    expect(await h.ledger.balance(h.accountId)).toBe(before);
  }, 60_000);

  it('answers the page when a worker analysed the request: the figures cross from the worker as JSON', async () => {
    const worker = new Engine({ features: builtinFeatures(), fetch: host.fetch, services: { imageClassifier: classifier } });
    const offloaded: string[] = [];
    // As the Redis queue does: the worker's result travels as JSON text.
    const offload: AnalysisOffload = {
      accepts: (featureId) => featureId === 'advanced-image-detection',
      analyse: async (featureId, body) => {
        offloaded.push(featureId);
        return JSON.parse(JSON.stringify(await worker.analyse(featureId, body))) as Record<string, unknown>;
      },
    };
    const ledger = new MemoryLedger();
    const server = createApiServer({ engine: new Engine({ ledger, features: builtinFeatures(), offload }), rateLimit: false, log: () => undefined });
    const { url } = await listen(server, 0);
    try {
      const account = await ledger.createAccount({ credits: 2000 });
      const { token } = await ledger.createToken(account.id);
      const response = await fetch(`${url}/v2/advanced-image-detection`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ image_url: URL, report: 'html' }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await response.text();
      expect(offloaded).toEqual(['advanced-image-detection']);
      expect(html).toContain('<dt>Balance</dt><dd>1500 credits</dd>');
      expect([...html.matchAll(/<img src="data:image\/png;base64,/g)].length).toBeGreaterThanOrEqual(6);
      expect(await ledger.balance(account.id)).toBe(1500);
    } finally {
      server.closeAllConnections();
      await close(server);
    }
  }, 60_000);
});
