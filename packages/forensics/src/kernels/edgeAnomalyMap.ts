import { hypot } from '../internal/hypot.js';
import { studioLuma } from '../internal/luma.js';
import { clamp01, concatFloat32, medianInPlace, quantile, robustCenterScale } from '../internal/stats.js';
import type { KernelResult, PixelBuffer } from '../types.js';
import { expectIntegerInRange, expectMinimumSize, expectNumberInRange, expectPixelBuffer } from '../validate.js';

export interface EdgeAnomalyMapOptions {
  /**
   * Side in pixels of the analysis blocks (a multiple of 8 keeps JPEG grid boundaries at fixed places in each block).
   * @default 16
   */
  blockSize?: number;
  /**
   * Blocks whose luma range is below this have no edge worth measuring; their sharpness is undefined.
   * @default 24
   */
  minContrast?: number;
  /**
   * Radius in blocks of the neighbourhood a block is compared with.
   * @default 2
   */
  neighbourhood?: number;
  /**
   * Robust z above which a block counts as anomalous in the score.
   * @default 3.5
   */
  outlierZ?: number;
}

export const edgeAnomalyMapDefaults: Required<EdgeAnomalyMapOptions> = { blockSize: 16, minContrast: 24, neighbourhood: 2, outlierZ: 3.5 };

/**
 * Edge anomaly heat map. Per block: edge strength (mean Sobel magnitude); edge sharpness, the steepest Sobel response
 * over 4x the block's luma range (1 for an ideal step, lower for blurred edges: pasted objects are often softened or
 * over-sharpened, Hsu and Chang 2010 use such edge profile inconsistency); and JPEG blocking, the mean absolute step
 * across the 8x8 grid over the mean step inside it (Fan and de Queiroz 2003, blocking artefact measure). Each of the
 * two is compared with the median of its neighbourhood and scaled by the image's robust spread of that difference;
 * the anomaly map is the larger of the two |z|.
 *
 * Score: fraction of blocks whose anomaly exceeds `outlierZ`.
 */
export function edgeAnomalyMap(image: PixelBuffer, options: EdgeAnomalyMapOptions = {}): KernelResult {
  return edgeAnomalyFromLuma(image, options);
}

/** `edgeAnomalyMap` on a precomputed `studioLuma(image, false)` (computed here when not given). */
export function edgeAnomalyFromLuma(image: PixelBuffer, options: EdgeAnomalyMapOptions = {}, luma?: Float32Array): KernelResult {
  const o = edgeAnomalyOptions(image, options);
  const y = luma ?? studioLuma(image, false);
  return edgeAnomalyFromBands(image, [edgeBlockFeatures(y, image.width, image.height, o, 0, Math.floor(image.height / o.blockSize))], o);
}

/** Options merged over the defaults and validated against the image (first step of `edgeAnomalyMap`). */
export function edgeAnomalyOptions(image: PixelBuffer, options: EdgeAnomalyMapOptions = {}): Required<EdgeAnomalyMapOptions> {
  const o = { ...edgeAnomalyMapDefaults, ...options };
  expectPixelBuffer('image', image);
  expectIntegerInRange('blockSize', o.blockSize, 8, 1024);
  expectNumberInRange('minContrast', o.minContrast, 0, 255);
  expectIntegerInRange('neighbourhood', o.neighbourhood, 1, 64);
  expectNumberInRange('outlierZ', o.outlierZ, 0, 1e6);
  expectMinimumSize('image', image, 2 * o.blockSize);
  return o;
}

/** Per-block edge features of one band. */
export interface EdgeBlockFeatures {
  strength: Float32Array;
  sharpness: Float32Array;
  blocking: Float32Array;
}

/**
 * Edge strength, sharpness and blocking of the blocks in the rows of blocks [blockRowStart, blockRowEnd), from the
 * luma of the whole image (a block reads the pixel rows next to it): bands concatenate to the whole image's features.
 */
