import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cfaVarianceMap, decodeImage } from '../src/index.js';
import { cfaBlockFeatures, wasmBlockRows } from '../src/internal/cfaBlockFeatures.js';
import { medianInPlace } from '../src/internal/stats.js';
import { wasmMedianCalls, windowMedian5x5 } from '../src/internal/windowMedian5x5.js';
import { fitZeroMeanMixture, fitZeroMeanMixtureBinned, wasmBinnedFits } from '../src/internal/zeroMeanMixture.js';
import type { PixelBuffer } from '../src/types.js';
import { datasetDir } from './datasets.js';
import { addNoise, gaussian, mosaicDemosaic, rng, smoothField, toUint8 } from './synthetic.js';
import { firstDifference, float32Bits, MODULES_OFF, onWebAssembly, restoreModulesAfterEach, withModulesOff, withModulesOn } from './wasmPaths.js';

// The WebAssembly CFA block features must be the JavaScript ones bit for bit (NaN, +0 and -0 included): 8-bit and
// float32 pixels of every channel count, awkward widths, small and large blocks, both lattices, bands. The module
// takes blocks of a multiple of 4 pixels (four pixels per vector never straddle two blocks); the others stay on the
// JavaScript path with the modules on.

restoreModulesAfterEach();

/** `run()` on the WebAssembly path, checking that the module ran (`ran` false: that it did not). */
const webAssembly = <T>(run: () => T, ran = true): T => onWebAssembly('cfaBlockFeatures', () => wasmBlockRows, run, ran);

/** Both paths' features of `image`, compared bit for bit; returns them for further checks. */
function expectSameFeatures(image: PixelBuffer, block: number, lattice: 0 | 1, sigma: number, start?: number, end?: number): Float32Array {
  const expected = withModulesOff(() => cfaBlockFeatures(image, block, lattice, sigma, start, end));
  const actual = webAssembly(() => cfaBlockFeatures(image, block, lattice, sigma, start, end), block % 4 === 0);
  expect(actual.length).toBe(expected.length);
  expect(float32Bits(actual)).toEqual(float32Bits(expected));
  return actual;
}

/** Random 8-bit pixels: a demosaiced smooth field with noise, and a tenth of the pixels replaced by any value. */
function randomBytes(width: number, height: number, channels: number, seed: number): PixelBuffer {
  const random = rng(seed);
  const rgb = toUint8(mosaicDemosaic(addNoise(smoothField(width, height, 3, seed), width, 3, 6, seed + 1), width, height), width, height, 3).data;
  const data = new Uint8Array(width * height * channels);
  for (let i = 0; i < width * height; i++) {
    for (let c = 0; c < channels; c++) data[i * channels + c] = random() < 0.1 ? Math.floor(random() * 256) : rgb[i * 3 + Math.min(c, 2)]!;
  }
  return { data, width, height, channels };
}

