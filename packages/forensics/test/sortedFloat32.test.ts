import { describe, expect, it } from 'vitest';
import { SortedFloat32 } from '../src/internal/sortedFloat32.js';
import { outlierFraction, quantile, robustCenterScale } from '../src/internal/stats.js';
import { gaussian, rng } from './synthetic.js';

// SortedFloat32 must give the block-map statistics of stats.ts bit for bit: every quantile, the robust centre and
// scale and the outlier fraction, on maps with ties, of odd and even lengths, below and above stats.ts's radix length.

const QUANTILES = [0, 0.01, 0.25, 0.5, 0.5001, 0.75, 0.99, 0.995, 1];

function expectSameStatistics(values: Float32Array): void {
  const sorted = SortedFloat32.of(values);
  expect(sorted).toBeDefined();
  for (const q of QUANTILES) expect(Object.is(sorted!.quantile(q), quantile(values, q))).toBe(true);
  const expected = robustCenterScale(values), actual = sorted!.robustCenterScale();
  expect(Object.is(actual.median, expected.median)).toBe(true);
  expect(Object.is(actual.scale, expected.scale)).toBe(true);
  for (const [z, twoSided, minScale] of [[3.5, true, 0.05], [2, false, 1e-9], [0.5, true, 1e-9]] as const) {
    expect(sorted!.outlierFraction(z, twoSided, minScale)).toBe(outlierFraction(values, z, twoSided, minScale));
  }
}

describe('SortedFloat32', () => {
  it('gives the statistics of stats.ts on noise-like maps of odd and even lengths', () => {
    for (const n of [1, 2, 3, 10, 999, 1000, 47_628, 70_001]) {
      const normal = gaussian(rng(n));
      // Sigma-like values: |gaussian| scaled, a few large outliers.
      const values = Float32Array.from({ length: n }, (_, i) => Math.abs(normal()) * 0.4 + (i % 997 === 0 ? 20 : 0));
      expectSameStatistics(values);
    }
  });

  it('gives them on maps with many ties, zeros and a constant map', () => {
    const random = rng(7);
    expectSameStatistics(Float32Array.from({ length: 5001 }, () => Math.floor(random() * 4) / 8));
    expectSameStatistics(Float32Array.from({ length: 5000 }, () => (random() < 0.6 ? 0 : random())));
    expectSameStatistics(new Float32Array(4096).fill(0.25));
    expectSameStatistics(new Float32Array(4096));
  });

  it('gives no order for a negative, -0, NaN or infinite value', () => {
    for (const special of [-1, -0, Number.NaN, Number.POSITIVE_INFINITY]) {
      const values = Float32Array.from({ length: 100 }, (_, i) => i / 7);
      values[50] = special;
      expect(SortedFloat32.of(values)).toBeUndefined();
    }
    expect(SortedFloat32.of(new Float32Array(0))!.quantile(0.5)).toBeNaN();
  });

  it('sorts the values ascending, as float64', () => {
    const values = Float32Array.from([3.5, 0, 1e-30, 2, 1e30, 2, 0.1]);
    expect([...SortedFloat32.of(values)!.sorted]).toEqual([...values].sort((a, b) => a - b));
  });
});
