import { blockDct, blocksToCells, jpegLuma, standardLumaTable } from '../jpeg/blockDct.js';
import type { DctPlane } from '../jpeg/blockDct.js';
import { boxMean } from '../jpeg/boxMean.js';
import { estimateJpegGrid } from '../jpeg/jpegGrid.js';
import { largestOutlierRegion } from '../internal/outlierRegion.js';
import { medianFloat64InPlace } from '../internal/stats.js';
import type { KernelResult, PixelBuffer } from '../types.js';
import { expectIntegerInRange, expectMinimumSize, expectPixelBuffer } from '../validate.js';

export interface JpegGhostOptions {
  /**
   * Lowest JPEG quality tried.
   * @default 50
   */
  minQuality?: number;
  /**
   * Highest JPEG quality tried.
   * @default 95
   */
  maxQuality?: number;
  /**
   * Step between qualities.
   * @default 5
   */
  qualityStep?: number;
  /**
   * Half-width in blocks of the window the squared differences are averaged over (Farid's b = 16 pixels is about 1;
   * chosen on the copy-move half of the CASIA samples, see the README).
   * @default 2
   */
  radius?: number;
}

export const jpegGhostDefaults: Readonly<Required<JpegGhostOptions>> = Object.freeze({ minQuality: 50, maxQuality: 95, qualityStep: 5, radius: 2 });

/**
 * JPEG ghosts after Farid 2009 ("Exposing digital forgeries from JPEG ghosts", IEEE TIFS 4(1) 154-160): the image is
 * requantised at a range of qualities and the difference to it measured per region; a region once saved at quality
 * q1 shows a dip (a ghost) at q1 that the rest does not. Here the requantisation is done on the luma's 8x8 DCT on
 * the image's JPEG grid with the IJG tables (by Parseval, the coefficient error is the pixel error before rounding),
 * differences are averaged over (2 radius + 1)^2 blocks and normalised per block across qualities to [0, 1] as in the
 * paper. Map `ghost-dip`: per block the largest drop below the image's median normalised curve at any quality.
 */
export function jpegGhostMap(image: PixelBuffer, options: JpegGhostOptions = {}, dct?: DctPlane): KernelResult {
  expectPixelBuffer('image', image);
  expectMinimumSize('image', image, 16);
  const o = { ...jpegGhostDefaults, ...options };
  expectIntegerInRange('minQuality', o.minQuality, 1, 100);
  expectIntegerInRange('maxQuality', o.maxQuality, o.minQuality, 100);
  expectIntegerInRange('qualityStep', o.qualityStep, 1, 100);
  expectIntegerInRange('radius', o.radius, 0, 64);
  const { width, height } = image;
  let plane = dct;
  if (!plane) {
    const luma = jpegLuma(image);
    const grid = estimateJpegGrid(luma, width, height);
    plane = blockDct(luma, width, height, grid.offsetX, grid.offsetY);
  }
  const { blocksX: w, blocksY: h, coefficients } = plane;
  const n = w * h;
  const qualities: number[] = [];
  for (let q = o.minQuality; q <= o.maxQuality; q += o.qualityStep) qualities.push(q);
  const m = qualities.length;
  const tables = new Float64Array(m * 64), inverses = new Float64Array(m * 64);
  qualities.forEach((q, j) => {
    const table = standardLumaTable(q);
    for (let k = 0; k < 64; k++) { tables[j * 64 + k] = table[k]!; inverses[j * 64 + k] = 1 / table[k]!; }
  });
  const errors = qualities.map(() => new Float64Array(n));
  requantisationErrors(coefficients, n, tables, inverses, errors);
  const curves = errors.map((err) => boxMean(err, w, h, o.radius));
  // Normalise per block across qualities (Farid's eq. 4, with the minimum subtracted as well).
  for (let b = 0; b < n; b++) {
    let lo = Infinity, hi = -Infinity;
    for (let j = 0; j < m; j++) { const v = curves[j]![b]!; lo = Math.min(lo, v); hi = Math.max(hi, v); }
    const span = hi - lo;
    for (let j = 0; j < m; j++) { const c = curves[j]!; c[b] = span > 1e-9 ? (c[b]! - lo) / span : 0; }
  }
  const dip = new Float32Array(n).fill(-Infinity);
  const scratch = new Float64Array(n);
  let ghostQuality = 0, deepest = -Infinity;
  for (let j = 0; j < m; j++) {
    const c = curves[j]!;
    scratch.set(c);
    const median = medianFloat64InPlace(scratch, n);
    let sum = 0;
    for (let b = 0; b < n; b++) {
      const d = median - c[b]!;
      sum += d > 0 ? d : 0;
      if (d > dip[b]!) dip[b] = d;
    }
    if (sum > deepest) { deepest = sum; ghostQuality = qualities[j]!; }
  }
  const cells = blocksToCells(dip, plane, width, height);
  const score = largestOutlierRegion(cells.data, cells.width, cells.height, 2, false, 0.05);
  return {
    maps: [{ name: 'ghost-dip', data: cells.data, width: cells.width, height: cells.height, cellSize: 8, displayRange: [0, 1] }],
    stats: { offsetX: plane.offsetX, offsetY: plane.offsetY, strongestGhostQuality: ghostQuality },
    score,
  };
}

/**
 * Per block and quality j, the mean squared requantisation error of its 64 coefficients with table j
 * (`tables[64 j + k]`, `inverses` its reciprocals) into `errors[j]`. Each block's nonzero coefficients are gathered
 * once and requantised at every quality (a zero coefficient's error is exactly 0, and a file's coefficients are mostly
 * zero); the sum runs over k in the same order as over all 64, so the result is the same to the bit.
 */
function requantisationErrors(coefficients: Float32Array, n: number, tables: Float64Array, inverses: Float64Array, errors: Float64Array[]): void {
  const m = errors.length;
  const index = new Int32Array(64), value = new Float64Array(64);
  for (let b = 0, o = 0; b < n; b++, o += 64) {
    let nz = 0;
    for (let k = 0; k < 64; k++) {
      const c = coefficients[o + k]!;
      if (c !== 0) { index[nz] = k; value[nz++] = c; }
    }
    for (let j = 0, t0 = 0; j < m; j++, t0 += 64) {
      let s = 0;
      for (let i = 0; i < nz; i++) {
        // floor(x + 0.5) is Math.round (ties up) and cheaper in V8; c * (1 / t) may differ from c / t in the last
        // bit, which moves a rounding only for coefficients within 1e-16 of a bin edge.
        const c = value[i]!, k = t0 + index[i]!, t = tables[k]!;
        const d = c - t * Math.floor(c * inverses[k]! + 0.5);
        s += d * d;
      }
      errors[j]![b] = s / 64;
    }
  }
}
