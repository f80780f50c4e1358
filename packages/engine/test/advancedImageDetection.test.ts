import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { analyzeImage, ForensicsPool, FUSION_MODEL, fuseMaps, KERNEL_IDS, workerFilename } from '@content-analysis/forensics';
import type { KernelOutcome } from '@content-analysis/forensics';
import { ADVANCED_KERNELS, advancedImageDetectionResult, analyzeImageAuthenticity, ApiError, toAdvancedErrorBody } from '../src/index.js';
import { meteredEngine, routeToLocal, startLocalServer } from './helpers.js';
import { digitalSourceTypeXmp, failingClassifierDouble, FixedAiImageClassifierDouble, syntheticPhoto } from './images.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const DATASETS = process.env.CONTENT_ANALYSIS_DATASETS ?? join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'datasets');
const TAMPERED_C2PA = join(DATASETS, 'images', 'c2pa-sdk-fixtures', 'c2pa-rs', 'XCA.jpg');

let server: Awaited<ReturnType<typeof startLocalServer>>;
const files = new Map<string, Buffer>();
beforeAll(async () => {
  files.set('/photo.jpg', await syntheticPhoto());
  files.set('/declared.jpg', await syntheticPhoto({ xmp: digitalSourceTypeXmp('trainedAlgorithmicMedia') }));
  if (existsSync(TAMPERED_C2PA)) files.set('/tampered.jpg', readFileSync(TAMPERED_C2PA));
  files.set('/small.jpg', await syntheticPhoto({ width: 200, height: 150 }));
  files.set('/page.html', Buffer.from('<!doctype html><html><body>not an image</body></html>'));
  server = await startLocalServer((req, res) => {
    const body = files.get(req.url ?? '');
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': req.url!.endsWith('.html') ? 'text/html' : 'image/jpeg' }).end(body);
  });
});
afterAll(() => server.close());

/** A metered engine whose classify_image tool is the test double answering `aiProbability` for every image. */
const setup = (credits = 2000, aiProbability = 0.3) =>
  meteredEngine({ credits, fetch: routeToLocal(() => server.port), services: { imageClassifier: new FixedAiImageClassifierDouble(aiProbability) } });

