import { describe, expect, it } from 'vitest';
import { windowMedian } from '../src/internal/convolve.js';
import { medianInPlace } from '../src/internal/stats.js';
import { rng } from './synthetic.js';

/** The plain computation: each (clipped) window copied and its median selected. */
function plainWindowMedian(map: Float32Array, width: number, height: number, r: number): Float32Array {
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
    const values: number[] = [];
    for (let v = Math.max(0, y - r); v <= Math.min(height - 1, y + r); v++) for (let u = Math.max(0, x - r); u <= Math.min(width - 1, x + r); u++) values.push(map[v * width + u]!);
    out[y * width + x] = medianInPlace(Float64Array.from(values));
  }
  return out;
}

describe('windowMedian (sliding sorted window)', () => {
  it('equals the median of each window selected anew, with ties, for r = 1, 2, 3', () => {
    const random = rng(11);
    const w = 61, h = 23;
    const map = Float32Array.from({ length: w * h }, (_, i) => (i % 5 === 0 ? -736.8 : Math.round((random() - 0.5) * 40) / 4));
    // -0 and +0 are equal values, the selection may return either (the kernel's sigmoid gives 0.5 for both).
    const zeroSigned = (a: Float32Array) => Float32Array.from(a, (v) => v + 0);
    for (const r of [1, 2, 3]) expect(zeroSigned(windowMedian(map, w, h, r))).toEqual(zeroSigned(plainWindowMedian(map, w, h, r)));
  });

  it('takes the selection path when the map holds NaN', () => {
    const map = Float32Array.from({ length: 12 * 9 }, (_, i) => (i === 40 ? Number.NaN : (i * 7) % 13));
    expect(windowMedian(map, 12, 9, 2)).toEqual(plainWindowMedian(map, 12, 9, 2));
  });
});
