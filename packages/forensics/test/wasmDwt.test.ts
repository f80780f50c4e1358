import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../src/index.js';
import { wasmDetailChunks } from '../src/internal/dwt.js';
import { studioLuma, studioLumaPlanes } from '../src/internal/luma.js';
import { wasmModule } from '../src/internal/wasm.js';
import { waveletBlocks, waveletNoiseBand, waveletNoiseFromLuma, waveletNoiseOptions } from '../src/kernels/waveletNoiseMap.js';
import type { WaveletNoiseMapOptions } from '../src/kernels/waveletNoiseMap.js';
import type { PixelBuffer } from '../src/types.js';
import { datasetDir } from './datasets.js';
import { addNoise, rng, smoothField, toUint8 } from './synthetic.js';
import { float32Bits, MODULES_OFF, onWebAssembly, restoreModulesAfterEach, withModulesOff } from './wasmPaths.js';

// The WebAssembly wavelet noise (assembly/dwt.ts: luma, db8 row and column passes, block medians) must give the
// JavaScript path's sigma map bit for bit: 8-bit pixels of 1 to 4 channels with and without the shared luma planes,
// rounded and unrounded luma, awkward and minimal sizes, block sizes other than 8, bands, float pixels with NaN and
// infinities, flat, saturated and two-level images, and a real photo.

restoreModulesAfterEach();

/** `run()` on the WebAssembly path, checking that the module ran. */
const webAssembly = <T>(run: () => T): T => onWebAssembly('dwt', () => wasmDetailChunks, run);

/** Both paths' sigma map of `image` (from the pixels, or from the shared luma planes when `planes`), compared. */
function expectSameMap(image: PixelBuffer, options: WaveletNoiseMapOptions = {}, planes = false): Float32Array {
  const luma = planes ? studioLumaPlanes(image) : undefined;
  const expected = withModulesOff(() => waveletNoiseFromLuma(image, options, luma)).maps[0]!.data;
  const actual = webAssembly(() => waveletNoiseFromLuma(image, options, luma)).maps[0]!.data;
  expectSameValues(actual, expected);
  return actual;
}

/** Equal float32 bit patterns, or both NaN (a NaN's payload is not part of the result). */
function expectSameValues(actual: Float32Array, expected: Float32Array): void {
  expect(actual.length).toBe(expected.length);
  const a = float32Bits(actual), e = float32Bits(expected);
  const differing: string[] = [];
  for (let i = 0; i < a.length && differing.length < 5; i++) {
    if (a[i] !== e[i] && !(Number.isNaN(actual[i]) && Number.isNaN(expected[i]))) differing.push(`${i}: ${actual[i]} vs ${expected[i]}`);
  }
  expect(differing).toEqual([]);
}

/** A noisy smooth field as 8-bit pixels, with a twentieth of the samples replaced by any value. */
function randomBytes(width: number, height: number, channels: number, seed: number): PixelBuffer {
  const random = rng(seed);
  const field = toUint8(addNoise(smoothField(width, height, channels, seed), width, channels, 6, seed + 1), width, height, channels).data;
  for (let i = 0; i < field.length; i++) if (random() < 0.05) field[i] = Math.floor(random() * 256);
  return { data: field, width, height, channels };
}

