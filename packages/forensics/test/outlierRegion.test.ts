import { describe, expect, it } from 'vitest';
import { largestOutlierRegion } from '../src/internal/outlierRegion.js';
import { rng } from './synthetic.js';

describe('largestOutlierRegion', () => {
  const W = 20, H = 10;
  const background = (seed: number) => { const random = rng(seed); return Float32Array.from({ length: W * H }, () => 10 + random()); };

  it('is the area of the largest 4-connected patch of high robust z, as a fraction of the finite cells', () => {
    const map = background(1);
    for (let y = 2; y < 5; y++) for (let x = 3; x < 7; x++) map[y * W + x] = 50; // 12 cells
    map[8 * W + 15] = 50; map[8 * W + 16] = 50; // a separate pair
    map[9 * W + 0] = 50; map[8 * W + 1] = 50; // diagonal neighbours only: two single cells
    expect(largestOutlierRegion(map, W, H, 2, false)).toBe(12 / (W * H));
    map[0] = Number.NaN;
    expect(largestOutlierRegion(map, W, H, 2, false)).toBe(12 / (W * H - 1));
  });

  it('counts low outliers only when two-sided, and nothing in a flat or empty map', () => {
    const map = background(2);
    for (let x = 0; x < 5; x++) map[5 * W + x] = -30;
    expect(largestOutlierRegion(map, W, H, 2, false)).toBe(0);
    expect(largestOutlierRegion(map, W, H, 2, true)).toBe(5 / (W * H));
    expect(largestOutlierRegion(new Float32Array(W * H).fill(3), W, H, 2, true)).toBe(0);
    expect(largestOutlierRegion(new Float32Array(W * H).fill(Number.NaN), W, H, 2, true)).toBe(0);
  });

  it('does not wrap a region from the end of one row to the start of the next', () => {
    const map = background(3);
    map[1 * W + (W - 1)] = 50; map[2 * W] = 50;
    expect(largestOutlierRegion(map, W, H, 2, false)).toBe(1 / (W * H));
  });
});