describe.skipIf(MODULES_OFF)('WebAssembly CFA block features', () => {
  it('equal the JavaScript ones on 8-bit images of awkward sizes, 1 to 4 channels, every block size and sigma', () => {
    const cases = [[2, 2, 2], [8, 8, 2], [13, 11, 2], [17, 9, 4], [37, 29, 6], [203, 157, 8], [70, 45, 10], [61, 50, 12], [131, 67, 16], [99, 70, 32]] as const;
    let seed = 1;
    for (const [width, height, block] of cases) {
      for (const channels of [1, 2, 3, 4]) {
        const image = randomBytes(width, height, channels, seed++);
        for (const sigma of [1.5, 0.8]) for (const lattice of [0, 1] as const) expectSameFeatures(image, block, lattice, sigma);
      }
    }
    const image = randomBytes(203, 157, 3, 99);
    for (const sigma of [0.3, 4, 16]) expectSameFeatures(image, 8, 1, sigma);
  }, 60_000);

  it('equal them on bands of rows of blocks, which concatenate to the whole image', () => {
    const image = randomBytes(203, 157, 3, 7), rows = Math.floor(157 / 8);
    const whole = expectSameFeatures(image, 8, 1, 1.5);
    const bw = Math.floor(203 / 8);
    for (const [start, end] of [[0, 1], [0, 7], [7, 8], [7, 13], [13, rows], [rows - 1, rows]] as const) {
      const band = expectSameFeatures(image, 8, 1, 1.5, start, end);
      expect(float32Bits(band)).toEqual(float32Bits(whole.subarray(start * bw, end * bw)));
    }
    expect(cfaBlockFeatures(image, 8, 1, 1.5, 3, 3).length).toBe(0);
  });

  it('equal them on constant and saturated images (zero variances: 0 and NaN features)', () => {
    const w = 45, h = 37;
    const constant = { data: new Uint8Array(w * h * 3).fill(128), width: w, height: h, channels: 3 };
    const white = { data: new Uint8Array(w * h * 3).fill(255), width: w, height: h, channels: 3 };
    // 0 / 255 checkerboard (largest errors), and a photo clipped to 255 in its upper half.
    const checker = { data: Uint8Array.from({ length: w * h }, (_, i) => (((i % w) + Math.floor(i / w)) % 2 === 0 ? 0 : 255)), width: w, height: h, channels: 1 };
    const clipped = randomBytes(w, h, 3, 5);
    clipped.data.fill(255, 0, Math.floor(h / 2) * w * 3);
    for (const image of [constant, white, checker, clipped]) for (const lattice of [0, 1] as const) expectSameFeatures(image, 4, lattice, 1.5);
    expect(Array.from(expectSameFeatures(constant, 4, 1, 1.5)).every((f) => f === 0)).toBe(true);
  });

  it('equal them on float32 pixels: fractions, tiny and huge values (flushed products), NaN, infinities and -0', () => {
    const random = rng(3);
    const w = 61, h = 43;
    for (const channels of [1, 3, 4]) {
      const n = w * h * channels;
      const fractions = Float32Array.from({ length: n }, () => random() * 255);
      // Variances near 1e-20 and 1e16: products of a block of 16 leave 1e-200..1e200 many times.
      const tiny = Float32Array.from({ length: n }, () => random() * 1e-10);
      const huge = Float32Array.from({ length: n }, () => random() * 1e8);
      // Variances under 2^-126 (subnormal float32), which both paths scale by 2^24 before taking their exponent.
      const subnormal = Float32Array.from({ length: n }, () => random() * 1e-19);
      const special = Float32Array.from(fractions, (v, i) => (i % 97 === 0 ? Number.NaN : i % 89 === 0 ? Infinity : i % 83 === 0 ? -Infinity : i % 7 === 0 ? -0 : v));
      for (const data of [fractions, tiny, huge, subnormal, special]) {
        const image = { data, width: w, height: h, channels };
        for (const block of [2, 8, 16]) expectSameFeatures(image, block, 1, 1.5);
      }
    }
  });

  it('equal them with products flushed through Math.log on 8-bit noise in large blocks', () => {
    // Variances of thousands: a product of 32 x 32 / 2 of them leaves 1e200 every ~60 factors.
    const random = rng(11), w = 130, h = 100;
    const noise = { data: Uint8Array.from({ length: w * h * 3 }, () => Math.floor(random() * 256)), width: w, height: h, channels: 3 };
    for (const block of [32, 64]) for (const lattice of [0, 1] as const) expectSameFeatures(noise, block, lattice, 1.5);
  });

  it('give cfaVarianceMap the same result on a camera photo (18 MP Canon DSLR JPEG)', async () => {
    const dir = datasetDir('images/exifr-fixtures');
    if (!dir) return;
    const image = await decodeImage(readFileSync(join(dir, 'canon-dslr.jpg')));
    const expected = withModulesOff(() => cfaVarianceMap(image));
    const actual = webAssembly(() => cfaVarianceMap(image));
    expect(actual.score).toBe(expected.score);
    expect(actual.stats).toEqual(expected.stats);
    for (let i = 0; i < expected.maps.length; i++) expect(float32Bits(actual.maps[i]!.data)).toEqual(float32Bits(expected.maps[i]!.data));
  }, 60_000);
});

