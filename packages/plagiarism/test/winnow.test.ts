import { describe, expect, it } from 'vitest';
import { winnow } from '../src/index.js';

function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0);
}

describe('winnow', () => {
  it('selects the minimum of every window, rightmost on ties, once per position', () => {
    expect(winnow([5, 3, 7, 3, 9, 8], 3)).toEqual([3, 3]);
  });

  it('keeps about 2 / (w + 1) of the hashes', () => {
    const next = lcg(7);
    const hashes = Array.from({ length: 20_000 }, next);
    const density = winnow(hashes, 4).length / hashes.length;
    expect(density).toBeGreaterThan(0.35);
    expect(density).toBeLessThan(0.45);
  });

  it('always shares a fingerprint between texts sharing a window of hashes', () => {
    const next = lcg(11);
    for (let trial = 0; trial < 50; trial++) {
      const shared = Array.from({ length: 4 }, next);
      const a = [...Array.from({ length: 30 }, next), ...shared, ...Array.from({ length: 30 }, next)];
      const b = [...Array.from({ length: 17 }, next), ...shared, ...Array.from({ length: 9 }, next)];
      const fa = new Set(winnow(a, 4));
      expect(winnow(b, 4).some((h) => fa.has(h))).toBe(true);
    }
  });

  it('returns the minimum of a sequence shorter than the window', () => {
    expect(winnow([4, 2, 9], 5)).toEqual([2]);
    expect(winnow([], 5)).toEqual([]);
  });
});
