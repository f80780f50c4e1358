import { describe, expect, it } from 'vitest';
import { edgeAnomalyMap } from '../src/index.js';
import { regionMean, rng } from './synthetic.js';

const W = 256, H = 256;
const rect: [number, number, number, number] = [96, 96, 176, 176];

/** Random sharp-edged rectangles; inside `rect` the image is box-blurred (a softened paste). */
function scene(): Float32Array {
  const random = rng(31);
  const img = new Float32Array(W * H).fill(100);
  for (let k = 0; k < 400; k++) {
    const x0 = Math.floor(random() * W), y0 = Math.floor(random() * H), v = 30 + random() * 190;
    const w = 6 + Math.floor(random() * 20), h = 6 + Math.floor(random() * 20);
    for (let y = y0; y < Math.min(H, y0 + h); y++) for (let x = x0; x < Math.min(W, x0 + w); x++) img[y * W + x] = v;
  }
  const out = Float32Array.from(img);
  for (let y = rect[1]; y < rect[3]; y++) {
    for (let x = rect[0]; x < rect[2]; x++) {
      let s = 0;
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) s += img[(y + dy) * W + x + dx]!;
      out[y * W + x] = s / 25;
    }
  }
  return out;
}

describe('edgeAnomalyMap', () => {
  it('lights up a region whose edges are softer than the rest', () => {
    const result = edgeAnomalyMap({ data: scene(), width: W, height: H, channels: 1 });
    const sharp = result.maps.find((m) => m.name === 'sharpness-inconsistency')!;
    expect(regionMean(sharp, rect, true)).toBeGreaterThan(1.3 * regionMean(sharp, rect, false));
    expect(result.score).toBeGreaterThan(0);
  });

  it('reports no anomaly on a constant image', () => {
    const result = edgeAnomalyMap({ data: new Uint8Array(64 * 64).fill(7), width: 64, height: 64, channels: 1 });
    expect(result.score).toBe(0);
    expect(result.stats.medianEdgeStrength).toBe(0);
  });
});
