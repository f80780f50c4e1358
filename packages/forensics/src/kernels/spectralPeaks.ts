import { accumulateMagnitude2d } from '../internal/fft2.js';
import { lumaBytes, studioLumaRow } from '../internal/luma.js';
import { clamp01, medianInPlace } from '../internal/stats.js';
import type { KernelResult, PixelBuffer } from '../types.js';
import { expectIntegerInRange, expectMinimumSize, expectNumberInRange, expectPixelBuffer } from '../validate.js';

export interface SpectralPeaksOptions {
  /**
   * Side of the square DFT tiles; a power of two. Smaller images use the largest power of two that fits.
   * @default 512
   */
  tileSize?: number;
  /**
   * Tiles averaged, taken nearest the image centre.
   * @default 4
   */
  maxTiles?: number;
  /**
   * Frequencies (cycles per pixel, Chebyshev norm) below this are ignored: image content lives there.
   * @default 0.08
   */
  minFrequency?: number;
  /**
   * Peak ratio at which the score reaches 1; the score is log(ratio / floor) / log(saturation / floor), floor 8.
   * @default 128
   */
  saturationRatio?: number;
}

export const spectralPeaksDefaults: Required<SpectralPeaksOptions> = { tileSize: 512, maxTiles: 4, minFrequency: 0.08, saturationRatio: 128 };

const PEAK_FLOOR = 8;

/**
 * Periodic resampling traces after Kirchner 2008, "Fast and reliable resampling detection by spectral analysis of
 * fixed linear predictor residue" (ACM MM&Sec): the residue e of the fixed predictor
 * [-1/4 1/2 -1/4; 1/2 0 1/2; -1/4 1/2 -1/4] on the luma, its p-map p = exp(-e^2) (lambda = sigma = 1, tau = 2), and
 * the magnitude of its 2-D DFT averaged over tiles (fft.js). Interpolation makes p periodic, which shows as isolated
 * peaks (2x upsampling: at 0.5 cycles/pixel); generator upsampling grids and the JPEG 8x8 grid (multiples of 1/8)
 * also do. The map is the centred log-magnitude spectrum.
 *
 * Score: log(peakRatio / 8) / log(saturationRatio / 8) clamped to [0, 1], where peakRatio is the strongest spectral
 * value above `minFrequency` over the median there.
 */
export function spectralPeaks(image: PixelBuffer, options: SpectralPeaksOptions = {}): KernelResult {
  return spectralPeaksFromLuma(image, options);
}

/** `spectralPeaks` on a precomputed `studioLuma(image, false)` (the tiles' luma is computed row by row when not given). */
export function spectralPeaksFromLuma(image: PixelBuffer, options: SpectralPeaksOptions = {}, lumaPlane?: Float32Array): KernelResult {
  const plan = planSpectralTiles(image, options);
  const spectrum = new Float64Array(plan.n * plan.n);
  for (const tile of plan.tiles) accumulateTileSpectrum(image, plan.n, tile, lumaPlane, spectrum);
  return spectralPeaksFromSpectrum(spectrum, plan);
}

/** The checked options, the tile side and the tiles (top-left corners, nearest the centre first) of `spectralPeaks`. */
export interface SpectralTilePlan {
  options: Required<SpectralPeaksOptions>;
  n: number;
  tiles: Array<[number, number]>;
}

/** Validates the options and picks the tiles of {@link spectralPeaksFromLuma}. */
export function planSpectralTiles(image: PixelBuffer, options: SpectralPeaksOptions = {}): SpectralTilePlan {
  const o = { ...spectralPeaksDefaults, ...options };
  expectPixelBuffer('image', image);
  expectIntegerInRange('tileSize', o.tileSize, 32, 4096);
  if ((o.tileSize & (o.tileSize - 1)) !== 0) throw new RangeError(`Expected power of two for tileSize but received ${o.tileSize} of type number`);
  expectIntegerInRange('maxTiles', o.maxTiles, 1, 64);
  expectNumberInRange('minFrequency', o.minFrequency, 0, 0.5);
  expectNumberInRange('saturationRatio', o.saturationRatio, PEAK_FLOOR + 1, 1e9);
  expectMinimumSize('image', image, 34);

  const { width, height } = image;
  let n = o.tileSize;
  while (n > Math.min(width, height) - 2) n >>= 1;
  const tiles: Array<[number, number]> = [];
  for (let ty = 0; ty + n <= height - 2; ty += n) for (let tx = 0; tx + n <= width - 2; tx += n) tiles.push([tx + 1, ty + 1]);
  const cx = width / 2, cy = height / 2;
  tiles.sort((a, b) => Math.hypot(a[0] + n / 2 - cx, a[1] + n / 2 - cy) - Math.hypot(b[0] + n / 2 - cx, b[1] + n / 2 - cy));
  return { options: o, n, tiles: tiles.slice(0, o.maxTiles) };
}

/** Work buffers of a tile's p-map and luma by tile side, kept per thread (fresh ones cost page faults every call). */
const tileWorks = new Map<number, { tile: Float64Array; luma: Float32Array }>();

