import { DB8_DECOMPOSITION_HIGH } from '../internal/db8.js';
import { analyseColumns16, analyseLumaRows } from '../internal/dwt.js';
import { clamp01, medianInPlace, outlierFraction, quantile } from '../internal/stats.js';
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
  const o = { ...waveletNoiseMapDefaults, ...options };
  expectPixelBuffer('image', image);
  expectIntegerInRange('blockSize', o.blockSize, 2, 256);
  expectNumberInRange('outlierZ', o.outlierZ, 0, 1e6);
  expectMinimumSize('image', image, 4 * o.blockSize);

  const { width, height } = image;
  const L = DB8_DECOMPOSITION_HIGH.length;
  const bw = Math.floor(Math.floor((width + L - 1) / 2) / o.blockSize);
  const bh = Math.floor(Math.floor((height + L - 1) / 2) / o.blockSize);
  const keepW = bw * o.blockSize;
  const keepH = bh * o.blockSize;
  const rows = analyseLumaRows(image, o.roundLuma, DB8_DECOMPOSITION_HIGH, keepW);
  const hh = analyseColumns16(rows, keepW, height, DB8_DECOMPOSITION_HIGH, keepH);

  const map = new Float32Array(bw * bh);
  const scratch = new Float64Array(o.blockSize * o.blockSize);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      let n = 0;
      for (let v = 0; v < o.blockSize; v++) {
        const row = (by * o.blockSize + v) * keepW + bx * o.blockSize;
        for (let u = 0; u < o.blockSize; u++) scratch[n++] = Math.abs(hh[row + u]!);
      }
      map[by * bw + bx] = medianInPlace(scratch, n) / 0.6745;
    }
  }
  const inconsistent = outlierFraction(map, o.outlierZ, true, 0.05);
  return {
    maps: [{ name: 'noise-sigma', data: map, width: bw, height: bh, cellSize: 2 * o.blockSize, displayRange: [0, Math.max(1e-6, quantile(map, 0.99))] }],
    stats: { medianSigma: quantile(map, 0.5), p99Sigma: quantile(map, 0.99), maxSigma: quantile(map, 1), inconsistentBlockFraction: inconsistent },
    score: clamp01(inconsistent),
  };
}
