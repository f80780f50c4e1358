import { describe, expect, it } from 'vitest';
import { errorLevelAnalysis, recompressJpeg } from '../src/index.js';
import { addNoise, regionMean, smoothField, toUint8 } from './synthetic.js';

const W = 256, H = 256;
const rect: [number, number, number, number] = [96, 96, 192, 192];

/** A photo-like image saved at quality 90 whose square `rect` was last saved at quality 60, and the q90 original. */
async function splicedImage() {
  const base = toUint8(addNoise(smoothField(W, H, 3, 1), W, 3, 6, 2), W, H, 3);
  const atQ90 = await recompressJpeg(base, { quality: 90 });
  const atQ60 = await recompressJpeg(base, { quality: 60 });
  const spliced = Uint8Array.from(atQ90.data);
  for (let y = rect[1]; y < rect[3]; y++) for (let x = rect[0]; x < rect[2]; x++) for (let c = 0; c < 3; c++) spliced[(y * W + x) * 3 + c] = atQ60.data[(y * W + x) * 3 + c]!;
  return { atQ90, image: { data: spliced, width: W, height: H, channels: 3 } };
}

describe('errorLevelAnalysis', () => {
  it('lights up a region last saved at another JPEG quality', async () => {
    const { image } = await splicedImage();
    const result = errorLevelAnalysis(image, await recompressJpeg(image, { quality: 90 }));
    const map = result.maps[0]!;
    const inside = regionMean(map, rect, true), outside = regionMean(map, rect, false);
    expect(inside).toBeGreaterThan(2 * outside);
    expect(result.stats.mean).toBeGreaterThan(0);
  });

  it('scores the area of the largest region of high block error levels (the re-saved square)', async () => {
    const { atQ90, image } = await splicedImage();
    const result = errorLevelAnalysis(image, await recompressJpeg(image, { quality: 90 }));
    // The 96x96 square is 36 of the 256 16x16 blocks; the region may miss a few of its blocks but no more.
    expect(result.score).toBe(result.stats.largestOutlierRegionFraction);
    expect(result.score).toBeGreaterThan(24 / 256);
    expect(result.score).toBeLessThanOrEqual(40 / 256);
    const clean = errorLevelAnalysis(atQ90, await recompressJpeg(atQ90, { quality: 90 }));
    expect(clean.score).toBeLessThan(result.score / 3);
  });

  it('is the scaled mean absolute difference over channels', () => {
    const a = { data: Uint8Array.from([10, 20, 30, 0, 0, 0]), width: 2, height: 1, channels: 3 };
    const b = { data: Uint8Array.from([13, 20, 27, 0, 0, 3]), width: 2, height: 1, channels: 3 };
    const map = errorLevelAnalysis(a, b, { scale: 15, blockSize: 1 }).maps[0]!;
    expect(Array.from(map.data)).toEqual([30, 15]);
  });

  it('rejects buffers of different shapes and leaves the input untouched', () => {
    const a = { data: new Uint8Array(12), width: 2, height: 2, channels: 3 };
    const b = { data: new Uint8Array(6), width: 2, height: 1, channels: 3 };
    expect(() => errorLevelAnalysis(a, b)).toThrow(/Expected recompressed to match original \(2x2x3\) but received 2x1x3/);
    expect(() => errorLevelAnalysis(a, a, { blockSize: 0 })).toThrow(RangeError);
  });
});