export function edgeBlockFeatures(y: Float32Array, width: number, height: number, o: Required<EdgeAnomalyMapOptions>, blockRowStart: number, blockRowEnd: number): EdgeBlockFeatures {
  const B = o.blockSize;
  const bw = Math.floor(width / B), nb = bw * (blockRowEnd - blockRowStart);
  const strength = new Float32Array(nb), sharpness = new Float32Array(nb), blocking = new Float32Array(nb);
  for (let by = blockRowStart; by < blockRowEnd; by++) {
    for (let bx = 0; bx < bw; bx++) {
      let sum = 0, maxMag = 0, lo = Infinity, hi = -Infinity;
      let across = 0, nAcross = 0, inside = 0, nInside = 0;
      // Blocks clear of the image border (all but the outer ring) need no clamping and no first-row/column tests.
      const interior = bx > 0 && by > 0 && (bx + 1) * B < width && (by + 1) * B < height;
      for (let v = 0; v < B; v++) {
        const yy = by * B + v;
        const up = Math.max(0, yy - 1) * width, row = yy * width, down = Math.min(height - 1, yy + 1) * width;
        const rowAcross = yy % 8 === 0;
        if (interior) {
          for (let xx = bx * B, end = xx + B; xx < end; xx++) {
            const l = xx - 1, r = xx + 1;
            const gx = y[up + r]! + 2 * y[row + r]! + y[down + r]! - y[up + l]! - 2 * y[row + l]! - y[down + l]!;
            const gy = y[down + l]! + 2 * y[down + xx]! + y[down + r]! - y[up + l]! - 2 * y[up + xx]! - y[up + r]!;
            const mag = hypot(gx, gy);
            sum += mag;
            if (mag > maxMag) maxMag = mag;
            const val = y[row + xx]!;
            if (val < lo) lo = val;
            if (val > hi) hi = val;
            const dx = Math.abs(val - y[row + l]!);
            if ((xx & 7) === 0) { across += dx; nAcross++; } else { inside += dx; nInside++; }
            const dy = Math.abs(val - y[up + xx]!);
            if (rowAcross) { across += dy; nAcross++; } else { inside += dy; nInside++; }
          }
          continue;
        }
        for (let u = 0; u < B; u++) {
          const xx = bx * B + u;
          const l = Math.max(0, xx - 1), r = Math.min(width - 1, xx + 1);
          const gx = y[up + r]! + 2 * y[row + r]! + y[down + r]! - y[up + l]! - 2 * y[row + l]! - y[down + l]!;
          const gy = y[down + l]! + 2 * y[down + xx]! + y[down + r]! - y[up + l]! - 2 * y[up + xx]! - y[up + r]!;
          const mag = hypot(gx, gy);
          sum += mag;
          if (mag > maxMag) maxMag = mag;
          const val = y[row + xx]!;
          if (val < lo) lo = val;
          if (val > hi) hi = val;
          if (xx > 0) {
            const d = Math.abs(val - y[row + xx - 1]!);
            if (xx % 8 === 0) { across += d; nAcross++; } else { inside += d; nInside++; }
          }
          if (yy > 0) {
            const d = Math.abs(val - y[up + xx]!);
            if (yy % 8 === 0) { across += d; nAcross++; } else { inside += d; nInside++; }
          }
        }
      }
      const b = (by - blockRowStart) * bw + bx;
      strength[b] = sum / (B * B);
      sharpness[b] = hi - lo >= o.minContrast ? maxMag / (4 * (hi - lo)) : Number.NaN;
      const meanInside = nInside ? inside / nInside : 0;
      blocking[b] = meanInside > 0.25 && nAcross ? across / nAcross / meanInside : Number.NaN;
    }
  }
  return { strength, sharpness, blocking };
}

/** Last step of `edgeAnomalyMap`: local deviations, maps, stats and score from the bands' features in order. */
export function edgeAnomalyFromBands(image: PixelBuffer, bands: EdgeBlockFeatures[], o: Required<EdgeAnomalyMapOptions>): KernelResult {
  const B = o.blockSize;
  const bw = Math.floor(image.width / B), bh = Math.floor(image.height / B), nb = bw * bh;
  const join = (key: keyof EdgeBlockFeatures): Float32Array => (bands.length === 1 ? bands[0]![key] : concatFloat32(bands.map((b) => b[key])));
  const strength = join('strength'), sharpness = join('sharpness'), blocking = join('blocking');
  const sharpZ = localDeviation(sharpness, bw, bh, o.neighbourhood);
  const blockZ = localDeviation(blocking, bw, bh, o.neighbourhood);
  const anomaly = new Float32Array(nb);
  let flagged = 0;
  for (let i = 0; i < nb; i++) {
    const a = Math.max(Number.isFinite(sharpZ[i]!) ? sharpZ[i]! : 0, Number.isFinite(blockZ[i]!) ? blockZ[i]! : 0);
    anomaly[i] = a;
    if (a > o.outlierZ) flagged++;
  }
  const fraction = nb ? flagged / nb : 0;
  return {
    maps: [
      { name: 'edge-anomaly', data: anomaly, width: bw, height: bh, cellSize: B, displayRange: [0, Math.max(o.outlierZ * 2, quantile(anomaly, 0.99))] },
      { name: 'edge-strength', data: strength, width: bw, height: bh, cellSize: B, displayRange: [0, Math.max(1, quantile(strength, 0.99))] },
      { name: 'sharpness-inconsistency', data: sharpZ, width: bw, height: bh, cellSize: B, displayRange: [0, o.outlierZ * 2] },
      { name: 'blocking-inconsistency', data: blockZ, width: bw, height: bh, cellSize: B, displayRange: [0, o.outlierZ * 2] },
    ],
    stats: {
      medianEdgeStrength: quantile(strength, 0.5), medianSharpness: quantile(sharpness, 0.5), medianBlocking: quantile(blocking, 0.5),
      anomalousBlockFraction: fraction,
    },
    score: clamp01(fraction),
  };
}

/** |value - median of its (2r+1)^2 neighbourhood| over the image's robust spread of that difference; NaN stays NaN. */
function localDeviation(values: Float32Array, bw: number, bh: number, r: number): Float32Array {
  const diff = new Float32Array(values.length);
  const scratch = new Float64Array((2 * r + 1) ** 2);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      const v = values[by * bw + bx]!;
      if (!Number.isFinite(v)) { diff[by * bw + bx] = Number.NaN; continue; }
      let n = 0;
      for (let dy = -r; dy <= r; dy++) {
        const yy = by + dy;
        if (yy < 0 || yy >= bh) continue;
        for (let dx = -r; dx <= r; dx++) {
          const xx = bx + dx;
          if (xx < 0 || xx >= bw || (dx === 0 && dy === 0)) continue;
          const w = values[yy * bw + xx]!;
          if (Number.isFinite(w)) scratch[n++] = w;
        }
      }
      diff[by * bw + bx] = n >= 3 ? v - medianInPlace(scratch, n) : Number.NaN;
    }
  }
  const { scale } = robustCenterScale(diff);
  const s = Math.max(scale, 1e-6);
  for (let i = 0; i < diff.length; i++) diff[i] = Math.abs(diff[i]!) / s;
  return diff;
}
