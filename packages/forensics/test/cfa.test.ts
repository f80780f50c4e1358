import { describe, expect, it } from 'vitest';
import { cfaReinterpolation, cfaVarianceMap, greenLatticeParity } from '../src/index.js';
import { bayerBlockErrors } from '../src/internal/bayerErrors.js';
import { cfaBlockFeatures } from '../src/internal/cfaBlockFeatures.js';
import { evenSubsample, finiteValues } from '../src/internal/stats.js';
import { fitZeroMeanMixture, logNormal } from '../src/internal/zeroMeanMixture.js';
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

/** The image repeated `n` x `n` times (even sides keep the Bayer lattice). */
function tile(image: { data: Uint8Array; width: number; height: number }, n: number) {
  const w = image.width * n, h = image.height * n;
  const data = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let c = 0; c < 3; c++) data[(y * w + x) * 3 + c] = image.data[((y % image.height) * image.width + (x % image.width)) * 3 + c]!;
  return { data, width: w, height: h, channels: 3 };
}

describe('cfaVarianceMap on large images (subsampled layout choice and mixture fit)', () => {
  it('chooses the same layout from every k-th row of blocks as from all of them', () => {
    for (const image of [demosaiced, spliced, noTrace]) {
      const full = bayerBlockErrors(image, 16, 5).best;
      for (const stride of [2, 3, 5]) expect(bayerBlockErrors(image, 16, 5, stride).best).toBe(full);
      expect(greenLatticeParity(image, 16, 5, (W * H) / 4)).toBe(greenLatticeParity(image));
    }
  });

  it('evenSubsample keeps every k-th value and nothing when under the cap', () => {
    const v = Float64Array.from({ length: 10 }, (_, i) => i);
    expect(evenSubsample(v, 10)).toBe(v);
    expect(Array.from(evenSubsample(v, 4))).toEqual([0, 3, 6, 9]);
    expect(Array.from(evenSubsample(v, 5))).toEqual([0, 2, 4, 6, 8]);
  });

  it('fits the mixture on a subsample above 32768 blocks and classifies every block like the full fit', () => {
    const big = tile(spliced as { data: Uint8Array; width: number; height: number }, 6); // 192 x 192 = 36864 blocks
    const result = cfaVarianceMap(big);
    const feature = cfaBlockFeatures(big, 8, 1, 1.5);
    expect(Array.from(result.maps[1]!.data)).toEqual(Array.from(feature));
    const all = finiteValues(feature);
    expect(evenSubsample(all, 32768).length).toBeLessThan(all.length);
    const full = fitZeroMeanMixture(all);
    expect(result.stats.mixtureMean).toBeCloseTo(full.mu1, 1);
    expect(Math.abs(result.stats.mixtureSigmaTrace! / full.sigma1 - 1)).toBeLessThan(0.02);
    expect(Math.abs(result.stats.mixtureSigmaNoTrace! / full.sigma0 - 1)).toBeLessThan(0.02);
    expect(Math.abs(result.stats.mixtureWeightTrace! - full.weight1)).toBeLessThan(0.01);
    // Block posteriors before pooling, from the full fit and from the kernel's fit: the same side of 0.5.
    let same = 0;
    for (const f of feature) {
      const x = Number.isFinite(f) ? f : -736.8;
      const a = logNormal(x, 0, full.sigma0) - logNormal(x, full.mu1, full.sigma1);
      const b = logNormal(x, 0, result.stats.mixtureSigmaNoTrace!) - logNormal(x, result.stats.mixtureMean!, result.stats.mixtureSigmaTrace!);
      if (a > 0 === b > 0) same++;
    }
    expect(same / feature.length).toBeGreaterThan(0.999);
    const probability = result.maps[0]!;
    expect(regionMean(probability, [96, 96, 192, 192], true)).toBeGreaterThan(0.8);
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
