import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeImage, edgeAnomalyMap } from '../src/index.js';
import { edgeAnomalyMapDefaults, edgeBlockBand, edgeBlockFeatures, localDifference, wasmEdgeCalls } from '../src/kernels/edgeAnomalyMap.js';
import type { EdgeAnomalyMapOptions, EdgeBlockFeatures } from '../src/kernels/edgeAnomalyMap.js';
import { lumaBytes, studioLuma } from '../src/internal/luma.js';
import { quantile, robustCenterScale } from '../src/internal/stats.js';
import { wasmModule } from '../src/internal/wasm.js';
import type { KernelResult, PixelBuffer } from '../src/types.js';
import { rng } from './synthetic.js';
import { firstDifference, float32Bits, MODULES_OFF, onWebAssembly, randomImage, restoreModulesAfterEach, withModulesOff } from './wasmPaths.js';

// The WebAssembly edge features (assembly/edgeAnomaly.ts) must equal the JavaScript loops' bit for bit: strength,
// sharpness and blocking of every block, border blocks included, from 8-bit pixels of every channel count and from
// luma planes, for block sizes that are and are not multiples of 4, on awkward sizes and extreme images.

restoreModulesAfterEach();

/** `run()` on the WebAssembly path; `chunks`: whether the module must have done some of it (false: all fell back). */
const webAssembly = <T>(run: () => T, chunks = true): T => onWebAssembly('edgeAnomaly', () => wasmEdgeCalls, run, chunks);

function expectSameFeatures(actual: EdgeBlockFeatures, expected: EdgeBlockFeatures): void {
  for (const key of ['strength', 'sharpness', 'blocking'] as const) {
    expect({ key, at: firstDifference(float32Bits(actual[key]), float32Bits(expected[key])) }).toEqual({ key, at: -1 });
  }
}

function expectSameResult(actual: KernelResult, expected: KernelResult): void {
  expect(actual.maps.length).toBe(expected.maps.length);
  actual.maps.forEach((map, i) => expect(firstDifference(float32Bits(map.data as Float32Array), float32Bits(expected.maps[i]!.data as Float32Array))).toBe(-1));
  expect(actual.stats).toEqual(expected.stats);
  expect(Object.is(actual.score, expected.score)).toBe(true);
}

/** The features of rows of blocks [start, end) (all by default) both ways, compared. */
function compareFeatures(source: Float32Array | PixelBuffer, width: number, height: number, options: EdgeAnomalyMapOptions = {}, start = 0, end?: number, chunks = true): void {
  const o = { ...edgeAnomalyMapDefaults, ...options };
  const to = end ?? Math.floor(height / o.blockSize);
  const expected = withModulesOff(() => edgeBlockFeatures(source, width, height, o, start, to));
  const actual = webAssembly(() => edgeBlockFeatures(source, width, height, o, start, to), chunks);
  expectSameFeatures(actual, expected);
}

/** Random rectangles of random grey levels over a mid grey, with some noise: edges, flat blocks and texture. */
function rectangles(width: number, height: number, channels: number, seed: number): PixelBuffer {
  const random = rng(seed);
  const data = new Uint8Array(width * height * channels).fill(120);
  for (let k = 0; k < (width * height) / 200; k++) {
    const x0 = Math.floor(random() * width), y0 = Math.floor(random() * height), w = 3 + Math.floor(random() * 30), h = 3 + Math.floor(random() * 30);
    const v = Math.floor(random() * 256);
    for (let y = y0; y < Math.min(height, y0 + h); y++) for (let x = x0; x < Math.min(width, x0 + w); x++) for (let c = 0; c < channels; c++) data[(y * width + x) * channels + c] = v;
  }
  for (let i = 0; i < data.length; i++) if (random() < 0.1) data[i] = Math.max(0, Math.min(255, data[i]! + Math.floor(random() * 9) - 4));
  return { data, width, height, channels };
}

