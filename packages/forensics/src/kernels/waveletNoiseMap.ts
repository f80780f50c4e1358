import { DB8_DECOMPOSITION_HIGH } from '../internal/db8.js';
import { analyseColumns16, analyseLumaRows, rowsReadByColumns } from '../internal/dwt.js';
import type { LumaPlanes } from '../internal/luma.js';
import { clamp01, concatFloat32, medianInPlace, outlierFraction, quantile } from '../internal/stats.js';
import type { KernelResult, PixelBuffer } from '../types.js';
import { expectIntegerInRange, expectMinimumSize, expectNumberInRange, expectPixelBuffer } from '../validate.js';

export interface WaveletNoiseMapOptions {
  /**
   * Side, in wavelet coefficients, of the blocks the noise is estimated on (each covers 2*blockSize pixels).
   * @default 8
   */
  blockSize?: number;
  /**
   * Round the luma to integers first, as MATLAB's uint8 `rgb2ycbcr` output is.
   * @default true
   */
  roundLuma?: boolean;
  /**
   * Robust |z| above which a block's noise level counts as inconsistent in the score.
   * @default 3.5
   */
  outlierZ?: number;
}

export const waveletNoiseMapDefaults: Required<WaveletNoiseMapOptions> = { blockSize: 8, roundLuma: true, outlierZ: 3.5 };

/**
 * Local noise level from the diagonal detail subband (Mahdian and Saic 2009, "Using noise inconsistencies for blind
 * image forensics", Image and Vision Computing 27(10)): one level of a db8 wavelet analysis of the luma, HH1 cropped
 * to a multiple of `blockSize`, and per block the robust estimator sigma = median(|HH1|) / 0.6745 (Donoho 1995).
 * Splices from a source with another noise level stand out.
 *
 * Score: fraction of blocks whose sigma is a robust outlier either way (|z| > `outlierZ`).
 */
export function waveletNoiseMap(image: PixelBuffer, options: WaveletNoiseMapOptions = {}): KernelResult {
  return waveletNoiseFromLuma(image, options);
}

/** `waveletNoiseMap` on precomputed luma planes (`studioLumaPlanes`; the luma is computed row by row when not given). */
export function waveletNoiseFromLuma(image: PixelBuffer, options: WaveletNoiseMapOptions = {}, luma?: LumaPlanes): KernelResult {
  const o = waveletNoiseOptions(image, options);
  return waveletNoiseFromBands(image, [waveletNoiseBand(image, o, luma, 0, waveletBlocks(image, o.blockSize)[1])], o);
}

/** Options merged over the defaults and validated against the image (first step of `waveletNoiseMap`). */
export function waveletNoiseOptions(image: PixelBuffer, options: WaveletNoiseMapOptions = {}): Required<WaveletNoiseMapOptions> {
  const o = { ...waveletNoiseMapDefaults, ...options };
  expectPixelBuffer('image', image);
  expectIntegerInRange('blockSize', o.blockSize, 2, 256);
  expectNumberInRange('outlierZ', o.outlierZ, 0, 1e6);
  expectMinimumSize('image', image, 4 * o.blockSize);
  return o;
}

/** Blocks across and down: HH1 has floor((n + L - 1) / 2) coefficients per side, cropped to whole blocks. */
export function waveletBlocks(image: PixelBuffer, blockSize: number): [number, number] {
  const L = DB8_DECOMPOSITION_HIGH.length;
  return [Math.floor(Math.floor((image.width + L - 1) / 2) / blockSize), Math.floor(Math.floor((image.height + L - 1) / 2) / blockSize)];
}

/**
 * Noise sigma of the blocks in the rows of blocks [blockRowStart, blockRowEnd): the row pass over only the image rows
 * their HH1 coefficients read, then the column pass and the block medians. Bands concatenate to the whole map.
 */
export function waveletNoiseBand(image: PixelBuffer, o: Required<WaveletNoiseMapOptions>, luma: LumaPlanes | undefined, blockRowStart: number, blockRowEnd: number): Float32Array {
  const [bw] = waveletBlocks(image, o.blockSize);
  const keepW = bw * o.blockSize;
  const o0 = blockRowStart * o.blockSize, o1 = blockRowEnd * o.blockSize;
  const [first, last] = rowsReadByColumns(o0, o1, image.height, DB8_DECOMPOSITION_HIGH.length);
  const plane = luma ? (o.roundLuma ? luma.rounded : luma.luma) : undefined;
  const rows = analyseLumaRows(image, o.roundLuma, DB8_DECOMPOSITION_HIGH, keepW, plane, first, last + 1);
  const hh = analyseColumns16(rows, keepW, image.height, DB8_DECOMPOSITION_HIGH, 0, o0, o1, first);
  const map = new Float32Array(bw * (blockRowEnd - blockRowStart));
  const scratch = new Float64Array(o.blockSize * o.blockSize);
  for (let by = 0; by < blockRowEnd - blockRowStart; by++) {
    for (let bx = 0; bx < bw; bx++) {
      let n = 0;
      for (let v = 0; v < o.blockSize; v++) {
        const row = (by * o.blockSize + v) * keepW + bx * o.blockSize;
        for (let u = 0; u < o.blockSize; u++) scratch[n++] = Math.abs(hh[row + u]!);
      }
      map[by * bw + bx] = medianInPlace(scratch, n) / 0.6745;
    }
  }
  return map;
}

/** Last step of `waveletNoiseMap`: map, stats and score from the bands in order. */
export function waveletNoiseFromBands(image: PixelBuffer, bands: Float32Array[], o: Required<WaveletNoiseMapOptions>): KernelResult {
  const [bw, bh] = waveletBlocks(image, o.blockSize);
  const map = bands.length === 1 ? bands[0]! : concatFloat32(bands);
  const inconsistent = outlierFraction(map, o.outlierZ, true, 0.05);
  return {
    maps: [{ name: 'noise-sigma', data: map, width: bw, height: bh, cellSize: 2 * o.blockSize, displayRange: [0, Math.max(1e-6, quantile(map, 0.99))] }],
    stats: { medianSigma: quantile(map, 0.5), p99Sigma: quantile(map, 0.99), maxSigma: quantile(map, 1), inconsistentBlockFraction: inconsistent },
    score: clamp01(inconsistent),
  };
}
