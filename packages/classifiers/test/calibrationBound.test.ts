import { describe, expect, it } from 'vitest';
import {
  binomialCdf, calibrateThresholds, clopperPearsonUpper, maxExceedances, minimumSample,
} from '../src/index.js';

/** A fixed pseudo-random sequence in [0, 1) (the same every run). */
function uniforms(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('finite-sample false-positive bounds', () => {
  it('computes binomial tails exactly (values from the exact sum with Python integers)', () => {
    expect(binomialCdf(4, 1000, 0.01)).toBeCloseTo(0.0286864, 6);
    expect(binomialCdf(5, 1000, 0.01)).toBeCloseTo(0.0661395, 6);
    expect(binomialCdf(0, 10, 0.5)).toBeCloseTo(1 / 1024, 12);
    expect(binomialCdf(10, 10, 0.5)).toBe(1);
  });

  it('gives the Clopper-Pearson upper bound, in closed form where there is one', () => {
    // k = 0: 1 - (1 - c)^(1/n); k = n - 1: c^(1/n).
    expect(clopperPearsonUpper(0, 299, 0.95)).toBeCloseTo(1 - 0.05 ** (1 / 299), 9);
    expect(clopperPearsonUpper(9, 10, 0.95)).toBeCloseTo(0.95 ** (1 / 10), 9);
    expect(clopperPearsonUpper(4, 1000, 0.95)).toBeCloseTo(0.00912995, 7);
    expect(clopperPearsonUpper(0, 0, 0.95)).toBe(1);
  });

  it('allows the most exceedances the target permits, and none below the minimum sample', () => {
    expect(minimumSample(0.01, 0.95)).toBe(299);
    expect(minimumSample(0.05, 0.95)).toBe(59);
    expect(maxExceedances(298, 0.01, 0.95)).toBe(-1);
    expect(maxExceedances(299, 0.01, 0.95)).toBe(0);
    expect(maxExceedances(1000, 0.01, 0.95)).toBe(4);
    expect(() => maxExceedances(100, 0, 0.95)).toThrow('Expected number in (0, 1) for targetFpr but received 0');
    expect(() => clopperPearsonUpper(1, 10, 1)).toThrow('Expected number in (0, 1) for confidence but received 1');
  });

  it('keeps the true false-positive rate within the target in at least 95% of repeated samples', () => {
    // Raw outputs uniform on [0, 1): a threshold t flags exactly 1 - t of human text.
    const random = uniforms(7);
    const trials = 400;
    let over = 0;
    let sumFpr = 0;
    for (let trial = 0; trial < trials; trial++) {
      const texts = Array.from({ length: 800 }, () => [{ chars: 900, raw: random() }]);
      const [bucket] = calibrateThresholds(texts, { targetFpr: 0.01, bucketChars: [0] });
      const fpr = 1 - bucket!.threshold;
      expect(fpr).toBeLessThanOrEqual(1);
      if (fpr > 0.01) over++;
      sumFpr += fpr;
      expect(bucket!.fpr_bound).toBeLessThanOrEqual(0.01);
    }
    // P(FPR > 1%) = P(Binomial(800, 0.01) <= j) <= 5% by construction; 400 trials put the share within ~2 points.
    expect(over / trials).toBeLessThanOrEqual(0.07);
    // And no stricter than the order statistic: its expected false-positive rate is (j + 1) / (n + 1).
    const j = maxExceedances(800, 0.01, 0.95);
    expect(j).toBe(3);
    expect(sumFpr / trials).toBeCloseTo((j + 1) / 801, 3);
  });
});

describe('calibrateThresholds', () => {
  it('takes one range per text and bucket, the whole text where it falls in the bucket', () => {
    const texts = Array.from({ length: 300 }, (_, i) => [
      { chars: 700, raw: i },           // whole text: bucket 600
      { chars: 250, raw: 1000 + i },    // leading part: bucket 0
      { chars: 650, raw: 5000 },        // a second range in bucket 600: ignored
    ]);
    const buckets = calibrateThresholds(texts, { targetFpr: 0.01, bucketChars: [0, 300, 600] });
    expect(buckets.map((b) => b.n_human)).toEqual([300, 0, 300]);
    // 300 scores, j = 0: the threshold is the highest score, nothing above it.
    expect(buckets[0]).toMatchObject({ threshold: 1299, exceedances: 0, meets_target: true });
    expect(buckets[2]).toMatchObject({ threshold: 299, exceedances: 0, meets_target: true });
    expect(buckets[2]!.fpr_bound).toBeCloseTo(1 - 0.05 ** (1 / 300), 9);
  });

  it('gives a bucket with too few texts its neighbour\'s threshold and the weaker bound its own texts support', () => {
    const texts = Array.from({ length: 400 }, (_, i) => [
      { chars: 500, raw: i },
      ...(i < 40 ? [{ chars: 1500, raw: i % 2 === 0 ? 1000 : 0 }] : []),
    ]);
    const buckets = calibrateThresholds(texts, { targetFpr: 0.01, bucketChars: [0, 1000] });
    expect(buckets[0]).toMatchObject({ n_human: 400, threshold: 399, exceedances: 0, meets_target: true });
    expect(buckets[1]).toMatchObject({ n_human: 40, threshold: 399, exceedances: 20, meets_target: false, inherited_from: 0 });
    expect(buckets[1]!.fpr_bound).toBeCloseTo(clopperPearsonUpper(20, 40, 0.95), 12);
  });

  it('returns no buckets when no bucket has enough texts', () => {
    const texts = Array.from({ length: 100 }, (_, i) => [{ chars: 500, raw: i }]);
    expect(calibrateThresholds(texts, { targetFpr: 0.01 })).toEqual([]);
    expect(() => calibrateThresholds(texts, { targetFpr: 0.01, bucketChars: [100, 200] })).toThrow('Expected bucketChars to start at 0');
  });
});
