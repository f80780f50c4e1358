import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ForensicsPool, fuseMaps, ImageDecodeError, JpegCoefficientsError, readJpegCoefficients, ImageTooLargeError, ImageTooSmallError, analyzeImage, decodeImage, kernelRegistry, recompressJpeg, workerExecArgv, workerFilename } from '../src/index.js';
import { BAND_MIN_PIXELS, splitRows } from '../src/registry.js';
import { DEFAULT_SPARE_BYTES } from '../src/pool.js';
import { sequentialJpegFrame } from '../src/decodeImage.js';
import { datasetDir } from './datasets.js';
import { addNoise, smoothField, toUint8 } from './synthetic.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Builds dist/ (the worker threads load dist/worker.js) when it is missing or older than src/. */
function ensureBuilt(): void {
  const newest = (dir: string): number => Math.max(...readdirSync(dir).map((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? newest(path) : statSync(path).mtimeMs;
  }));
  const buildInfo = join(packageDir, 'dist', '.tsbuildinfo');
  if (existsSync(join(packageDir, 'dist', 'worker.js')) && existsSync(buildInfo) && statSync(buildInfo).mtimeMs >= newest(join(packageDir, 'src'))) return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-b', packageDir], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`tsc -b failed:\n${result.stdout}${result.stderr}`);
}

const image = toUint8(addNoise(smoothField(200, 160, 3, 41), 200, 3, 4, 42), 200, 160, 3);

