import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cfaVarianceMap, kernelRegistry } from '../src/index.js';
import { finiteSubsample, posteriorOfNoTrace } from '../src/kernels/cfaVarianceMap.js';
import { evenSubsample, finiteValues } from '../src/internal/stats.js';
import { bayerBandErrors } from '../src/internal/bayerErrors.js';
import { cfaBlockFeatures } from '../src/internal/cfaBlockFeatures.js';
import { windowMedian } from '../src/internal/convolve.js';
import { median25, windowMedian5x5 } from '../src/internal/windowMedian5x5.js';
import { logLikelihoodRatios, logNormal } from '../src/internal/zeroMeanMixture.js';
import type { PixelBuffer } from '../src/index.js';
import { addNoise, mosaicDemosaic, rng, smoothField, toUint8 } from './synthetic.js';
import { float32Bits } from './wasmPaths.js';

// The CFA kernels' fast paths against the plain computation they replace (outputs must not change).
const W = 203, H = 157;
const demosaiced = toUint8(mosaicDemosaic(addNoise(smoothField(W, H, 3, 21), W, 3, 5, 22), W, H), W, H, 3);

/** The image without its first column: every Bayer layout moves by one, so the other lattice wins. */
function shiftedByOne(image: PixelBuffer): PixelBuffer {
  const w = image.width - 1, c = image.channels, data = new Uint8Array(w * image.height * c);
  for (let y = 0; y < image.height; y++) data.set(image.data.subarray((y * image.width + 1) * c, (y + 1) * image.width * c), y * w * c);
  return { data, width: w, height: image.height, channels: c };
}

