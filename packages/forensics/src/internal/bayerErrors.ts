import type { PixelBuffer } from '../types.js';
import { MirroredLines } from './mirroredLines.js';

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
 * no error). Done in one pass over the image: per pixel parity class the squared errors of the horizontal, vertical,
 * diagonal and cross estimates are summed, and each layout's error is a sum of those sums. Mirrored borders;
 * estimates are rounded to integers as an 8-bit demosaicer (and the toolbox's uint8 re-interpolation) stores them
 * (floor(q + 0.5) from 0.5 up, where it equals Math.round and is much faster in V8).
 *
 * With `blockRowStride` k > 1 only every k-th row of blocks is measured (the others get count 0, std 0 and NaN
 * errors, so they never count as textured): a deterministic subsample for callers that only need `best`.
 */
export function bayerBlockErrors(image: PixelBuffer, block: number, smoothStd: number, blockRowStride = 1): BayerBlockErrors {
  return bayerErrorsFromSums(image.width, image.height, block, smoothStd, bayerBlockSums(image, block, 0, Math.ceil(image.height / block), blockRowStride));
}

/** Per-block sums `bayerBlockErrors` is made of, for a band of block rows (bands concatenate to the whole image). */
export interface BayerBlockSums {
  /** Per block, channel and parity class (x&1 | (y&1)<<1): sums of squared errors of the 4 estimates. */
  sums: Float64Array;
  /** Per block and channel: sum and sum of squares of the samples. */
  moments: Float64Array;
  /** Pixels per block. */
  count: Float64Array;
}

/**
 * The one pass of `bayerBlockErrors` over the rows of blocks [blockRowStart, blockRowEnd) (every
 * `blockRowStride`-th of them). Neighbour rows outside the band are read from the image, so a band's sums equal
 * those rows of the whole image's sums.
 */
export function bayerBlockSums(image: PixelBuffer, block: number, blockRowStart: number, blockRowEnd: number, blockRowStride = 1): BayerBlockSums {
  const { width, height } = image;
  const bw = Math.ceil(width / block), nb = bw * (blockRowEnd - blockRowStart);
  const sums = new Float64Array(nb * 3 * 4 * 4);
  const moments = new Float64Array(nb * 3 * 2);
  const count = new Float64Array(nb);
  const lines = new MirroredLines(image);
  for (let y = blockRowStart * block, yEnd = Math.min(height, blockRowEnd * block); y < yEnd; y++) {
    if (blockRowStride > 1 && Math.floor(y / block) % blockRowStride !== 0) {
      y = (Math.floor(y / block) + 1) * block - 1;
      continue;
    }
    const up = y > 0 ? y - 1 : 1, down = y < height - 1 ? y + 1 : height - 2;
    const by = Math.floor(y / block) - blockRowStart;
    const cls = (y & 1) << 1;
    for (let c = 0; c < 3; c++) {
      const U = lines.row(c, up), R = lines.row(c, y), D = lines.row(c, down);
      // Each block's accumulators are loaded, extended over the block's span of this row and stored, so every
      // sum receives its terms in pixel order (the same floating-point result as a pixel-at-a-time loop).
      for (let bx = 0, x0 = 0; x0 < width; bx++, x0 += block) {
        const b = by * bw + bx, x1 = Math.min(width, x0 + block);
        const mi = (b * 3 + c) * 2;
        let m1 = moments[mi]!, m2 = moments[mi + 1]!;
        // x0 is even (block is even), so x runs even, odd, even, ...: k0 is the even class, k1 the odd one.
        const k0 = ((b * 3 + c) * 4 + cls) * 4, k1 = k0 + 4;
        if (c === 1) {
          let g0 = sums[k0 + 3]!, g1 = sums[k1 + 3]!;
          for (let x = x0; x < x1; x++) {
            const v = R[x + 1]!;
            m1 += v; m2 += v * v;
            const q = 0.25 * (U[x + 1]! + D[x + 1]! + R[x]! + R[x + 2]!);
            const e = v - (q >= 0.5 ? Math.floor(q + 0.5) : Math.round(q));
            if (x & 1) g1 += e * e; else g0 += e * e;
          }
          sums[k0 + 3] = g0; sums[k1 + 3] = g1;
        } else {
          let h0 = sums[k0]!, v0 = sums[k0 + 1]!, d0 = sums[k0 + 2]!, h1 = sums[k1]!, v1 = sums[k1 + 1]!, d1 = sums[k1 + 2]!;
          for (let x = x0; x < x1; x++) {
            const v = R[x + 1]!;
            m1 += v; m2 += v * v;
            const qh = 0.5 * (R[x]! + R[x + 2]!), qv = 0.5 * (U[x + 1]! + D[x + 1]!), qd = 0.25 * (U[x]! + U[x + 2]! + D[x]! + D[x + 2]!);
            const h = v - (qh >= 0.5 ? Math.floor(qh + 0.5) : Math.round(qh));
            const vv = v - (qv >= 0.5 ? Math.floor(qv + 0.5) : Math.round(qv));
            const d = v - (qd >= 0.5 ? Math.floor(qd + 0.5) : Math.round(qd));
            if (x & 1) { h1 += h * h; v1 += vv * vv; d1 += d * d; } else { h0 += h * h; v0 += vv * vv; d0 += d * d; }
          }
          sums[k0] = h0; sums[k0 + 1] = v0; sums[k0 + 2] = d0; sums[k1] = h1; sums[k1 + 1] = v1; sums[k1 + 2] = d1;
        }
        moments[mi] = m1; moments[mi + 1] = m2;
        if (c === 0) count[b]! += x1 - x0;
      }
    }
  }
  return { sums, moments, count };
}

/** Errors, standard deviations and the best layout from the sums of every row of blocks of a width x height image. */
export function bayerErrorsFromSums(width: number, height: number, block: number, smoothStd: number, { sums, moments, count }: BayerBlockSums): BayerBlockErrors {
  const bw = Math.ceil(width / block), bh = Math.ceil(height / block), nb = bw * bh;
  if (count.length !== nb) throw new RangeError(`Expected ${nb} blocks for sums but received ${count.length} of type number`);
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