describe.skipIf(MODULES_OFF)('edge anomaly block features in WebAssembly', () => {
  it('equal the JavaScript features on random 8-bit images of 1 to 4 channels and awkward sizes', () => {
    for (const channels of [1, 2, 3, 4]) {
      for (const [width, height] of [[32, 32], [33, 35], [47, 61], [129, 67]] as const) {
        compareFeatures(randomImage(width, height, channels, 7 * width + channels), width, height);
        compareFeatures(rectangles(width, height, channels, 11 * height + channels), width, height);
      }
    }
  });

  it('equal them for block sizes that are not multiples of 4 or 8, and above 64', () => {
    for (const blockSize of [8, 9, 10, 11, 13, 24, 70, 131]) {
      const width = 2 * blockSize + 5 + (blockSize % 3), height = 3 * blockSize + 1;
      compareFeatures(randomImage(width, height, 3, blockSize), width, height, { blockSize });
      compareFeatures(rectangles(width, height, 3, blockSize + 1), width, height, { blockSize });
    }
  });

  it('equal them for image sides that are exact multiples of the block (border blocks with clamped neighbours)', () => {
    compareFeatures(randomImage(64, 48, 3, 5), 64, 48);
    compareFeatures(randomImage(45, 27, 1, 6), 45, 27, { blockSize: 9 });
  });

  it('equal them on bands of rows of blocks, which start and end inside the image', () => {
    const image = rectangles(301, 403, 3, 3);
    for (const [start, end] of [[0, 1], [1, 2], [3, 17], [24, 25], [5, 25]] as const) compareFeatures(image, 301, 403, {}, start, end);
    compareFeatures(image, 301, 403, { blockSize: 13 }, 7, 30);
  });

  it('equal them across several calls of the module (chunks of rows of blocks)', () => {
    compareFeatures(rectangles(1031, 777, 3, 9), 1031, 777);
    compareFeatures(rectangles(1031, 777, 4, 10), 1031, 777, { blockSize: 8 });
  });

  it('equal them on constant, saturated and maximally stepped images', () => {
    for (const v of [0, 7, 255]) compareFeatures({ data: new Uint8Array(70 * 50 * 3).fill(v), width: 70, height: 50, channels: 3 }, 70, 50);
    // Black/white stripes and checks: the largest Sobel responses and steps 8-bit luma can have, in every lane.
    const W = 300, H = 290;
    const checks = new Uint8Array(W * H), columns = new Uint8Array(W * H);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) { checks[y * W + x] = (x + y) & 1 ? 255 : 0; columns[y * W + x] = x & 1 ? 255 : 0; }
    for (const data of [checks, columns]) {
      for (const blockSize of [16, 70, 131]) compareFeatures({ data, width: W, height: H, channels: 1 }, W, H, { blockSize });
    }
  });

  it('equal them from luma planes, and fall back to JavaScript where float luma leaves [16, 256)', () => {
    const image = rectangles(203, 171, 3, 12);
    const plane = studioLuma(image, false);
    compareFeatures(plane, 203, 171);
    compareFeatures(plane, 203, 171, { blockSize: 11 });
    // Float images: luma in range goes through the module; a sample below 16 sends its chunk back to JavaScript.
    const floats: PixelBuffer = { data: Float32Array.from(image.data, (v) => v * 0.9 + 0.3), width: 203, height: 171, channels: 3 };
    compareFeatures(floats, 203, 171);
    // 4 chunks of rows of blocks at 1031 x 777; the one with the dark sample is JavaScript's, the others the module's.
    const dark = studioLuma(rectangles(1031, 777, 3, 13), false);
    dark[300 * 1031 + 50] = 15.5;
    compareFeatures(dark, 1031, 777);
    // Checks of the extreme luma the module takes, 16 and just below 256: the largest steps and Sobel responses.
    const extreme = Float32Array.from({ length: 300 * 290 }, (_, i) => ((i % 300) + Math.floor(i / 300)) & 1 ? 255.99 : 16);
    for (const blockSize of [16, 70, 131]) compareFeatures(extreme, 300, 290, { blockSize });
    const wild = Float32Array.from({ length: 64 * 40 }, (_, i) => (i % 7) * 1e3 - 2e3);
    compareFeatures(wild, 64, 40, { blockSize: 8 }, 0, undefined, false);
  });

  it('give edgeAnomalyMap and the pool bands the same results', () => {
    const image = rectangles(517, 389, 3, 21);
    for (const neighbourhood of [1, 2, 3]) expectSameResult(webAssembly(() => edgeAnomalyMap(image, { neighbourhood })), withModulesOff(() => edgeAnomalyMap(image, { neighbourhood })));
    const o = { ...edgeAnomalyMapDefaults, blockSize: 12 };
    const expected = withModulesOff(() => edgeBlockBand(image, 517, 389, o, 9, 21));
    const actual = webAssembly(() => edgeBlockBand(image, 517, 389, o, 9, 21));
    expectSameFeatures(actual, expected);
    expect(firstDifference(float32Bits(actual.sharpDiff), float32Bits(expected.sharpDiff))).toBe(-1);
    expect(firstDifference(float32Bits(actual.blockDiff), float32Bits(expected.blockDiff))).toBe(-1);
  });

  it('give the JavaScript differences from the neighbourhood medians (radius 1 and 2; others stay in JavaScript)', () => {
    const random = rng(77);
    /** Non-negative values with ties, zeros, NaN and infinities at the given rate. */
    const values = (n: number, missing: number, levels: number): Float32Array => Float32Array.from({ length: n }, () => {
      const u = random();
      if (u < missing) return u < missing / 10 ? Number.POSITIVE_INFINITY : Number.NaN;
      return levels ? Math.floor(random() * levels) / levels : random() * 3;
    });
    for (const [bw, bh] of [[2, 2], [3, 5], [17, 13], [250, 20]] as const) {
      for (const missing of [0, 0.3, 0.8]) {
        for (const levels of [0, 1, 4]) {
          const v = values(bw * bh, missing, levels);
          for (const r of [1, 2, 3]) {
            const diff = (from: number, to: number) => localDifference(v, bw, 0, bh, r, from, to);
            const expected = withModulesOff(() => diff(0, bh));
            expect(firstDifference(float32Bits(webAssembly(() => diff(0, bh), r <= 2)), float32Bits(expected))).toBe(-1);
            // A band: rows [1, bh - 1) from values holding rows [0, bh).
            if (bh > 2) expect(firstDifference(float32Bits(webAssembly(() => diff(1, bh - 1), r <= 2)), float32Bits(expected.subarray(bw, (bh - 1) * bw)))).toBe(-1);
          }
        }
      }
    }
    // Values holding only the rows a band's neighbourhoods reach (rows [3, 12) of 20 for rows [5, 10) at radius 2).
    const all = values(31 * 20, 0.2, 0);
    const part = all.slice(3 * 31, 12 * 31);
    const expected = withModulesOff(() => localDifference(all, 31, 0, 20, 2, 5, 10));
    expect(firstDifference(float32Bits(webAssembly(() => localDifference(part, 31, 3, 20, 2, 5, 10))), float32Bits(expected))).toBe(-1);
    // A negative value (which the ranks would misorder) sends the whole call to JavaScript.
    const negative = values(40 * 9, 0.1, 0);
    negative[100] = -0.5;
    expect(firstDifference(float32Bits(webAssembly(() => localDifference(negative, 40, 0, 9, 2, 0, 9), false)), float32Bits(withModulesOff(() => localDifference(negative, 40, 0, 9, 2, 0, 9))))).toBe(-1);
  });

  it('compute the luma of every 8-bit colour as the JavaScript lumaBytes does (float32 luma times 2^19)', () => {
    const wasm = wasmModule('edgeAnomaly')!;
    const lumaUnitsRow = wasm.function<(src: number, channels: number, width: number, dst: number) => number>('lumaUnitsRow');
    const width = 4096, base = wasm.function<() => number>('heapBase')();
    const src = base, dst = base + 4 * width * 4;
    wasm.reserve(dst + (width + 8) * 4);
    const memory = new Uint8Array(wasm.memory.buffer), units = new Int32Array(wasm.memory.buffer, dst + 16, width);
    const pixels = new Uint8Array(width * 4), luma = new Float32Array(width);
    for (const channels of [3, 4]) {
      for (let row = 0; row < 4096; row++) {
        for (let x = 0; x < width; x++) {
          const colour = row * width + x;
          pixels[x * channels] = colour >> 16; pixels[x * channels + 1] = (colour >> 8) & 255; pixels[x * channels + 2] = colour & 255;
        }
        memory.set(pixels.subarray(0, width * channels), src);
        lumaUnitsRow(src, channels, width, dst);
        withModulesOff(() => lumaBytes(pixels, channels, luma, 0, 0, width));
        const at = firstDifference(units, Int32Array.from(luma, (y) => y * 2 ** 19));
        if (at >= 0) expect({ channels, row, at, units: units[at] }).toEqual({ channels, row, at, units: luma[at]! * 2 ** 19 });
      }
    }
    for (const channels of [1, 2]) {
      for (let x = 0; x < 256; x++) pixels[x * channels] = x;
      memory.set(pixels.subarray(0, 256 * channels), src);
      lumaUnitsRow(src, channels, 256, dst);
      withModulesOff(() => lumaBytes(pixels, channels, luma, 0, 0, 256));
      expect(firstDifference(units.subarray(0, 256), Int32Array.from(luma.subarray(0, 256), (y) => y * 2 ** 19))).toBe(-1);
    }
  }, 60_000);

  it('give statistics equal to the shared quantile and robust scale of the maps on a camera photo', async () => {
    const photo = '/work/shared/datasets/images/exif-samples/jpg/Canon_40D.jpg';
    if (!existsSync(photo)) {
      console.warn(`skipping: ${photo} not found`);
      return;
    }
    const image = await decodeImage(readFileSync(photo));
    const o = { ...edgeAnomalyMapDefaults };
    const bw = Math.floor(image.width / o.blockSize), bh = Math.floor(image.height / o.blockSize);
    const features = edgeBlockFeatures(image, image.width, image.height, o, 0, bh);
    const result = edgeAnomalyMap(image);
    const [anomaly, strength, sharpZ, blockZ] = result.maps.map((m) => m.data);
    expect(result.stats).toEqual({
      medianEdgeStrength: quantile(strength!, 0.5), medianSharpness: quantile(features.sharpness, 0.5), medianBlocking: quantile(features.blocking, 0.5),
      anomalousBlockFraction: result.stats.anomalousBlockFraction,
    });
    expect(result.maps[0]!.displayRange[1]).toBe(Math.max(o.outlierZ * 2, quantile(anomaly!, 0.99)));
    expect(result.maps[1]!.displayRange[1]).toBe(Math.max(1, quantile(strength!, 0.99)));
    for (const [z, values] of [[sharpZ!, features.sharpness], [blockZ!, features.blocking]] as const) {
      const diff = localDifference(values, bw, 0, bh, o.neighbourhood, 0, bh);
      const s = Math.max(robustCenterScale(diff).scale, 1e-6);
      expect(firstDifference(float32Bits(z), float32Bits(Float32Array.from(diff, (d) => Math.abs(d) / s)))).toBe(-1);
    }
  });

  it('give edgeAnomalyMap the same result on a camera photo', async () => {
    const photo = '/work/shared/datasets/images/exif-samples/jpg/Canon_40D.jpg';
    if (!existsSync(photo)) {
      console.warn(`skipping: ${photo} not found`);
      return;
    }
    const image = await decodeImage(readFileSync(photo));
    expectSameResult(webAssembly(() => edgeAnomalyMap(image)), withModulesOff(() => edgeAnomalyMap(image)));
    const luma = studioLuma(image, false);
    const o = { ...edgeAnomalyMapDefaults };
    compareFeatures(luma, image.width, image.height, o);
  });
});
