import { describe, expect, it } from 'vitest';
import { FUSION_MODEL, fuseMaps, standardisedMap } from '../src/index.js';
import type { ForensicMap, KernelOutcome } from '../src/index.js';
import { finiteValues, float32CenterScale, medianInPlace, robustCenterScale } from '../src/internal/stats.js';

function outcome(id: 'ela' | 'dq-aligned', data: Float32Array, width: number, cellSize: number): KernelOutcome {
  const map: ForensicMap = { name: id, data, width, height: data.length / width, cellSize, displayRange: [0, 1] };
  return { state: 'completed', id, version: '1', ms: 0, result: { maps: [map], stats: {}, score: 0 } };
}

describe('fuseMaps', () => {
  // 32x32 pixels: 4x4 cells of 8; one 16-pixel cell map (ELA-like) and one 8-pixel one.
  const ela = Float32Array.from({ length: 4 }, (_, i) => (i === 0 ? 10 : i));
  const dq = Float32Array.from({ length: 16 }, (_, i) => (i === 0 || i === 1 || i === 4 || i === 5 ? 0.9 : 0.1 + 0.01 * i));

  it('standardises each map per image on the 8-pixel grid (robust z, clamped to 6)', () => {
    const z = standardisedMap({ name: 'e', data: ela, width: 2, height: 2, cellSize: 16, displayRange: [0, 1] }, 32, 32);
    // median 2.5, MAD 1 -> scale 1.4826; the top-left 16x16 block covers cells (0..1, 0..1).
    expect(z[0]).toBeCloseTo(7.5 / 1.4826, 6);
    expect(z[1]).toBe(z[0]);
    expect(z[2]).toBeCloseTo((1 - 2.5) / 1.4826, 6);
    const spike = standardisedMap({ name: 'e', data: Float32Array.from([100, 1, 2, 3]), width: 2, height: 2, cellSize: 16, displayRange: [0, 1] }, 32, 32);
    expect(spike[0]).toBe(6);
  });

  it('weights the standardised maps by the model and reports the mean of its top cells', () => {
    const model = { weights: { ela: 1, 'dq-aligned': 0.5 }, bias: -1, radius: 0, topShare: 0.25, threshold: 0.9, provenance: 'test' };
    const fused = fuseMaps([outcome('ela', ela, 2, 16), outcome('dq-aligned', dq, 4, 8)], 32, 32, model);
    expect(fused.used).toEqual(['ela', 'dq-aligned']);
    expect(fused.map).toMatchObject({ name: 'fused-tamper-probability', width: 4, height: 4, cellSize: 8 });
    const zDq = standardisedMap({ name: 'd', data: dq, width: 4, height: 4, cellSize: 8, displayRange: [0, 1] }, 32, 32);
    expect(fused.map.data[0]).toBeCloseTo(1 / (1 + Math.exp(-(-1 + 7.5 / 1.4826 + 0.5 * zDq[0]!))), 6);
    // The four tampered cells are the top quarter.
    const top = [0, 1, 4, 5].map((i) => fused.map.data[i]!);
    expect(fused.score).toBeCloseTo(top.reduce((s, v) => s + v, 0) / 4, 6);
  });

  it('leaves out failed kernels, and the shipped model names only kernels with maps', () => {
    const failed: KernelOutcome = { state: 'errored', id: 'ela', version: '1', error: { code: 'X', message: 'x' } };
    expect(fuseMaps([failed, outcome('dq-aligned', dq, 4, 8)], 32, 32).used).toEqual(['dq-aligned']);
    expect(Object.keys(FUSION_MODEL.weights)).not.toContain('spectral');
    expect(FUSION_MODEL.threshold).toBeGreaterThan(0.5);
  });

  it('a kernel of weight 0 is listed but changes no cell, and a map with more than half its cells equal takes its standard deviation', () => {
    const model = { weights: { ela: 1, 'dq-aligned': 0 }, bias: -1, radius: 1, topShare: 0.25, threshold: 0.9, provenance: 'test' };
    const both = fuseMaps([outcome('ela', ela, 2, 16), outcome('dq-aligned', dq, 4, 8)], 32, 32, model);
    const alone = fuseMaps([outcome('ela', ela, 2, 16)], 32, 32, model);
    expect(both.used).toEqual(['ela', 'dq-aligned']);
    expect(Array.from(both.map.data)).toEqual(Array.from(alone.map.data));
    expect(both.score).toBe(alone.score);
    // 3 of 4 values 0 (MAD 0), one NaN: the finite values' standard deviation is the scale.
    const flat = Float32Array.from([0, 0, 0, 4, Number.NaN]);
    const z = standardisedMap({ name: 'f', data: flat, width: 5, height: 1, cellSize: 8, displayRange: [0, 1] }, 40, 8);
    expect(z[3]).toBeCloseTo(4 / Math.sqrt(3), 12);
    expect(z[4]).toBe(0);
  });

  it('standardises a large float32 map with the median and MAD of a copy and quickselect, exactly', () => {
    let seed = 11;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
    for (const length of [70_001, 70_002]) {
      // Many ties (rounded to tenths, as full-resolution maps have), negatives, NaN and infinities.
      const map = Float32Array.from({ length }, (_, i) => (i % 997 === 0 ? Number.NaN : i % 1009 === 0 ? -Infinity : Math.round((random() - 0.3) * 40) / 10));
      const v = finiteValues(map), median = medianInPlace(v);
      for (let i = 0; i < v.length; i++) v[i] = Math.abs(v[i]! - median);
      expect(robustCenterScale(map)).toEqual({ median, scale: 1.4826 * medianInPlace(v) });
    }
  });

  it('gives the exact MAD of a large map by its float32 histogram: deviations that round alike, half the map at the median, deviations beyond float32', () => {
    let seed = 5;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
    const reference = (map: Float32Array) => {
      const v = finiteValues(map), median = medianInPlace(v);
      for (let i = 0; i < v.length; i++) v[i] = Math.abs(v[i]! - median);
      return { median, scale: 1.4826 * medianInPlace(v) };
    };
    const maps = [
      // Values a float32 step apart around 1000 (their deviations from an even count's median are not float32) and ties.
      Float32Array.from({ length: 70_002 }, () => Math.fround(1000 + Math.floor(random() * 50) * 2 ** -13)),
      // More than half the cells equal (the MAD is 0), the rest spread.
      Float32Array.from({ length: 70_001 }, (_, i) => (i % 3 === 0 ? random() * 100 : 7)),
      // Deviations beyond the float32 range (they take the float64 selection).
      Float32Array.from({ length: 70_001 }, (_, i) => (i % 2 === 0 ? -3e38 : i % 5 === 0 ? 3e38 : random())),
      // Sub-normal values and zeros of both signs.
      Float32Array.from({ length: 70_002 }, (_, i) => (i % 4 === 0 ? -0 : i % 4 === 1 ? 1e-42 * i : random() * 1e-40)),
    ];
    for (const map of maps) expect(robustCenterScale(map)).toEqual(reference(map));
  });

  it('gives the exact median and MAD of large maps whose middle deviations are counted, gathered or found after the median', () => {
    let seed = 23;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
    const reference = (map: Float32Array) => {
      const v = finiteValues(map), median = medianInPlace(v);
      for (let i = 0; i < v.length; i++) v[i] = Math.abs(v[i]! - median);
      return { median, scale: 1.4826 * medianInPlace(v) };
    };
    const gaussian = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
    const maps = [
      // Whole error levels, as ELA's map (a few values, each counted from its bin's histogram).
      Float32Array.from({ length: 200_001 }, () => Math.floor(random() * random() * 40)),
      Float32Array.from({ length: 200_002 }, () => Math.floor(random() * 9) - 4),
      // Continuous: the deviations' bins are few (counted) or many (their values gathered).
      Float32Array.from({ length: 200_002 }, () => random()),
      Float32Array.from({ length: 200_001 }, () => gaussian() * 3 + 1),
      Float32Array.from({ length: 200_002 }, () => Math.exp(gaussian() * 2)),
      Float32Array.from({ length: 200_001 }, () => -Math.exp(gaussian() * 5)),
      // A large share of equal values, but less than half (the median first, then a third pass).
      Float32Array.from({ length: 200_001 }, (_, i) => (i % 5 < 2 ? 3 : i % 5 === 2 ? 3 + random() * 1e-3 : gaussian() * 1e3)),
      // Values a float32 step apart and NaN among them.
      Float32Array.from({ length: 200_002 }, (_, i) => (i % 101 === 0 ? Number.NaN : Math.fround(1 + Math.floor(random() * 3000) * 2 ** -23))),
    ];
    // float32CenterScale is what robustCenterScale takes from 2^21 values on; any length gives the same values.
    for (const map of maps) {
      const { n, median, mad } = float32CenterScale(map);
      expect({ median, scale: 1.4826 * mad }).toEqual(reference(map));
      expect(n).toBe(finiteValues(map).length);
    }
    const large = Float32Array.from({ length: (1 << 21) + 1 }, () => Math.floor(random() * random() * 40));
    expect(robustCenterScale(large)).toEqual(reference(large));
  }, 30_000);
});