async function advancedError(promise: Promise<unknown>) {
  const error = await promise.then(() => new Error('expected a rejection'), (e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return toAdvancedErrorBody(error as ApiError);
}

describe('/v2/advanced-image-detection', () => {
  it('reports every forensic tool with its measured numbers and charges 500 after the analysis', async () => {
    const { engine, ledger, accountId, token } = await setup();
    const { result } = await engine.execute('advanced-image-detection', { image_url: 'http://images.example.com/photo.jpg' }, { token });
    expect(advancedImageDetectionResult.safeParse(result).success).toBe(true);
    expect(result.status).toBe(200);
    expect(result.cost).toBe(500);
    expect(result.balance).toBe(1500);
    expect(await ledger.balance(accountId)).toBe(1500);
    expect(result.tool_used).toEqual(['classify_image', 'extract_metadata', 'ela_image', 'residual_noise_maps', 'edge_anomaly_heat_map', 'cfa_pattern_analysis']);
    const tools = result.tools_used_analysis as Array<{ id: string; analysis: string; result: any }>;
    // classify_image carries the classifier's own output (here the test double's fixed 0.3).
    const classify = tools.find((t) => t.id === 'classify_image')!;
    expect(classify.result).toEqual({
      version: '5',
      ai_probability: 0.3,
      human_probability: 0.7,
      score: 70,
      confidence: 'medium',
      provenance: { rule: 'none', overridden: false, ai_probability: 0.3, human_probability: 0.7, score: 70 },
    });
    expect(classify.analysis).toBe('Pixel classifier, model version 5: AI probability 0.3, human score 70 of 100 (likely human, medium confidence).');
    const ela = tools.find((t) => t.id === 'ela_image')!;
    expect(ela.result.kernels[0].kernel).toBe('ela');
    // The sentence quotes the kernel's own numbers.
    expect(ela.analysis).toContain(`99th percentile ${Math.round(ela.result.kernels[0].stats.p99)}`);
    expect(tools.find((t) => t.id === 'extract_metadata')!.result.metadata).toMatchObject({ format: 'jpeg', width: 512, height: 384 });
    // Nothing in a synthetic JPEG declares AI generation or carries credentials, so the classifier's 70 decides:
    // Human, at low confidence since 0.7 is not decisive.
    expect(result).toMatchObject({ label: 'Human', confidence: 'Low', authenticity: 'Authentic', language: 'en' });
    expect(result.title).toBe('JPEG image, 512x384');
    expect(result.analysis).toMatch(/the pixel classifier decides \(human score 70 of 100, model version 5\), too close to its threshold to be sure\./);
  });

  it('gives the same report when the kernels run in a worker pool', async () => {
    if (!existsSync(workerFilename())) {
      execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', join(ROOT, 'packages', 'forensics')]);
    }
    const pool = new ForensicsPool({ threads: 2 });
    try {
      const serial = await setup();
      const pooled = await meteredEngine({
        fetch: routeToLocal(() => server.port),
        services: { forensicsPool: pool, imageClassifier: new FixedAiImageClassifierDouble(0.3) },
      });
      const url = { image_url: 'http://images.example.com/photo.jpg' };
      const a = (await serial.engine.execute('advanced-image-detection', url, { token: serial.token })).result;
      const released = vi.spyOn(pool, 'releaseResults');
      const b = (await pooled.engine.execute('advanced-image-detection', url, { token: pooled.token })).result;
      // The kernels' maps go back to the pool once the report is built (issue 35), once per request.
      expect(released).toHaveBeenCalledTimes(1);
      expect((released.mock.calls[0]![0] as readonly KernelOutcome[]).map((k) => k.id).sort()).toEqual([...ADVANCED_KERNELS].sort());
      const stats = (r: Record<string, unknown>) =>
        (r.tools_used_analysis as Array<{ id: string; result: { kernels?: Array<{ stats: unknown }> } }>).map((t) => [t.id, t.result.kernels?.map((k) => k.stats)]);
      expect(stats(b)).toEqual(stats(a));
      expect(b.analysis).toBe(a.analysis);
    } finally {
      await pool.close();
    }
  });

  it('lets a decisive classifier label an image without provenance signals, at moderate confidence', async () => {
    const { engine, token } = await setup(2000, 0.95);
    const { result } = await engine.execute('advanced-image-detection', { image_url: 'http://images.example.com/photo.jpg' }, { token });
    expect(result).toMatchObject({ label: 'AI-Generated', confidence: 'Moderate', authenticity: 'Authentic' });
    expect(result.tags).toContain('ai-generated');
    expect(result.conclusion).toBe('AI-generated (moderate confidence); no evidence of manipulation found.');
  });

  it('says the pixels were not conclusive, naming no side, when the classifier is within 0.1 of even', async () => {
    for (const ai of [0.45, 0.55]) {
      const { engine, token } = await setup(2000, ai);
      const { result } = await engine.execute('advanced-image-detection', { image_url: 'http://images.example.com/photo.jpg' }, { token });
      expect(result).toMatchObject({ confidence: 'Low', authenticity: 'Authentic' });
      expect(result.conclusion).toBe('The pixels were not conclusive and nothing in the file declares AI generation (low confidence); no evidence of manipulation found.');
      expect(result.analysis).toMatch(/the pixels are not conclusive \(human score \d+ of 100, model version 5, low confidence\)/);
      const classify = (result.tools_used_analysis as Array<{ id: string; analysis: string; result: any }>).find((t) => t.id === 'classify_image')!;
      expect(classify.result.confidence).toBe('low');
      expect(classify.analysis).toMatch(/\(not conclusive: within 0\.1 of even, low confidence\)\.$/);
    }
  });

  it('puts a declaration of AI generation above the classifier: AI-Generated at high confidence, the override reported', async () => {
    const { engine, token } = await setup(2000, 0.2);
    const { result } = await engine.execute('advanced-image-detection', { image_url: 'http://images.example.com/declared.jpg' }, { token });
    expect(result).toMatchObject({ label: 'AI-Generated', confidence: 'High' });
    const classify = (result.tools_used_analysis as Array<{ id: string; analysis: string; result: any }>).find((t) => t.id === 'classify_image')!;
    expect(classify.result).toMatchObject({ ai_probability: 0.2, score: 80, provenance: { rule: 'declared', overridden: true, ai_probability: 0.99, score: 1 } });
    expect(classify.analysis).toMatch(/override the pixels: image detection reports AI probability 0\.99 and human score 1\.$/);
  });

  it('still reports, and charges, when the classifier cannot run: classify_image says why, the label rests on the file', async () => {
    const { engine, ledger, accountId, token } = await meteredEngine({
      fetch: routeToLocal(() => server.port),
      services: { imageClassifier: failingClassifierDouble(new Error('model file missing at /srv/models/ai-image.onnx')) },
    });
    const { result } = await engine.execute('advanced-image-detection', { image_url: 'http://images.example.com/photo.jpg' }, { token });
    expect(advancedImageDetectionResult.safeParse(result).success).toBe(true);
    expect(result).toMatchObject({ label: 'Human', confidence: 'Low', cost: 500 });
    const classify = (result.tools_used_analysis as Array<{ id: string; analysis: string; result: any }>).find((t) => t.id === 'classify_image')!;
    expect(classify.result).toEqual({ error: { message: 'the classifier failed to run' } });
    expect(result.analysis).not.toMatch(/\/srv\/models/);
    expect(result.analysis).toMatch(/the pixel classifier did not run/);
    expect(await ledger.balance(accountId)).toBe(1500);
  });

  it.skipIf(!existsSync(TAMPERED_C2PA))('calls an image whose content credentials fail validation Manipulated', async () => {
    const { engine, token } = await setup();
    const { result } = await engine.execute('advanced-image-detection', { image_url: 'http://images.example.com/tampered.jpg' }, { token });
    expect(result.authenticity).toBe('Manipulated');
    expect(result.analysis).toMatch(/assertion\.dataHash\.mismatch/);
  });

  it('answers its own error strings and charges nothing', async () => {
    const { engine, ledger, accountId, token } = await setup();
    expect(await advancedError(engine.execute('advanced-image-detection', { image_url: 'http://localhost/a.jpg' }, { token }))).toMatchObject({
      status: 400,
      error: 'Invalid URL provided',
    });
    expect(await advancedError(engine.execute('advanced-image-detection', { image_url: 'http://10.1.2.3/a.jpg' }, { token }))).toMatchObject({
      status: 400,
      error: 'Invalid URL provided',
    });
    expect(await advancedError(engine.execute('advanced-image-detection', { image_url: '' }, { token }))).toMatchObject({
      status: 400,
      error: 'Invalid URL provided',
      description: 'image_url must not be empty',
    });
    expect(await advancedError(engine.execute('advanced-image-detection', { image_url: 'http://images.example.com/page.html' }, { token }))).toMatchObject({
      status: 400,
      error: 'Invalid URL provided',
    });
    expect(await advancedError(engine.execute('advanced-image-detection', { image_url: 'http://images.example.com/photo.jpg' }, {}))).toMatchObject({
      status: 401,
      error: 'Unauthorized',
    });
    expect(await advancedError(engine.execute('advanced-image-detection', { image_url: 'http://images.example.com/small.jpg' }, { token }))).toMatchObject({
      status: 400,
      error: 'Invalid URL provided',
      description: 'The image is 200x150 pixels; the minimum is 256x256.',
    });
    expect(await ledger.balance(accountId)).toBe(2000);
    const poor = await setup(499);
    expect(await advancedError(poor.engine.execute('advanced-image-detection', { image_url: 'http://images.example.com/photo.jpg' }, { token: poor.token }))).toMatchObject({
      status: 402,
      error: 'Insufficient credits',
    });
  });

  it('runs every kernel the fused map weighs and none it gives weight 0, so its map and score are those of all ten', async () => {
    const weighed = KERNEL_IDS.filter((id) => (FUSION_MODEL.weights[id] ?? 0) !== 0);
    expect([...ADVANCED_KERNELS].sort()).toEqual([...weighed].sort());
    expect(ADVANCED_KERNELS).not.toContain('dq-nonaligned');
    const bytes = files.get('/photo.jpg')!;
    const analysis = await analyzeImageAuthenticity(bytes, { classifier: new FixedAiImageClassifierDouble(0.3) });
    const all = await analyzeImage(bytes, { kernels: [...ADVANCED_KERNELS, 'dq-nonaligned'] });
    const full = fuseMaps(all.kernels, all.width, all.height);
    expect(all.kernels.find((k) => k.id === 'dq-nonaligned')?.state).toBe('completed');
    expect(analysis.fusion.score).toBe(full.score);
    expect(Array.from(analysis.fused.data)).toEqual(Array.from(full.map.data));
  }, 60_000);
});
