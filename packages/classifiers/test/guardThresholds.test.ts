import { describe, expect, it } from 'vitest';
import { calibrateThresholds, clopperPearsonUpper, guardThresholds } from '../src/index.js';
import type { SourcedRanges } from '../src/index.js';

// Deterministic pseudo-random numbers (mulberry32), for reproducible synthetic scores.
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Whole texts of 700 characters (bucket 600) of two sources: a large one and a small one scoring higher. */
function texts(): SourcedRanges[] {
  const r = random(7);
  const out: SourcedRanges[] = [];
  for (let i = 0; i < 2000; i++) out.push({ source: 'big', ranges: [{ chars: 700, raw: r() * 100 }] });
  for (let i = 0; i < 150; i++) out.push({ source: 'small', ranges: [{ chars: 700, raw: 60 + r() * 50 }] });
  for (let i = 0; i < 10; i++) out.push({ source: 'tiny', ranges: [{ chars: 700, raw: 1000 + i }] });
  return out;
}

describe('guardThresholds', () => {
  it('raises a bucket to the conformal quantile of each source with enough texts, and restates the pooled bound', () => {
    const all = texts();
    const pooled = calibrateThresholds(all.map((t) => t.ranges), { targetFpr: 0.01 });
    const { buckets, sources } = guardThresholds(all, pooled, 0.01, { sourceFpr: 0.01 });
    const b = buckets[2]!; // 600-1,199 characters
    expect(b.min_chars).toBe(600);
    // 150 small-source texts: rank ceil(151 * 0.99) = 150, the largest; the bound is 1/151.
    const small = all.filter((t) => t.source === 'small').map((t) => t.ranges[0]!.raw).sort((x, y) => x - y);
    expect(sources.small![600]).toEqual({ n: 150, rank: 150, threshold: small[149], bound: 1 / 151 });
    // 2,000 big-source texts: rank ceil(2001 * 0.99) = 1981; the bound (2001 - 1981) / 2001 <= 1%.
    expect(sources.big![600]!.rank).toBe(1981);
    expect(sources.big![600]!.bound).toBeLessThanOrEqual(0.01);
    // The tiny source (10 texts, under minSource) does not raise the threshold, though it lies above it.
    expect(sources.tiny).toBeUndefined();
    expect(b.threshold).toBe(Math.max(pooled[2]!.threshold, small[149]!, sources.big![600]!.threshold));
    expect(b.set_by).toBe('small');
    expect(b.threshold).toBeGreaterThanOrEqual(pooled[2]!.threshold);
    // No small-source text lies above it; the pooled exceedances are the tiny source's 10.
    expect(b.exceedances).toBe(10);
    expect(b.fpr_bound).toBeCloseTo(clopperPearsonUpper(10, 2160, 0.95), 12);
    expect(b.meets_target).toBe(b.fpr_bound <= 0.01);
  });

  it('keeps a bucket no source can raise as the pooled rule set it, and refuses buckets of other lengths', () => {
    const all = texts();
    const pooled = calibrateThresholds(all.map((t) => t.ranges), { targetFpr: 0.01 });
    const { buckets } = guardThresholds(all, pooled, 0.01, { sourceFpr: 0.01, minSource: 5000 });
    expect(buckets[2]!.threshold).toBe(pooled[2]!.threshold);
    expect(buckets[2]!.set_by).toBe('pooled');
    expect(() => guardThresholds(all, pooled.slice(1), 0.01, { sourceFpr: 0.01 })).toThrow(RangeError);
    expect(() => guardThresholds(all, pooled, 0.01, { sourceFpr: 0 })).toThrow(RangeError);
  });
});