describe.skipIf(MODULES_OFF)('wavelet noise in WebAssembly', () => {
  for (const [width, height] of [[32, 32], [33, 35], [37, 64], [101, 67], [250, 190]] as const) {
    for (const channels of [1, 2, 3, 4]) {
      it(`equals the JavaScript path on ${width}x${height}x${channels} 8-bit pixels`, () => {
        const image = randomBytes(width, height, channels, width * 31 + height * 7 + channels);
        for (const roundLuma of [true, false]) {
          for (const planes of [false, true]) expectSameMap(image, { roundLuma }, planes);
        }
      });
    }
  }

  for (const blockSize of [2, 3, 5, 7, 9, 16, 21]) {
    it(`equals the JavaScript path with blocks of ${blockSize} (the smallest image and an awkward one)`, () => {
      for (const [width, height] of [[4 * blockSize, 4 * blockSize], [9 * blockSize + 5, 7 * blockSize + 3]] as const) {
        const image = randomBytes(width, height, 3, blockSize * 1000 + width);
        for (const roundLuma of [true, false]) expectSameMap(image, { blockSize, roundLuma }, roundLuma);
      }
    });
  }

  it('equals the JavaScript path band by band (bands start and end at any row of blocks)', () => {
    const image = randomBytes(203, 157, 3, 77);
    const luma = studioLumaPlanes(image);
    for (const blockSize of [8, 5]) {
      const o = waveletNoiseOptions(image, { blockSize });
      const rows = waveletBlocks(image, blockSize)[1];
      for (const [start, end] of [[0, 1], [1, 4], [3, rows], [rows - 1, rows]] as const) {
        for (const planes of [undefined, luma]) {
          const expected = withModulesOff(() => waveletNoiseBand(image, o, planes, start, end));
          expectSameValues(webAssembly(() => waveletNoiseBand(image, o, planes, start, end)), expected);
        }
      }
    }
  });

  it('equals the JavaScript path on flat, saturated and two-level images (ties everywhere)', () => {
    const random = rng(5);
    for (const fill of [0, 128, 255]) expectSameMap({ data: new Uint8Array(67 * 45 * 3).fill(fill), width: 67, height: 45, channels: 3 });
    const twoLevel = Uint8Array.from({ length: 90 * 70 }, () => (random() < 0.5 ? 0 : 255));
    expectSameMap({ data: twoLevel, width: 90, height: 70, channels: 1 });
    const map = expectSameMap({ data: twoLevel, width: 90, height: 70, channels: 1 }, { roundLuma: false }, true);
    expect(map.some((v) => v > 0)).toBe(true);
  });

  it('computes the rounded luma of every 8-bit colour as lumaBytesRounded does (integer path and its tie fallback)', () => {
    const module = wasmModule('dwt')!;
    const rounded = module.function<(src: number, channels: number, count: number, dst: number) => void>('roundedLumaRgb');
    const n = 1 << 16;
    // Scratch memory after a small band's layout (a later band lays the module out afresh).
    const layout = module.function<(w: number, h: number, keep: number, block: number, kind: number, channels: number, round: boolean) => number>('layout');
    const base = (layout(16, 16, 8, 8, 2, 3, true) + 15) & ~15;
    module.reserve(base + 4 * n + 16 + 8 * n + 64);
    const pixels = new Uint8Array(module.memory.buffer, base, 4 * n + 16), result = new Float64Array(module.memory.buffer, base + 4 * n + 16, n);
    let mismatches = 0;
    for (const channels of [3, 4]) {
      for (let r = 0; r < 256; r++) {
        // The 2^16 colours with red r.
        for (let i = 0, p = 0; i < n; i++, p += channels) { pixels[p] = r; pixels[p + 1] = i >> 8; pixels[p + 2] = i & 255; if (channels === 4) pixels[p + 3] = i; }
        rounded(base, channels, n, base + 4 * n + 16);
        const expected = withModulesOff(() => studioLuma({ data: pixels.slice(0, channels * n), width: n, height: 1, channels }, true));
        // Per four pixels x .. x + 3: x, x + 2, x + 1, x + 3.
        for (let x = 0; x < n; x += 4) {
          if (result[x] !== expected[x] || result[x + 1] !== expected[x + 2] || result[x + 2] !== expected[x + 1] || result[x + 3] !== expected[x + 3]) mismatches++;
        }
      }
    }
    expect(mismatches).toBe(0);
  }, 120_000);

  it('equals the JavaScript path on float pixels, NaN and infinities included', () => {
    const random = rng(11);
    for (const channels of [1, 3, 4]) {
      const width = 71, height = 53;
      const data = Float32Array.from({ length: width * height * channels }, () => random() * 300 - 20);
      const specials = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
      for (let k = 0; k < 6; k++) data[Math.floor(random() * data.length)] = specials[k % 3]!;
      for (const roundLuma of [true, false]) {
        const map = expectSameMap({ data, width, height, channels }, { roundLuma });
        expect(map.some((v) => Number.isNaN(v) || v === Number.POSITIVE_INFINITY)).toBe(true);
      }
    }
  });

  // A 12-megapixel camera photo (c2pa-public-testfiles, CC BY-SA 4.0): thousands of blocks of real noise.
  const photos = datasetDir('images/c2pa-public-testfiles');
  it.skipIf(!photos)('equals the JavaScript path on a real photo (truepic-20230212-camera.jpg, 4032x3024; skipped when absent)', async () => {
    const image = await decodeImage(readFileSync(join(photos!, 'truepic-20230212-camera.jpg')));
    expect(image.width * image.height).toBeGreaterThan(12e6);
    expectSameMap(image);
    expectSameMap(image, {}, true);
  }, 60_000);
});

