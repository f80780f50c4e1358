import { accumulateMagnitude2d } from '../internal/fft2.js';
import { studioLuma } from '../internal/luma.js';
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
  const y = studioLuma(image, false);
  const p = predictorPMap(y, width, height);
  const tiles: Array<[number, number]> = [];
  for (let ty = 0; ty + n <= height - 2; ty += n) for (let tx = 0; tx + n <= width - 2; tx += n) tiles.push([tx + 1, ty + 1]);
  const cx = width / 2, cy = height / 2;
  tiles.sort((a, b) => Math.hypot(a[0] + n / 2 - cx, a[1] + n / 2 - cy) - Math.hypot(b[0] + n / 2 - cx, b[1] + n / 2 - cy));
  const used = tiles.slice(0, o.maxTiles);
  const spectrum = new Float64Array(n * n);
  const tile = new Float64Array(n * n);
  for (const [tx, ty] of used) {
    let mean = 0;
    for (let v = 0; v < n; v++) for (let u = 0; u < n; u++) mean += tile[v * n + u] = p[(ty + v) * width + tx + u]!;
    mean /= n * n;
    for (let i = 0; i < tile.length; i++) tile[i] = tile[i]! - mean;
    accumulateMagnitude2d(tile, n, spectrum);
  }
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

/** Kirchner's p-map of the fixed linear predictor residue (borders left at 0; tiles start inside). */
function predictorPMap(y: Float32Array, width: number, height: number): Float32Array {
  const p = new Float32Array(width * height);
  for (let r = 1; r < height - 1; r++) {
    const up = (r - 1) * width, row = r * width, down = (r + 1) * width;
    for (let x = 1; x < width - 1; x++) {
      const predicted = 0.5 * (y[up + x]! + y[down + x]! + y[row + x - 1]! + y[row + x + 1]!)
        - 0.25 * (y[up + x - 1]! + y[up + x + 1]! + y[down + x - 1]! + y[down + x + 1]!);
      const e = y[row + x]! - predicted;
      p[row + x] = Math.exp(-e * e);
    }
  }
  return p;
}