describe('CFA fast paths give the plain computation\'s results', () => {
  it('median25 selects the 13th smallest of five sorted columns for every input of 0s and 1s (0-1 principle)', () => {
    const s = new Int32Array(25);
    for (let code = 0; code < 6 ** 5; code++) {
      let ones = 0;
      for (let c = 0, k = code; c < 5; c++, k = Math.floor(k / 6)) {
        const n = k % 6; // ones in column c, sorted: zeros first
        for (let i = 0; i < 5; i++) s[c * 5 + i] = i >= 5 - n ? 1 : 0;
        ones += n;
      }
      if (median25(s, 0) !== (ones >= 13 ? 1 : 0)) throw new Error(`median25 wrong for column counts ${code}`);
    }
  });

  it('windowMedian5x5 equals windowMedian (negatives, ties, +-0; NaN and other radii delegated)', () => {
    const random = rng(31);
    const sigmoid = (a: Float32Array) => Float32Array.from(a, (v) => 1 / (1 + Math.exp(-v)));
    for (const [w, h] of [[61, 23], [5, 5], [6, 9], [40, 40]] as const) {
      const map = Float32Array.from({ length: w * h }, (_, i) => (i % 7 === 0 ? -736.8 : i % 11 === 0 ? -0 : Math.round((random() - 0.5) * 40) / 4 + (i % 3 === 0 ? 1e-3 * random() : 0)));
      // -0 and +0 are equal values: either may be selected (the kernel's sigmoid gives 0.5 for both).
      expect(sigmoid(windowMedian5x5(map, w, h, 2))).toEqual(sigmoid(windowMedian(map, w, h, 2)));
      for (const r of [0, 1, 3]) expect(windowMedian5x5(map, w, h, r)).toEqual(windowMedian(map, w, h, r));
      map[Math.floor(map.length / 2)] = Number.NaN;
      expect(windowMedian5x5(map, w, h, 2)).toEqual(windowMedian(map, w, h, 2));
    }
  });

  it('posteriorOfNoTrace equals the sigmoid of every ratio (repeats, saturation, +-0, infinities, NaN)', () => {
    const random = rng(33);
    const special = [0, -0, 17.99, 18, 18.01, 40, -109.99, -110, -110.01, -800, 1e-300, -1e-300, Infinity, -Infinity, Number.NaN];
    for (const [w, h] of [[1, 1], [7, 5], [61, 23]] as const) {
      const a = Float32Array.from({ length: w * h }, (_, i) => (i % 5 === 0 ? special[Math.floor(random() * special.length)]! : Math.round((random() - 0.5) * 60) / 4));
      // Runs along rows and down columns, as a 5x5 median gives.
      for (let i = 0; i < a.length; i++) if (random() < 0.3 && i > 0) a[i] = a[i - 1]!; else if (random() < 0.3 && i >= w) a[i] = a[i - w]!;
      const plain = Float32Array.from(a, (v) => 1 / (1 + Math.exp(-v)));
      let flagged = 0;
      for (const v of a) if (1 / (1 + Math.exp(-v)) > 0.5) flagged++;
      const fast = posteriorOfNoTrace(a, w, h);
      expect(float32Bits(fast.probability)).toEqual(float32Bits(plain));
      expect(fast.flagged).toBe(flagged);
    }
  });

  it('finiteSubsample equals evenSubsample of the finite values, with their count', () => {
    const random = rng(35);
    for (const n of [0, 1, 10, 99, 1000, 5000]) {
      const values = Float32Array.from({ length: n }, (_, i) => (i % 13 === 0 ? Number.NaN : i % 17 === 0 ? -Infinity : (random() - 0.5) * 50));
      const finite = finiteValues(values);
      for (const max of [1, 7, 64, 1000, 10000]) {
        const { count, sample } = finiteSubsample(values, max);
        expect(count).toBe(finite.length);
        expect(Array.from(sample)).toEqual(Array.from(evenSubsample(finite, max)));
      }
    }
  });

  it('logLikelihoodRatios equals the difference of the two logNormal calls', () => {
    const values = Float32Array.of(-3.5, 0, -0, 12.25, Number.NaN, Infinity, -Infinity, 1e-30, 700);
    const mixture = { sigma0: 3.09, mu1: -2.26, sigma1: 6.09 };
    const expected = Float32Array.from(values, (v) => { const x = Number.isFinite(v) ? v : -736.8; return logNormal(x, 0, mixture.sigma0) - logNormal(x, mixture.mu1, mixture.sigma1); });
    expect(logLikelihoodRatios(values, mixture, -736.8)).toEqual(expected);
  });

  it('Bayer errors of 8-bit pixels (integer path) equal those of the same values as float32 (float path)', () => {
    const flat = { ...demosaiced, data: Uint8Array.from(demosaiced.data, (v, i) => ((i / 3) % W < 40 ? 90 : v)) };
    for (const image of [demosaiced, shiftedByOne(demosaiced), flat, { data: demosaiced.data.subarray(0, 67 * 45), width: 67, height: 45, channels: 1 }]) {
      for (const [block, start, end, stride] of [[16, 0, Math.ceil(image.height / 16), 1], [6, 3, 11, 1], [10, 0, 9, 3], [2, 5, 9, 1]] as const) {
        const integer = bayerBandErrors(image, block, start, end, stride);
        const float = bayerBandErrors({ ...image, data: Float32Array.from(image.data) }, block, start, end, stride);
        expect(isDeepStrictEqual(integer, float)).toBe(true);
      }
    }
  });

  it('block features of lattice 0 are those of lattice 1 negated (+0 and NaN kept), which the bands rely on', () => {
    for (const sigma of [1.5, 0.8]) {
      const one = cfaBlockFeatures(demosaiced, 8, 1, sigma), zero = cfaBlockFeatures(demosaiced, 8, 0, sigma);
      expect(Array.from(zero)).toEqual(Array.from(one, (f) => (f > 0 || f < 0 ? -f : f)));
    }
  });

  it('cfa-variance bands choose either lattice in the merge and negate the features for 0, as the unsplit kernel', () => {
    // 2 MP: the demosaiced image tiled (even offsets keep its lattice), then shifted by one column.
    const tw = 1604, th = 1256;
    const data = new Uint8Array(tw * th * 3);
    for (let y = 0; y < th; y++) for (let x = 0; x < tw; x++) for (let c = 0; c < 3; c++) data[(y * tw + x) * 3 + c] = demosaiced.data[((y % 156) * W + (x % 202)) * 3 + c]!;
    const lattices = new Set<number>();
    for (const image of [{ data, width: tw, height: th, channels: 3 }, shiftedByOne({ data, width: tw, height: th, channels: 3 })]) {
      const whole = cfaVarianceMap(image);
      lattices.add(whole.stats.lattice!);
      const bands = kernelRegistry['cfa-variance'].bands!;
      const plan = bands.plan({ image }, undefined, 3)!;
      const parts = plan.rows.map((rows) => bands.runBand({ image }, plan.shared, rows));
      expect(isDeepStrictEqual(bands.merge({ image }, plan.shared, parts), whole)).toBe(true);
    }
    expect([...lattices].sort()).toEqual([0, 1]);
  }, 30_000);
});