describe('ForensicsPool', () => {
  let pool: ForensicsPool;
  beforeAll(() => {
    ensureBuilt();
    pool = new ForensicsPool({ threads: 2 });
  }, 60_000);
  afterAll(async () => pool?.close());

  it('returns what the kernels return on the main thread', async () => {
    const recompressed = await recompressJpeg(image);
    const analysis = await analyzeImage(image, { pool });
    expect(analysis.kernels.map((k) => k.state)).toEqual(Object.keys(kernelRegistry).map(() => 'completed'));
    for (const outcome of analysis.kernels) {
      if (outcome.state !== 'completed') continue;
      const direct = kernelRegistry[outcome.id].run({ image, recompressed });
      expect(outcome.result.score).toBe(direct.score);
      expect(outcome.result.maps[0]!.data).toEqual(direct.maps[0]!.data);
    }
  });

  it('starts its workers without the resolution conditions of this process, nor the options a worker refuses', () => {
    // --max-old-space-size is V8's, for the whole process: a worker given it would throw ERR_WORKER_INVALID_EXEC_ARGV.
    expect(workerExecArgv(['--conditions', 'a:source', '--max-old-space-size=4096', '--trace-warnings', '--conditions=b', '-C', 'c', '-C=d', '--require', 'x.cjs']))
      .toEqual(['--trace-warnings', '--require', 'x.cjs']);
    expect(workerExecArgv([])).toEqual([]);
  });

  it('runs in a Piscina the caller owns, and leaves it open on close', async () => {
    const piscina = new Piscina({ filename: workerFilename(), execArgv: workerExecArgv(process.execArgv), maxThreads: 1 });
    const own = new ForensicsPool({ piscina });
    const result = await own.run('wavelet-noise', { image });
    expect(result.maps[0]!.name).toBe('noise-sigma');
    await own.close();
    expect((await own.run('spectral', { image })).stats.tileSize).toBe(128);
    await piscina.close();
  });

  it('reports a failing kernel and still returns the others', async () => {
    const analysis = await analyzeImage(image, { pool, kernels: ['wavelet-noise', 'spectral'], kernelOptions: { spectral: { tileSize: 100 } } });
    expect(analysis.kernels[0]!.state).toBe('completed');
    expect(analysis.kernels[1]).toMatchObject({ state: 'errored', error: { code: 'ERR_FORENSICS_INVALID_OPTION' } });
  });

  it('runs the CFA kernels of a 2 MP image as row bands in the threads, with the main thread\'s result', async () => {
    const w = 1600, h = 1280;
    const data = new Uint8Array(w * h * 3);
    // The small image tiled 8 x 8 (even sides keep any Bayer lattice), with a distinct patch so rows differ.
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let c = 0; c < 3; c++) data[(y * w + x) * 3 + c] = image.data[((y % 160) * 200 + (x % 200)) * 3 + c]! ^ (y > 900 && x < 300 ? 7 : 0);
    const big = { data, width: w, height: h, channels: 3 };
    expect(w * h).toBeGreaterThanOrEqual(BAND_MIN_PIXELS);
    for (const id of ['cfa-variance', 'cfa-reinterpolation'] as const) {
      expect(kernelRegistry[id].bands!.plan({ image: big }, undefined, 2)!.rows.length).toBe(2);
      // The bands are joined in a worker too (issue 26: the merge held the event loop for up to a second).
      const merge = vi.spyOn(kernelRegistry[id].bands!, 'merge');
      const pooled = await pool.run(id, { image: big });
      expect(merge).not.toHaveBeenCalled();
      merge.mockRestore();
      const direct = kernelRegistry[id].run({ image: big });
      expect(pooled).toEqual(direct);
    }
    await expect(pool.run('cfa-variance', { image: big }, { blockSize: 7 })).rejects.toThrow(/Expected even integer for blockSize/);
  }, 30_000);

  it('analyzes a 2 MP image in the pool (bands, shared luma) exactly as on the main thread', async () => {
    const w = 1600, h = 1283;
    const data = new Uint8Array(w * h * 3);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let c = 0; c < 3; c++) data[(y * w + x) * 3 + c] = image.data[((y % 160) * 200 + (x % 200)) * 3 + c]! ^ (y > 700 && x > 900 ? 5 : 0);
    const big = { data, width: w, height: h, channels: 3 };
    const withoutMs = (analysis: Awaited<ReturnType<typeof analyzeImage>>) => analysis.kernels.map(({ state, id, version, ...rest }) => ({ state, id, version, result: 'result' in rest ? rest.result : rest.error }));
    const pooled = withoutMs(await analyzeImage(big, { pool }));
    const direct = withoutMs(await analyzeImage(big));
    expect(pooled.map((k) => k.state)).toEqual(Object.keys(kernelRegistry).map(() => 'completed'));
    for (let i = 0; i < direct.length; i++) expect(isDeepStrictEqual(pooled[i], direct[i]), pooled[i]!.id).toBe(true);
    // The threads got the image's luma planes once, in shared memory.
    expect((await pool.lumaOf(big))!.luma.buffer).toBeInstanceOf(SharedArrayBuffer);
    // The fused map is computed in a worker with the calling thread's result (issue 26).
    const analysis = await analyzeImage(big, { pool });
    const fused = await pool.fuseMaps(analysis.kernels, w, h);
    expect(fused.used.length).toBeGreaterThan(0);
    expect(fused).toEqual(fuseMaps(analysis.kernels, w, h));
  }, 60_000);

  it('reads a JPEG\'s coefficients in a worker into shared memory (issue 35): the same plane, reused memory, the reader\'s error class', async () => {
    const { default: sharp } = await import('sharp');
    const jpeg = new Uint8Array(await sharp(Buffer.from(image.data), { raw: { width: 200, height: 160, channels: 3 } }).jpeg({ quality: 88 }).toBuffer());
    const plane = await pool.jpegCoefficients(jpeg, 200, 160);
    expect(plane.coefficients.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect({ ...plane, coefficients: Array.from(plane.coefficients) }).toEqual({ ...readJpegCoefficients(jpeg), coefficients: Array.from(readJpegCoefficients(jpeg).coefficients) });
    // Released, its memory takes the next plane.
    pool.releaseCoefficients(plane);
    const again = await pool.jpegCoefficients(jpeg, 200, 160);
    expect(again.coefficients.buffer).toBe(plane.coefficients.buffer);
    expect(Array.from(again.coefficients)).toEqual(Array.from(plane.coefficients));
    pool.releaseCoefficients(again);
    await expect(pool.jpegCoefficients(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), 200, 160)).rejects.toBeInstanceOf(JpegCoefficientsError);
  });

  it('reuses the shared memory of released images: JPEGs of two sizes analyzed in turn give the main thread\'s results', async () => {
    const { default: sharp } = await import('sharp');
    const withoutMs = (analysis: Awaited<ReturnType<typeof analyzeImage>>) => analysis.kernels.map(({ state, id, version, ...rest }) => ({ state, id, version, result: 'result' in rest ? rest.result : rest.error }));
    const jpegs = await Promise.all([[200, 160], [150, 130], [200, 160]].map(async ([w, h], i) => {
      const rgb = toUint8(addNoise(smoothField(w!, h!, 3, 60 + i), w!, 3, 5, 70 + i), w!, h!, 3);
      return new Uint8Array(await sharp(rgb.data, { raw: { width: w!, height: h!, channels: 3 } }).jpeg({ quality: 95 }).toBuffer());
    }));
    // Every pooled result is kept until all images are done: a later image reusing memory must not change it.
    const pooled = [];
    for (const jpeg of jpegs) pooled.push(withoutMs(await analyzeImage(jpeg, { pool })));
    for (const [k, jpeg] of jpegs.entries()) {
      const direct = withoutMs(await analyzeImage(jpeg));
      for (let i = 0; i < direct.length; i++) expect(isDeepStrictEqual(pooled[k]![i], direct[i]), pooled[k]![i]!.id).toBe(true);
    }
  }, 60_000);

  it('decodes and round-trips an image in its workers: the same pixels, in shared memory; decode errors keep class and code (issue 26)', async () => {
    const { default: sharp } = await import('sharp');
    const w = 1700, h = 1250; // over BAND_MIN_PIXELS: the round trip goes in two bands
    const rgb = Buffer.alloc(w * h * 3);
    for (let i = 0; i < rgb.length; i++) rgb[i] = ((i * 7919) >>> 3) & 255;
    const png = new Uint8Array(await sharp(rgb, { raw: { width: w, height: h, channels: 3 } }).png().toBuffer());
    const [pooled, direct] = await Promise.all([pool.decode(png), decodeImage(png)]);
    expect(pooled.data.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect([pooled.width, pooled.height, pooled.channels]).toEqual([direct.width, direct.height, direct.channels]);
    expect(Buffer.from(pooled.data).equals(Buffer.from(direct.data))).toBe(true);
    const [trip, directTrip] = await Promise.all([pool.recompressJpeg(pooled, { quality: 90 }), recompressJpeg(direct, { quality: 90 })]);
    expect(trip.data.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Buffer.from(trip.data).equals(Buffer.from(directTrip.data))).toBe(true);
    expect(Buffer.from(trip.data).equals(Buffer.from(direct.data))).toBe(false);
    const tiny = new Uint8Array(await sharp(rgb.subarray(0, 40 * 40 * 3), { raw: { width: 40, height: 40, channels: 3 } }).png().toBuffer());
    for (const [bytes, options, kind, code] of [
      [new Uint8Array([1, 2, 3, 4]), {}, ImageDecodeError, 'ERR_FORENSICS_IMAGE_DECODE'],
      [png, { maxPixels: 1000 }, ImageTooLargeError, 'ERR_FORENSICS_IMAGE_TOO_LARGE'],
      [tiny, {}, ImageTooSmallError, 'ERR_FORENSICS_IMAGE_TOO_SMALL'],
    ] as const) {
      const [a, b] = await Promise.all([pool.decode(bytes, options).catch((e: unknown) => e), decodeImage(bytes, options).catch((e: unknown) => e)]);
      expect(a).toBeInstanceOf(kind);
      expect({ name: (a as Error).name, code: (a as ImageDecodeError).code, message: (a as Error).message })
        .toEqual({ name: (b as Error).name, code, message: (b as Error).message });
    }
  }, 60_000);

  it('decodes a large sequential JPEG in two bands of rows on its threads: decodeImage\'s pixels; the next decode reuses the released buffer', async () => {
    const { default: sharp } = await import('sharp');
    const w = 1800, h = 1203; // over SPLIT_DECODE_MIN_PIXELS, a height that is not a multiple of the MCU
    const rgb = toUint8(addNoise(smoothField(w, h, 3, 90), w, 3, 6, 91), w, h, 3);
    const raw = sharp(rgb.data, { raw: { width: w, height: h, channels: 3 } });
    const baseline = new Uint8Array(await raw.clone().jpeg({ quality: 90 }).toBuffer());
    const progressive = new Uint8Array(await raw.clone().jpeg({ quality: 90, progressive: true }).toBuffer());
    const full444 = new Uint8Array(await raw.clone().jpeg({ quality: 95, chromaSubsampling: '4:4:4' }).toBuffer());
    expect(sequentialJpegFrame(baseline)).toEqual({ width: w, height: h, components: 3 });
    expect(sequentialJpegFrame(progressive)).toBeUndefined();
    const rows = vi.spyOn(pool.piscina, 'run');
    for (const jpeg of [baseline, progressive, full444]) {
      rows.mockClear();
      const [pooled, direct] = await Promise.all([pool.decode(jpeg), decodeImage(jpeg)]);
      const names = rows.mock.calls.map(([, options]) => options?.name);
      expect(names).toEqual(jpeg === progressive ? ['decodeShared'] : ['decodeRows', 'decodeRows']);
      // The file goes to the workers once, in shared memory that every band reads (not cloned per task).
      const files = rows.mock.calls.map(([task]) => (task as { bytes: Uint8Array }).bytes);
      expect(files.every((f) => f.buffer instanceof SharedArrayBuffer && f.buffer === files[0]!.buffer && Buffer.from(f).equals(Buffer.from(jpeg)))).toBe(true);
      expect(pooled.data.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect([pooled.width, pooled.height, pooled.channels]).toEqual([direct.width, direct.height, direct.channels]);
      expect(Buffer.from(pooled.data).equals(Buffer.from(direct.data))).toBe(true);
      await pool.releaseImage(pooled);
      const again = await pool.decode(jpeg);
      expect(again.data.buffer).toBe(pooled.data.buffer);
      expect(Buffer.from(again.data).equals(Buffer.from(direct.data))).toBe(true);
      await pool.releaseImage(again);
    }
    rows.mockRestore();
    // A file that fails in its bands is decoded whole, which gives decodeImage's error.
    const truncated = baseline.subarray(0, baseline.length >> 1);
    // One after the other: libvips keeps one error buffer per process (worker threads included), so two failures at
    // the same moment can each read the other's message too.
    const a = await pool.decode(truncated).catch((e: unknown) => e);
    const b = await decodeImage(truncated).catch((e: unknown) => e);
    expect(a).toBeInstanceOf(ImageDecodeError);
    expect((a as Error).message).toBe((b as Error).message);
  }, 60_000);

  it('decodes the 12 MP camera JPEGs of the shared datasets in two bands of rows exactly as whole', async () => {
    const dir = datasetDir('images/c2pa-public-testfiles');
    if (!dir) return;
    for (const name of ['truepic-20230212-camera.jpg', 'nikon-20221019-building.jpeg']) {
      const bytes = new Uint8Array(readFileSync(join(dir, name)));
      const [pooled, direct] = await Promise.all([pool.decode(bytes), decodeImage(bytes)]);
      expect(Buffer.from(pooled.data).equals(Buffer.from(direct.data)), name).toBe(true);
      await pool.releaseImage(pooled);
    }
  }, 60_000);

  it('reuses released result maps (releaseResults, issue 35): 12 MP camera JPEGs give the maps of a pool that never releases, and a live result is never overwritten', async () => {
    const dir = datasetDir('images/c2pa-public-testfiles');
    if (!dir) return;
    const kernels = ['ela', 'median-residual', 'wavelet-noise'] as const;
    const photos = ['truepic-20230212-camera.jpg', 'nikon-20221019-building.jpeg'].map((name) => new Uint8Array(readFileSync(join(dir, name))));
    // Every statistic and a digest of every map's bytes (bit for bit): what a result must still hold later.
    const digest = (data: Float32Array | Uint8Array) => createHash('sha256').update(new Uint8Array(data.buffer, data.byteOffset, data.byteLength)).digest('hex');
    const snapshot = (analysis: Awaited<ReturnType<typeof analyzeImage>>) => analysis.kernels.map((k) => (k.state === 'completed'
      ? { id: k.id, stats: k.result.stats, score: k.result.score, maps: k.result.maps.map((m) => ({ ...m, data: digest(m.data) })) } : k));
    const lentBuffers = (analysis: Awaited<ReturnType<typeof analyzeImage>>) => analysis.kernels.flatMap((k) => (k.state === 'completed' ? k.result.maps.map((m) => m.data.buffer) : []))
      .filter((b) => b instanceof SharedArrayBuffer);
    const reference = [];
    for (const photo of photos) reference.push(snapshot(await analyzeImage(photo, { kernels, pool })));
    const releasing = new ForensicsPool({ threads: 2 });
    try {
      const first = await analyzeImage(photos[0]!, { kernels, pool: releasing });
      expect(snapshot(first)).toEqual(reference[0]);
      const firstBuffers = lentBuffers(first);
      expect(firstBuffers).toHaveLength(2); // ELA's map and the median residual
      releasing.releaseResults(first);
      // Stale contents must not leak into the next maps: every element of a reused buffer is written again.
      for (const k of first.kernels) if (k.state === 'completed') for (const m of k.result.maps) if (m.data.buffer instanceof SharedArrayBuffer) (m.data as Float32Array).fill(Number.NaN);
      const second = await analyzeImage(photos[1]!, { kernels, pool: releasing });
      expect(lentBuffers(second).filter((b) => firstBuffers.includes(b))).toHaveLength(2);
      expect(snapshot(second)).toEqual(reference[1]);
      // `first` released twice: nothing happens (its buffers are lent to `second`, which is still live).
      releasing.releaseResults(first);
      releasing.releaseResults(first.kernels);
      const third = await analyzeImage(photos[0]!, { kernels, pool: releasing });
      expect(lentBuffers(third).filter((b) => lentBuffers(second).includes(b))).toEqual([]);
      expect(snapshot(third)).toEqual(reference[0]);
      expect(snapshot(second)).toEqual(reference[1]);
      releasing.releaseResults(third);
      const fourth = await analyzeImage(photos[1]!, { kernels, pool: releasing });
      expect(snapshot(fourth)).toEqual(reference[1]);
      expect(snapshot(second)).toEqual(reference[1]);
    } finally {
      await releasing.close();
    }
  }, 180_000);

  it('keeps released shared memory within a byte budget (spareBytes), the largest buffers first, with the same results', async () => {
    const { default: sharp } = await import('sharp');
    expect(() => new ForensicsPool({ spareBytes: -1 })).toThrow(RangeError);
    expect(() => new ForensicsPool({ spareBytes: 1.5 })).toThrow(RangeError);
    const w = 1800, h = 1203; // over BAND_MIN_PIXELS: banded kernels, a lent ELA map and median residual
    const rgb = toUint8(addNoise(smoothField(w, h, 3, 120), w, 3, 6, 121), w, h, 3);
    const jpeg = new Uint8Array(await sharp(rgb.data, { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: 92 }).toBuffer());
    const kernels = ['ela', 'median-residual', 'wavelet-noise', 'cfa-variance'] as const;
    const withoutMs = (analysis: Awaited<ReturnType<typeof analyzeImage>>) => analysis.kernels.map(({ state, id, version, ...rest }) => ({ state, id, version, result: 'result' in rest ? rest.result : rest.error }));
    const reference = withoutMs(await analyzeImage(jpeg, { kernels }));
    const pixels = w * h * 3, floats = 4 * w * h;
    // The buffers of one released analysis: pixels, round trip, both luma planes (float32 and rounded), two maps, and
    // the shared copy of the file the decode's bands read.
    const all = [floats, floats, floats, pixels, pixels, w * h, jpeg.length];
    expect(DEFAULT_SPARE_BYTES).toBe(512 * 1024 * 1024);
    // A budget of two maps and one image: the largest buffers that fit, then smaller ones while they still fit.
    const budget = 2 * floats + pixels;
    for (const spareBytes of [budget, floats - 1, 0, DEFAULT_SPARE_BYTES]) {
      const small = new ForensicsPool({ threads: 2, spareBytes });
      try {
        expect(small.spareBytes).toBe(0);
        for (let run = 0; run < 2; run++) {
          const analysis = await analyzeImage(jpeg, { kernels, pool: small });
          expect(isDeepStrictEqual(withoutMs(analysis), reference), `spareBytes ${spareBytes}, run ${run}`).toBe(true);
          small.releaseResults(analysis);
          expect(small.spareBytes).toBeLessThanOrEqual(spareBytes);
        }
        // What greedy filling by size keeps from these buffers (and nothing when no buffer fits).
        let expected = 0;
        for (const bytes of [...all].sort((a, b) => b - a)) if (expected + bytes <= spareBytes) expected += bytes;
        expect(small.spareBytes, `spareBytes ${spareBytes}`).toBe(expected);
      } finally {
        await small.close();
      }
    }
    // A decoded image larger than the budget is not kept: the next decode gets new memory.
    const tight = new ForensicsPool({ threads: 2, spareBytes: pixels - 1 });
    try {
      const first = await tight.decode(jpeg);
      await tight.releaseImage(first);
      expect(tight.spareBytes).toBe(jpeg.length); // the file's shared copy only
      const second = await tight.decode(jpeg);
      expect(second.data.buffer).not.toBe(first.data.buffer);
      expect(Buffer.from(second.data).equals(Buffer.from(first.data))).toBe(true);
    } finally {
      await tight.close();
    }
  }, 180_000);

  it('splitRows cuts rows into contiguous near-equal bands', () => {
    expect(splitRows(10, 3)).toEqual([[0, 3], [3, 6], [6, 10]]);
    expect(splitRows(2, 4)).toEqual([[0, 1], [1, 2]]);
    expect(splitRows(5, 1)).toEqual([[0, 5]]);
  });

  it('ships a worker file built from this source', () => {
    expect(readFileSync(workerFilename(), 'utf8')).toContain('transferableSymbol');
  });
});
