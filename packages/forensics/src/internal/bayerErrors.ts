import type { PixelBuffer } from '../types.js';
import { channelPlane } from './luma.js';

/** The four Bayer layouts: [x, y] of the red and of the blue sample in the 2x2 cell; green on the other diagonal. */
export const BAYER_PATTERNS = [
  { name: 'RGGB', red: [0, 0], blue: [1, 1], greenParity: 1 },
  { name: 'GRBG', red: [1, 0], blue: [0, 1], greenParity: 0 },
  { name: 'GBRG', red: [0, 1], blue: [1, 0], greenParity: 0 },
  { name: 'BGGR', red: [1, 1], blue: [0, 0], greenParity: 1 },
] as const;

export interface BayerBlockErrors {
  blocksWide: number;
  blocksHigh: number;
  /** errors[k][b * 3 + c]: mean squared bilinear re-interpolation error of channel c in block b under layout k. */
  errors: Float64Array[];
  /** Sample standard deviation of channel c in block b, at b * 3 + c. */
  stds: Float64Array;
  /** Layout with the lowest mean error over (block, channel) pairs whose std exceeds the smoothness threshold. */
  best: number;
}

/**
 * Re-samples the image with each Bayer layout and measures, per block and channel, the error of bilinear
 * re-interpolation (red/blue from 2 or 4 same-colour neighbours, green from its 4 neighbours; sampled positions have
 * no error). Done in one pass per channel: per pixel parity class the squared errors of the horizontal, vertical,
 * diagonal and cross estimates are summed, and each layout's error is a sum of those sums. Mirrored borders;
 * estimates are rounded to integers as an 8-bit demosaicer (and the toolbox's uint8 re-interpolation) stores them.
 */
export function bayerBlockErrors(image: PixelBuffer, block: number, smoothStd: number): BayerBlockErrors {
  const { width, height } = image;
  const bw = Math.ceil(width / block), bh = Math.ceil(height / block), nb = bw * bh;
  // Per block, channel and parity class (x&1 | (y&1)<<1): sums of squared errors of the 4 estimates.
  const sums = new Float64Array(nb * 3 * 4 * 4);
  const moments = new Float64Array(nb * 3 * 2);
  const count = new Float64Array(nb);
  for (let c = 0; c < 3; c++) {
    const p = channelPlane(image, c);
    for (let y = 0; y < height; y++) {
      const row = y * width;
      const up = (y > 0 ? y - 1 : 1) * width, down = (y < height - 1 ? y + 1 : height - 2) * width;
      const brow = Math.floor(y / block) * bw;
      const cls = (y & 1) << 1;
      for (let x = 0; x < width; x++) {
        const l = x > 0 ? x - 1 : 1, r = x < width - 1 ? x + 1 : width - 2;
        const v = p[row + x]!;
        const b = brow + Math.floor(x / block);
        const mi = (b * 3 + c) * 2;
        moments[mi]! += v; moments[mi + 1]! += v * v;
        if (c === 0) count[b]! += 1;
        const k = ((b * 3 + c) * 4 + (cls | (x & 1))) * 4;
        if (c === 1) {
          const e = v - Math.round(0.25 * (p[up + x]! + p[down + x]! + p[row + l]! + p[row + r]!));
          sums[k + 3]! += e * e;
        } else {
          const h = v - Math.round(0.5 * (p[row + l]! + p[row + r]!));
          const vv = v - Math.round(0.5 * (p[up + x]! + p[down + x]!));
          const d = v - Math.round(0.25 * (p[up + l]! + p[up + r]! + p[down + l]! + p[down + r]!));
          sums[k]! += h * h; sums[k + 1]! += vv * vv; sums[k + 2]! += d * d;
        }
      }
    }
  }
  const stds = new Float64Array(nb * 3);
  for (let b = 0; b < nb; b++) {
    const n = count[b]!;
    for (let c = 0; c < 3; c++) {
      const mi = (b * 3 + c) * 2;
      const mean = moments[mi]! / n;
      stds[b * 3 + c] = n > 1 ? Math.sqrt(Math.max(0, (moments[mi + 1]! - n * mean * mean) / (n - 1))) : 0;
    }
  }
  const errors = BAYER_PATTERNS.map((pattern) => {
    const e = new Float64Array(nb * 3);
    for (let b = 0; b < nb; b++) {
      for (let c = 0; c < 3; c++) {
        let s = 0;
        for (let cls = 0; cls < 4; cls++) {
          const ax = cls & 1, ay = cls >> 1;
          const k = ((b * 3 + c) * 4 + cls) * 4;
          if (c === 1) {
            if (((ax + ay) & 1) !== pattern.greenParity) s += sums[k + 3]!;
          } else {
            const [sx, sy] = c === 0 ? pattern.red : pattern.blue;
            if (ax !== sx && ay === sy) s += sums[k]!;
            else if (ax === sx && ay !== sy) s += sums[k + 1]!;
            else if (ax !== sx && ay !== sy) s += sums[k + 2]!;
          }
        }
        e[b * 3 + c] = s / count[b]!;
      }
    }
    return e;
  });
  let best = 0, bestMean = Infinity;
  errors.forEach((e, k) => {
    let s = 0, n = 0;
    for (let i = 0; i < e.length; i++) if (stds[i]! > smoothStd) { s += e[i]!; n++; }
    const mean = n ? s / n : Infinity;
    if (mean < bestMean) { bestMean = mean; best = k; }
  });
  return { blocksWide: bw, blocksHigh: bh, errors, stds, best };
}
