import { describe, expect, it } from 'vitest';
import { localisationScores, rocAuc } from '../src/index.js';
import type { ForensicMap } from '../src/index.js';

const map = (data: number[], width: number, cellSize: number): ForensicMap =>
  ({ name: 'm', data: Float32Array.from(data), width, height: data.length / width, cellSize, displayRange: [0, 1] });

describe('localisationScores', () => {
  // A 4x4 image, tampered top-left 2x2.
  const mask = Uint8Array.from([1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);

  it('scores a map that marks exactly the tampered cells as perfect', () => {
    expect(localisationScores(map([1, 0, 0, 0], 2, 2), mask, 4, 4)).toEqual({ auc: 1, bestF1: 1, mcc: 1, threshold: 1 });
  });

  it('scores the inverted map 0 AUC, and a constant map 0.5 with F1 of calling everything tampered', () => {
    expect(localisationScores(map([0, 1, 1, 1], 2, 2), mask, 4, 4).auc).toBe(0);
    const flat = localisationScores(map([0.3, 0.3, 0.3, 0.3], 2, 2), mask, 4, 4);
    expect(flat.auc).toBe(0.5);
    expect(flat.bestF1).toBeCloseTo((2 * 4) / (2 * 4 + 12), 12);
    expect(flat.mcc).toBe(0);
  });

  it('counts pixels per cell, partial border cells included, and NaN cells as lowest', () => {
    // 3x3 cells of 2 pixels over a 5x5 image: the last row and column of cells cover one pixel.
    const m5 = new Uint8Array(25);
    m5[24] = 1; // bottom-right pixel, in cell (2, 2)
    const scores = localisationScores(map([0, 0, 0, 0, NaN, 0, 0, 0, 5], 3, 2), m5, 5, 5);
    expect(scores).toMatchObject({ auc: 1, bestF1: 1, mcc: 1 });
  });

  it('rejects a mask of the wrong size', () => {
    expect(() => localisationScores(map([1, 0, 0, 0], 2, 2), new Uint8Array(3), 4, 4)).toThrow(RangeError);
  });
});

describe('rocAuc', () => {
  it('is the share of positive-negative pairs ranked right, ties half', () => {
    expect(rocAuc([3, 2], [1, 2])).toBe((1 + 1 + 0.5 + 1) / 4);
    expect(rocAuc([], [1])).toBeNaN();
  });
});
