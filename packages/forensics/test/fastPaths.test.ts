import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { errorLevelAnalysis } from '../src/index.js';
import { expNegative } from '../src/internal/expNegative.js';
import { finiteHypot, hypot } from '../src/internal/hypot.js';
import { median3x3 } from '../src/internal/median3x3.js';
import { float32Quantile, medianFloat64InPlace, medianInPlace, medianOfNonNegativeBits, selectKth } from '../src/internal/stats.js';
import { rng } from './synthetic.js';

// The speed-ups of benchmarks/forensics must not change results: each fast path against the plain computation.
describe('fast paths give the plain computation\'s results', () => {
  it('float32Quantile equals quickselect on the finite values, with NaN, infinities, negatives and -0', () => {
    const random = rng(5);
    const values = Float32Array.from({ length: 70_000 }, (_, i) => (i % 97 === 0 ? Number.NaN : i % 89 === 0 ? -Infinity : i % 7 === 0 ? 0 : (random() - 0.3) * 1000));
    values[3] = -0;
    const finite = Float64Array.from(values.filter(Number.isFinite));
    for (const q of [0, 0.01, 0.5, 0.99, 0.995, 1]) {
      const k = Math.round(q * (finite.length - 1));
      expect(float32Quantile(values, q)).toBe(selectKth(Float64Array.from(finite), finite.length, k) || 0);
    }
    expect(float32Quantile(Float32Array.of(Number.NaN, Infinity), 0.5)).toBeNaN();
  });

  it('finiteHypot is Math.hypot bit for bit on finite arguments', () => {
    const random = rng(16);
    const special = [0, -0, 1, -1, -3, 3, 1e-310, -1e-310, 1e300];
    for (const a of special) for (const b of special) expect(Object.is(finiteHypot(a, b), Math.hypot(a, b))).toBe(true);
    for (let i = 0; i < 200_000; i++) {
      const a = (random() - 0.5) * 2048, b = i % 3 === 0 ? a * (random() < 0.5 ? -1 : 1) : (random() - 0.5) * 10 ** Math.floor(random() * 12 - 6);
      if (!Object.is(finiteHypot(a, b), Math.hypot(a, b))) throw new Error(`finiteHypot(${a}, ${b})`);
    }
  });

  it('medianOfNonNegativeBits and medianFloat64InPlace equal medianInPlace, with runs of equal values, zeros and infinity', () => {
    const random = rng(17);
    const bits = new Int32Array(64), floats = new Float32Array(bits.buffer);
    for (let trial = 0; trial < 20_000; trial++) {
      const n = 1 + (trial % 64), levels = 1 + (trial % 7);
      const values = Float32Array.from({ length: n }, () => (random() < 0.1 ? 0 : random() < 0.02 ? Infinity : Math.floor(random() * levels) * (random() < 0.5 ? 1 : 1.37)));
      const expected = medianInPlace(Float64Array.from(values));
      floats.set(values);
      expect(medianOfNonNegativeBits(bits, floats, n)).toBe(expected);
      expect(medianFloat64InPlace(Float64Array.from(values), n)).toBe(expected);
    }
  });

  it('ELA reads RGB four pixels a word at a time with the byte loop\'s result (any width, block and alignment)', () => {
    const random = rng(18);
    for (const [width, height, blockSize] of [[37, 23, 16], [64, 20, 8], [41, 9, 5]] as const) {
      const n = width * height * 3;
      const a = Uint8Array.from({ length: n }, () => Math.floor(random() * 256));
      const b = Uint8Array.from(a, (v) => Math.max(0, Math.min(255, v + Math.floor(random() * 9) - 4)));
      const offset = (bytes: Uint8Array, by: number): Uint8Array => { const buffer = new Uint8Array(n + by); buffer.set(bytes, by); return buffer.subarray(by); };
      const words = errorLevelAnalysis({ data: a, width, height, channels: 3 }, { data: b, width, height, channels: 3 }, { blockSize });
      for (const by of [1, 2, 3]) {
        const bytes = errorLevelAnalysis({ data: offset(a, by), width, height, channels: 3 }, { data: offset(b, 4 - by), width, height, channels: 3 }, { blockSize });
        expect(isDeepStrictEqual(bytes, words)).toBe(true);
      }
    }
  });

  it('hypot is Math.hypot bit for bit', () => {
    const random = rng(6);
    const special = [0, -0, 1, -3, 1e-310, 1e308, Number.NaN, Infinity, -Infinity];
    for (const a of special) for (const b of special) expect(Object.is(hypot(a, b), Math.hypot(a, b))).toBe(true);
    for (let i = 0; i < 200_000; i++) {
      const a = Math.fround(random() * 2000 - 1000) + Math.fround(random()), b = (random() - 0.5) * 10 ** Math.floor(random() * 12 - 6);
      if (!Object.is(hypot(a, b), Math.hypot(a, b))) throw new Error(`hypot(${a}, ${b})`);
    }
  });

  it('expNegative is within 1e-13 of Math.exp (relative; absolute 1e-320 in the subnormal tail)', () => {
    for (let d = 0; d < 745; d += 0.0137) expect(Math.abs(expNegative(d) - Math.exp(-d))).toBeLessThanOrEqual(Math.max(1e-13 * Math.exp(-d), 1e-320));
    expect(expNegative(0)).toBe(1);
    expect(expNegative(2000)).toBe(0);
  });

  it('median3x3 takes the same values on non-negative data (bit patterns) as with negative values (comparisons)', () => {
    const random = rng(7);
    const w = 37, h = 23;
    const positive = Float32Array.from({ length: w * h }, () => random() * 255);
    const shifted = Float32Array.from(positive, (v) => v - 300);
    const a = median3x3(positive, w, h), b = median3x3(shifted, w, h);
    for (let i = 0; i < a.length; i++) expect(b[i]).toBe(Math.fround(a[i]! - 300));
    const data = Float32Array.of(5, 1, 9, 3, 7, 2, 8, 4, 6);
    expect(median3x3(data, 3, 3)[4]).toBe(5);
  });

  it('ELA on 8-bit pixels (histogram path) equals ELA on the same values as float32 (generic path)', () => {
    const random = rng(8);
    const w = 67, h = 45;
    const a = Uint8Array.from({ length: w * h * 3 }, () => Math.floor(random() * 256));
    const b = Uint8Array.from(a, (v) => Math.max(0, Math.min(255, v + Math.floor(random() * 9) - 4)));
    for (const options of [{}, { scale: 10, blockSize: 7 }, { scale: 20 / 3 }]) {
      const fast = errorLevelAnalysis({ data: a, width: w, height: h, channels: 3 }, { data: b, width: w, height: h, channels: 3 }, options);
      const plain = errorLevelAnalysis({ data: Float32Array.from(a), width: w, height: h, channels: 3 }, { data: Float32Array.from(b), width: w, height: h, channels: 3 }, options);
      expect(fast.maps).toEqual(plain.maps);
      expect(fast.score).toBe(plain.score);
      for (const key of ['mean', 'p99', 'max', 'outlierBlockFraction']) expect(fast.stats[key]).toBe(plain.stats[key]);
      expect(fast.stats.std).toBeCloseTo(plain.stats.std!, 12);
    }
  });
});
