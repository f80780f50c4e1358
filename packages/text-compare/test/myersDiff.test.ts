import { describe, expect, it } from 'vitest';
import { myersDiff } from '../src/myersDiff.js';

const ids = (...values: number[]) => Int32Array.from(values);

describe('myersDiff', () => {
  it('returns one run for equal sequences', () => {
    const a = ids(1, 2, 3);
    expect(myersDiff(a, 0, 3, a, 0, 3, 10)).toEqual([0, 0, 3]);
  });

  it('finds the longest common subsequence around a replacement and an insertion', () => {
    const a = ids(1, 2, 3, 4, 5);
    const b = ids(1, 9, 3, 4, 8, 5);
    expect(myersDiff(a, 0, 5, b, 0, 6, 10)).toEqual([0, 0, 1, 2, 2, 2, 4, 5, 1]);
  });

  it('works on a window of each sequence and reports absolute positions', () => {
    const a = ids(7, 7, 1, 2, 7);
    const b = ids(7, 1, 2);
    expect(myersDiff(a, 2, 4, b, 1, 3, 4)).toEqual([2, 1, 2]);
  });

  it('gives up when more edits than the budget are needed', () => {
    expect(myersDiff(ids(1, 2, 3), 0, 3, ids(4, 5, 6), 0, 3, 5)).toBeNull();
    expect(myersDiff(ids(1, 2, 3), 0, 3, ids(4, 5, 6), 0, 3, 6)).toEqual([]);
  });
});