describe.skipIf(MODULES_OFF)('the median network of assembly/dwt.ts', () => {
  /** Batcher's odd-even merge sort of n (a power of two) as comparators [min wire, max wire], in order. */
  function batcher(n: number): [number, number][] {
    const out: [number, number][] = [];
    const merge = (lo: number, hi: number, r: number): void => {
      const step = r * 2;
      if (step < hi - lo) {
        merge(lo, hi, step);
        merge(lo + r, hi, step);
        for (let i = lo + r; i < hi - r; i += step) out.push([i, i + r]);
      } else {
        out.push([lo, lo + r]);
      }
    };
    const sort = (lo: number, hi: number): void => {
      if (hi - lo < 1) return;
      const mid = lo + ((hi - lo) >> 1);
      sort(lo, mid);
      sort(mid + 1, hi);
      merge(lo, hi, 1);
    };
    sort(0, n - 1);
    return out;
  }

  /** Its comparators that lead to the wanted outputs, each with the halves needed: [i, j, min needed, max needed]. */
  function prune(network: [number, number][], outputs: number[]): [number, number, boolean, boolean][] {
    const live = new Set(outputs);
    const kept: [number, number, boolean, boolean][] = [];
    for (let c = network.length - 1; c >= 0; c--) {
      const [i, j] = network[c]!;
      const min = live.has(i), max = live.has(j);
      if (!min && !max) continue;
      kept.unshift([i, j, min, max]);
      live.add(i).add(j);
    }
    return kept;
  }

  const source = readFileSync(fileURLToPath(new URL('../assembly/dwt.ts', import.meta.url)), 'utf8');
  const comparators: [number, number, boolean, boolean][] = [];
  const statement = /t = lo\(a(\d+), a(\d+)\); a\2 = hi\(a\1, a\2\); a\1 = t;|a(\d+) = lo\(a\3, a(\d+)\);|a(\d+) = hi\(a(\d+), a\5\);/g;
  for (const m of source.matchAll(statement)) {
    if (m[1]) comparators.push([Number(m[1]), Number(m[2]), true, true]);
    else if (m[3]) comparators.push([Number(m[3]), Number(m[4]), true, false]);
    else comparators.push([Number(m[6]), Number(m[5]), false, true]);
  }

  it("is Batcher's sort of 64 pruned to ranks 31, 32 and 63", () => {
    expect(comparators).toEqual(prune(batcher(64), [31, 32, 63]));
    expect(comparators.length).toBe(445);
  });

  it('selects ranks 31, 32 and 63 of random values with ties', () => {
    const random = rng(3);
    for (let trial = 0; trial < 2000; trial++) {
      const levels = trial % 2 ? 4 : 1000;
      const v = Array.from({ length: 64 }, () => Math.floor(random() * levels));
      const w = v.slice();
      for (const [i, j, min, max] of comparators) {
        const a = w[i]!, b = w[j]!;
        if (min) w[i] = Math.min(a, b);
        if (max) w[j] = Math.max(a, b);
      }
      const sorted = v.sort((a, b) => a - b);
      expect([w[31], w[32], w[63]]).toEqual([sorted[31], sorted[32], sorted[63]]);
    }
  });
});