/**
 * Adds the DFT magnitude of one tile's zero-mean p-map to `spectrum` (n*n, unshifted). The tiles of a plan added in
 * order into one zeroed spectrum give `spectralPeaksFromLuma`'s sums; so does each tile into its own zeroed array
 * (0 + m = m exactly), those arrays then added in plan order: how a pool splits the tiles between its threads.
 */
export function accumulateTileSpectrum(image: PixelBuffer, n: number, [tx, ty]: [number, number], lumaPlane: Float32Array | undefined, spectrum: Float64Array): void {
  let work = tileWorks.get(n);
  if (!work) {
    work = { tile: new Float64Array(n * n), luma: new Float32Array((n + 2) * (n + 2)) };
    tileWorks.set(n, work);
  }
  const { tile, luma } = work;
  const mean = tilePMap(image, tx, ty, n, luma, tile, lumaPlane) / (n * n);
  for (let i = 0; i < tile.length; i++) tile[i] = tile[i]! - mean;
  accumulateMagnitude2d(tile, n, spectrum);
}

/** Peak ratio, score and centred log-magnitude map of the summed tile spectra of `plan`. */
export function spectralPeaksFromSpectrum(spectrum: Float64Array, plan: SpectralTilePlan): KernelResult {
  const { options: o, n, tiles: used } = plan;
  const freq = (k: number): number => (k <= n / 2 ? k : k - n) / n;
  const eligible = new Float64Array(n * n);
  let m = 0, peak = 0, peakIndex = 0;
  for (let v = 0; v < n; v++) {
    for (let u = 0; u < n; u++) {
      if (Math.max(Math.abs(freq(u)), Math.abs(freq(v))) < o.minFrequency) continue;
      const s = spectrum[v * n + u]!;
      eligible[m++] = s;
      if (s > peak) { peak = s; peakIndex = v * n + u; }
    }
  }
  const median = medianInPlace(eligible, m);
  const ratio = median > 0 ? peak / median : 0;
  const fx = freq(peakIndex % n), fy = freq(Math.floor(peakIndex / n));
  const onGrid = (f: number): boolean => Math.abs(f * 8 - Math.round(f * 8)) < 1.5 * 8 / n;
  const map = new Float32Array(n * n);
  for (let v = 0; v < n; v++) {
    for (let u = 0; u < n; u++) map[((v + n / 2) % n) * n + ((u + n / 2) % n)] = Math.log1p(spectrum[v * n + u]! / used.length);
  }
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < map.length; i++) { if (map[i]! < lo) lo = map[i]!; if (map[i]! > hi) hi = map[i]!; }
  return {
    maps: [{ name: 'pmap-spectrum', data: map, width: n, height: n, cellSize: 0, displayRange: [lo, hi] }],
    stats: {
      peakRatio: ratio, peakFrequencyX: Math.abs(fx), peakFrequencyY: Math.abs(fy), peakOnJpegGrid: onGrid(fx) && onGrid(fy) ? 1 : 0,
      tileSize: n, tiles: used.length,
    },
    score: clamp01(Math.log(Math.max(ratio, 1e-9) / PEAK_FLOOR) / Math.log(o.saturationRatio / PEAK_FLOOR)),
  };
}

/**
 * Kirchner's p-map of the fixed linear predictor residue over the n x n tile at (tx, ty) (at least one pixel inside
 * the image), written to `tile` as float32 values; returns their sum (in row order). Only the tile and the one-pixel
 * ring the predictor reads get a luma (row by row, as `studioLuma` computes it), not the whole image.
 */
function tilePMap(image: PixelBuffer, tx: number, ty: number, n: number, luma: Float32Array, tile: Float64Array, lumaPlane: Float32Array | undefined): number {
  const { width } = image;
  const m = n + 2;
  const bytes = image.data instanceof Uint8Array ? image.data : undefined;
  const row = new Float32Array(lumaPlane || bytes ? 0 : width);
  for (let r = 0; r < m; r++) {
    const start = (ty - 1 + r) * width + tx - 1;
    if (lumaPlane) {
      luma.set(lumaPlane.subarray(start, start + m), r * m);
      continue;
    }
    // 8-bit pixels: the luma of the tile's span of the row only (the same values as the whole row's).
    if (bytes) {
      lumaBytes(bytes, image.channels, luma, start, r * m, m);
      continue;
    }
    studioLumaRow(image, ty - 1 + r, false, row);
    luma.set(row.subarray(tx - 1, tx - 1 + m), r * m);
  }
  let sum = 0;
  for (let v = 0; v < n; v++) {
    const up = v * m + 1, mid = up + m, down = mid + m;
    for (let u = 0; u < n; u++) {
      const predicted = 0.5 * (luma[up + u]! + luma[down + u]! + luma[mid + u - 1]! + luma[mid + u + 1]!)
        - 0.25 * (luma[up + u - 1]! + luma[up + u + 1]! + luma[down + u - 1]! + luma[down + u + 1]!);
      const e = luma[mid + u]! - predicted;
      sum += tile[v * n + u] = Math.fround(Math.exp(-e * e));
    }
  }
  return sum;
}
