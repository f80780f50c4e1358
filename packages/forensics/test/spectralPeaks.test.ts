import { describe, expect, it } from 'vitest';
import { spectralPeaks } from '../src/index.js';
import { gaussian, rng } from './synthetic.js';

function noise(width: number, height: number, seed: number): Float32Array {
  const n = gaussian(rng(seed));
  return Float32Array.from({ length: width * height }, () => 128 + 30 * n());
}

/** Bilinear 2x upsampling (the sample grid of the source falls on every other pixel). */
function upsample2x(src: Float32Array, w: number, h: number): Float32Array {
  const out = new Float32Array(4 * w * h);
  for (let y = 0; y < 2 * h; y++) {
    for (let x = 0; x < 2 * w; x++) {
      const x0 = Math.min(w - 1, x >> 1), y0 = Math.min(h - 1, y >> 1);
      const x1 = Math.min(w - 1, x0 + (x & 1)), y1 = Math.min(h - 1, y0 + (y & 1));
      out[y * 2 * w + x] = 0.25 * (src[y0 * w + x0]! + src[y0 * w + x1]! + src[y1 * w + x0]! + src[y1 * w + x1]!);
    }
  }
  return out;
}

describe('spectralPeaks', () => {
  it('shows the 0.5 cycles/pixel peak of 2x upsampling', () => {
    const up = upsample2x(noise(160, 160, 21), 160, 160);
    const result = spectralPeaks({ data: up, width: 320, height: 320, channels: 1 }, { tileSize: 256 });
    expect(Math.max(result.stats.peakFrequencyX!, result.stats.peakFrequencyY!)).toBeCloseTo(0.5, 2);
    expect(result.stats.peakRatio).toBeGreaterThan(20);
    expect(result.score).toBeGreaterThan(0.3);
  });

  it('finds no peak in white noise', () => {
    const result = spectralPeaks({ data: noise(320, 320, 22), width: 320, height: 320, channels: 1 }, { tileSize: 256 });
    expect(result.stats.peakRatio).toBeLessThan(8);
    expect(result.score).toBe(0);
  });

  it('rejects a tile size that is not a power of two', () => {
    expect(() => spectralPeaks({ data: noise(64, 64, 1), width: 64, height: 64, channels: 1 }, { tileSize: 100 })).toThrow(/power of two/);
  });
});
