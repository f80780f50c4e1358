import { describe, expect, it } from 'vitest';
import { medianResidualMap, waveletNoiseMap } from '../src/index.js';
import { addNoise, regionMean, smoothField, toUint8 } from './synthetic.js';

const W = 256, H = 256;
const rect: [number, number, number, number] = [64, 64, 160, 160];

describe('waveletNoiseMap', () => {
  it('estimates the sigma of white Gaussian noise on a grey image (luma scale 219/255)', () => {
    const grey = addNoise(new Float32Array(W * H).fill(120), W, 1, 8, 3);
    const result = waveletNoiseMap({ data: grey, width: W, height: H, channels: 1 }, { roundLuma: false });
    expect(result.stats.medianSigma).toBeGreaterThan(8 * (219 / 255) * 0.9);
    expect(result.stats.medianSigma).toBeLessThan(8 * (219 / 255) * 1.1);
    expect(result.maps[0]!.width).toBe(Math.floor(Math.floor((W + 15) / 2) / 8));
  });

  it('lights up a region with added noise', () => {
    const field = addNoise(addNoise(smoothField(W, H, 3, 4), W, 3, 1, 5), W, 3, 8, 6, rect);
    const result = waveletNoiseMap(toUint8(field, W, H, 3));
    const map = result.maps[0]!;
    expect(regionMean(map, rect, true)).toBeGreaterThan(4 * regionMean(map, rect, false));
    expect(result.score).toBeGreaterThan(0);
  });

  it('rejects images smaller than four blocks', () => {
    expect(() => waveletNoiseMap({ data: new Uint8Array(16 * 16), width: 16, height: 16, channels: 1 })).toThrow(/at least 32x32/);
  });
});

describe('medianResidualMap', () => {
  it('lights up a region with added noise', () => {
    const field = addNoise(addNoise(smoothField(W, H, 3, 7), W, 3, 1, 8), W, 3, 8, 9, rect);
    const result = medianResidualMap(toUint8(field, W, H, 3));
    const block = result.maps[1]!;
    expect(regionMean(block, rect, true)).toBeGreaterThan(3 * regionMean(block, rect, false));
  });

  it('is zero on a constant image and keeps an isolated spike', () => {
    const data = new Uint8Array(9 * 9).fill(50);
    data[4 * 9 + 4] = 150;
    const residual = medianResidualMap({ data, width: 9, height: 9, channels: 1 }, { blockSize: 3 }).maps[0]!;
    expect(residual.data[4 * 9 + 4]).toBeCloseTo((100 * 219) / 255, 3);
    expect(residual.data[0]).toBe(0);
  });
});
