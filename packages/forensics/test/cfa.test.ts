import { describe, expect, it } from 'vitest';
import { cfaReinterpolation, cfaVarianceMap } from '../src/index.js';
import { addNoise, mosaicDemosaic, regionMean, smoothField, toUint8 } from './synthetic.js';

const W = 256, H = 256;
const rect: [number, number, number, number] = [96, 96, 192, 192];
// A camera-like image: scene with fine texture, RGGB mosaic, bilinear demosaic.
const scene = addNoise(smoothField(W, H, 3, 11), W, 3, 6, 12);
const demosaiced = toUint8(mosaicDemosaic(scene, W, H), W, H, 3);
// The same scene with no mosaic (every sample measured): no CFA trace.
const noTrace = toUint8(scene, W, H, 3);
const composite = Uint8Array.from(demosaiced.data);
for (let y = rect[1]; y < rect[3]; y++) for (let x = rect[0]; x < rect[2]; x++) for (let c = 0; c < 3; c++) composite[(y * W + x) * 3 + c] = noTrace.data[(y * W + x) * 3 + c]!;
const spliced = { data: composite, width: W, height: H, channels: 3 };

describe('cfaVarianceMap', () => {
  it('finds a strong positive feature in a demosaiced image and none without a mosaic', () => {
    const withTrace = cfaVarianceMap(demosaiced);
    const without = cfaVarianceMap(noTrace, { lattice: 1 });
    expect(withTrace.stats.lattice).toBe(1);
    expect(withTrace.stats.medianFeature).toBeGreaterThan(20);
    expect(Math.abs(without.stats.medianFeature!)).toBeLessThan(5);
  });

  it('marks a pasted region without CFA trace', () => {
    const map = cfaVarianceMap(spliced).maps[0]!;
    expect(regionMean(map, rect, true)).toBeGreaterThan(0.8);
    expect(regionMean(map, rect, false)).toBeLessThan(0.2);
  });
});

describe('cfaReinterpolation', () => {
  it('recovers the RGGB layout and a strong layout preference for a demosaiced image', () => {
    const withTrace = cfaReinterpolation(demosaiced);
    const without = cfaReinterpolation(noTrace);
    expect(withTrace.stats.pattern).toBe(0);
    expect(withTrace.stats.medianPreference).toBeLessThan(0.05);
    expect(without.stats.medianPreference).toBeGreaterThan(0.15);
    expect(without.score).toBeGreaterThan(withTrace.score);
  });

  it('marks a pasted region without CFA trace', () => {
    const map = cfaReinterpolation(spliced).maps[0]!;
    expect(regionMean(map, rect, true)).toBeGreaterThan(3 * regionMean(map, rect, false));
  });

  it('rejects an odd block size', () => {
    expect(() => cfaReinterpolation(demosaiced, { blockSize: 15 })).toThrow(/Expected even integer for blockSize but received 15/);
  });
});