describe.skipIf(MODULES_OFF)('WebAssembly mixture fit of the block features', () => {
  /** Both paths' fits, compared field by field with Object.is (NaN included). */
  function expectSameFit(x: Float64Array, maxIterations?: number): void {
    const expected = withModulesOff(() => fitZeroMeanMixture(x, maxIterations));
    const actual = withModulesOn('cfaBlockFeatures', () => fitZeroMeanMixture(x, maxIterations));
    for (const key of Object.keys(expected) as (keyof typeof expected)[]) {
      if (!Object.is(actual[key], expected[key])) throw new Error(`${key} of ${x.length} samples: ${actual[key]} instead of ${expected[key]}`);
    }
  }

  it('equals the JavaScript fit on mixtures of every small and large count, odd and even', () => {
    const normal = gaussian(rng(21)), random = rng(22);
    for (const n of [1, 2, 3, 4, 5, 17, 100, 1001, 4096, 32767, 32768]) {
      // A zero-mean component and a shifted one, as the CFA features are: both paths run up to 100 iterations.
      const x = Float64Array.from({ length: n }, () => (random() < 0.3 ? 6 + 5 * normal() : 2 * normal()));
      expectSameFit(x);
    }
  }, 60_000);

  it('equals it on degenerate samples: constant, far apart (exp underflows to 0), infinite and NaN', () => {
    const random = rng(23);
    expectSameFit(new Float64Array(50).fill(3));
    expectSameFit(Float64Array.from({ length: 301 }, (_, i) => (i % 2 === 0 ? 0 : 1e6 * (1 + random()))));
    expectSameFit(Float64Array.from({ length: 64 }, (_, i) => (i === 7 ? Infinity : random() * 10 - 5)));
    expectSameFit(Float64Array.from({ length: 64 }, (_, i) => (i === 9 ? Number.NaN : random() * 10 - 5)), 5);
    expectSameFit(Float64Array.from({ length: 999 }, () => -736.8 + random() * 1e-9));
  });
});

describe.skipIf(MODULES_OFF)('WebAssembly binned mixture fit of the block features', () => {
  /** Both paths' binned fits, compared field by field with Object.is. */
  function expectSameBinnedFit(x: Float64Array): void {
    const expected = withModulesOff(() => fitZeroMeanMixtureBinned(x));
    const actual = onWebAssembly('cfaBlockFeatures', () => wasmBinnedFits, () => fitZeroMeanMixtureBinned(x));
    for (const key of Object.keys(expected) as (keyof typeof expected)[]) {
      if (!Object.is(actual[key], expected[key])) throw new Error(`${key} of ${x.length} samples: ${actual[key]} instead of ${expected[key]}`);
    }
  }

  it('equals the JavaScript binned fit: odd and even group counts, exact zeros, values near 0 and far out', () => {
    const normal = gaussian(rng(24)), random = rng(25);
    for (const n of [8192, 8193, 20001, 32768]) {
      expectSameBinnedFit(Float64Array.from({ length: n }, () => (random() < 0.3 ? 6 + 5 * normal() : 2 * normal())));
      expectSameBinnedFit(Float64Array.from({ length: n }, (_, i) => (i % 9 === 0 ? 0 : i % 9 === 1 ? 1e-4 * normal() : i % 997 === 0 ? 1e4 * normal() : 7 * normal())));
    }
  });
});

describe.skipIf(MODULES_OFF)('WebAssembly 5x5 window median of the pooled ratios', () => {
  /** The plain computation: each (clipped) 5x5 window copied and its median selected anew. */
  function plainMedian(map: Float32Array, width: number, height: number): Float32Array {
    const out = new Float32Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
      const values: number[] = [];
      for (let v = Math.max(0, y - 2); v <= Math.min(height - 1, y + 2); v++) for (let u = Math.max(0, x - 2); u <= Math.min(width - 1, x + 2); u++) values.push(map[v * width + u]!);
      out[y * width + x] = medianInPlace(Float64Array.from(values));
    }
    return out;
  }

  it('equals the JavaScript windowMedian5x5 bit for bit and the plain median in value (negatives, ties, +-0, awkward sizes)', () => {
    const random = rng(31);
    for (const [w, h] of [[5, 5], [6, 5], [5, 9], [7, 7], [8, 6], [9, 13], [13, 8], [61, 23], [130, 97]] as const) {
      for (const kind of ['continuous', 'ties', 'zeros'] as const) {
        const map = Float32Array.from({ length: w * h }, (_, i) => kind === 'continuous' ? (random() - 0.4) * 1e3
          : kind === 'ties' ? (i % 7 === 0 ? -736.8 : Math.round((random() - 0.5) * 12) / 4)
            : [0, -0, 1, -1, -736.8][Math.floor(random() * 5)]!);
        const expected = withModulesOff(() => windowMedian5x5(map, w, h, 2));
        const before = wasmMedianCalls;
        const actual = windowMedian5x5(map, w, h, 2);
        expect(wasmMedianCalls).toBe(before + 1);
        expect(firstDifference(float32Bits(actual), float32Bits(expected))).toBe(-1);
        // Against the plain median, -0 and +0 are equal values (the kernel's sigmoid gives 0.5 for both).
        expect(Float32Array.from(actual, (v) => v + 0)).toEqual(Float32Array.from(plainMedian(map, w, h), (v) => v + 0));
      }
    }
  });
});
