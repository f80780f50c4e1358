import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForensicsPool, workerFilename } from '@content-analysis/forensics';
import { advancedImageDetectionResult, ApiError, toAdvancedErrorBody } from '../src/index.js';
import { meteredEngine, routeToLocal, startLocalServer } from './helpers.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const DATASETS = process.env.CONTENT_ANALYSIS_DATASETS ?? join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'datasets');
const TAMPERED_C2PA = join(DATASETS, 'images', 'c2pa-sdk-fixtures', 'c2pa-rs', 'XCA.jpg');

/** A 512x384 photo-like test image: smooth gradients plus sensor-like noise, saved as JPEG. */
async function syntheticPhoto(): Promise<Buffer> {
  const width = 512;
  const height = 384;
  const data = Buffer.alloc(width * height * 3);
  let seed = 7;
  const noise = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5) * 12;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      data[i] = Math.max(0, Math.min(255, 80 + (x / width) * 120 + noise()));
      data[i + 1] = Math.max(0, Math.min(255, 60 + (y / height) * 140 + noise()));
      data[i + 2] = Math.max(0, Math.min(255, 140 + 60 * Math.sin(x / 40) + noise()));
    }
  }
  return sharp(data, { raw: { width, height, channels: 3 } }).jpeg({ quality: 92 }).toBuffer();
}

let server: Awaited<ReturnType<typeof startLocalServer>>;
const files = new Map<string, Buffer>();
beforeAll(async () => {
  files.set('/photo.jpg', await syntheticPhoto());
  if (existsSync(TAMPERED_C2PA)) files.set('/tampered.jpg', readFileSync(TAMPERED_C2PA));
  files.set('/page.html', Buffer.from('<!doctype html><html><body>not an image</body></html>'));
  server = await startLocalServer((req, res) => {
    const body = files.get(req.url ?? '');
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': req.url!.endsWith('.html') ? 'text/html' : 'image/jpeg' }).end(body);
  });
});
afterAll(() => server.close());

const setup = (credits = 2000) => meteredEngine({ credits, fetch: routeToLocal(() => server.port) });

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
    expect(result.tool_used).toEqual(['extract_metadata', 'ela_image', 'residual_noise_maps', 'edge_anomaly_heat_map', 'cfa_pattern_analysis']);
    expect(result.tool_used).not.toContain('classify_image');
    const tools = result.tools_used_analysis as Array<{ id: string; analysis: string; result: any }>;
    const ela = tools.find((t) => t.id === 'ela_image')!;
    expect(ela.result.kernels[0].kernel).toBe('ela');
    // The sentence quotes the kernel's own numbers.
    expect(ela.analysis).toContain(`99th percentile ${Math.round(ela.result.kernels[0].stats.p99)}`);
    expect(tools.find((t) => t.id === 'extract_metadata')!.result.metadata).toMatchObject({ format: 'jpeg', width: 512, height: 384 });
    // Nothing in a synthetic JPEG declares AI generation or carries credentials: Human at low confidence.
    expect(result).toMatchObject({ label: 'Human', confidence: 'Low', authenticity: 'Authentic', language: 'en' });
    expect(result.title).toBe('JPEG image, 512x384');
    expect(result.analysis).toMatch(/classify_image was not run/);
  });

  it('gives the same report when the kernels run in a worker pool', async () => {
    if (!existsSync(workerFilename())) {
      execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', join(ROOT, 'packages', 'forensics')]);
    }
    const pool = new ForensicsPool({ threads: 2 });
    try {
      const serial = await setup();
      const pooled = await meteredEngine({ fetch: routeToLocal(() => server.port), services: { forensicsPool: pool } });
      const url = { image_url: 'http://images.example.com/photo.jpg' };
      const a = (await serial.engine.execute('advanced-image-detection', url, { token: serial.token })).result;
      const b = (await pooled.engine.execute('advanced-image-detection', url, { token: pooled.token })).result;
      const stats = (r: Record<string, unknown>) =>
        (r.tools_used_analysis as Array<{ id: string; result: { kernels?: Array<{ stats: unknown }> } }>).map((t) => [t.id, t.result.kernels?.map((k) => k.stats)]);
      expect(stats(b)).toEqual(stats(a));
      expect(b.analysis).toBe(a.analysis);
    } finally {
      await pool.close();
    }
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
    expect(await ledger.balance(accountId)).toBe(2000);
    const poor = await setup(499);
    expect(await advancedError(poor.engine.execute('advanced-image-detection', { image_url: 'http://images.example.com/photo.jpg' }, { token: poor.token }))).toMatchObject({
      status: 402,
      error: 'Insufficient credits',
    });
  });
});
