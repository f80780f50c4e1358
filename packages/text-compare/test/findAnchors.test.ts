import { describe, expect, it } from 'vitest';
import { createAnchorScratch, histogramAnchor, uniqueAnchors } from '../src/findAnchors.js';

const ids = (...values: number[]) => Int32Array.from(values);

describe('uniqueAnchors', () => {
  it('extends unique common words into maximal runs', () => {
    const a = ids(1, 2, 3, 0, 4, 5, 6);
    const b = ids(1, 2, 3, 9, 9, 4, 5, 6);
    expect(uniqueAnchors(a, 0, 7, b, 0, 8, 3, createAnchorScratch(10, 7))).toEqual([0, 0, 3, 4, 5, 3]);
  });

  it('keeps the in-order chain with the most words when runs cross', () => {
    // [1 2 3 4] and [5 6] swapped places: the longer run wins.
    const a = ids(1, 2, 3, 4, 5, 6);
    const b = ids(5, 6, 1, 2, 3, 4);
    expect(uniqueAnchors(a, 0, 6, b, 0, 6, 1, createAnchorScratch(7, 6))).toEqual([0, 2, 4]);
  });

  it('drops runs shorter than the minimum', () => {
    const a = ids(1, 2, 8, 3);
    const b = ids(1, 2, 9, 3);
    expect(uniqueAnchors(a, 0, 4, b, 0, 4, 3, createAnchorScratch(10, 4))).toEqual([]);
  });

  it('leaves the scratch counts at zero', () => {
    const scratch = createAnchorScratch(5, 3);
    uniqueAnchors(ids(1, 2, 3), 0, 3, ids(3, 2, 1), 0, 3, 1, scratch);
    expect([...scratch.countA, ...scratch.countB].every((c) => c === 0)).toBe(true);
  });
});

describe('histogramAnchor', () => {
  it('finds the longest run through a repeated word when no word is unique', () => {
    const a = ids(1, 1, 2, 3, 1, 2);
    const b = ids(1, 2, 1, 2, 3, 1);
    expect(histogramAnchor(a, 0, 6, b, 0, 6, 2, createAnchorScratch(4, 6))).toEqual([1, 2, 4]);
  });

  it('returns nothing when the longest run is shorter than the minimum', () => {
    expect(histogramAnchor(ids(1, 2, 1), 0, 3, ids(2, 3, 2), 0, 3, 2, createAnchorScratch(4, 3))).toEqual([]);
  });
});
