import { blockMean } from '../internal/blocks.js';
import { studioLuma } from '../internal/luma.js';
import { median3x3 } from '../internal/median3x3.js';
import { clamp01, outlierFraction, quantile } from '../internal/stats.js';
import type { KernelResult, PixelBuffer } from '../types.js';
import { expectIntegerInRange, expectMinimumSize, expectNumberInRange, expectPixelBuffer } from '../validate.js';

export interface MedianResidualMapOptions {
  /**
   * Side in pixels of the blocks the residual is averaged over for the block map and the score.
   * @default 16
   */
  blockSize?: number;
  /**
   * Robust |z| above which a block's mean residual counts as inconsistent in the score.
   * @default 3.5
   */
  outlierZ?: number;
}

export const medianResidualMapDefaults: Required<MedianResidualMapOptions> = { blockSize: 16, outlierZ: 3.5 };

/**
 * Median-filter noise residual (the "noise analysis" of Wagner, 29a.ch photo forensics, 2015; toolbox NOI4): the
 * absolute difference between the luma and its 3x3 median, which removes edges and keeps fine-grained noise. A pasted
 * region with another noise level shows as a brighter or darker patch.
 *
 * Score: fraction of blocks whose mean residual is a robust outlier either way (|z| > `outlierZ`).
 */
export function medianResidualMap(image: PixelBuffer, options: MedianResidualMapOptions = {}): KernelResult {
  const o = { ...medianResidualMapDefaults, ...options };
  expectPixelBuffer('image', image);
  expectIntegerInRange('blockSize', o.blockSize, 2, 1024);
  expectNumberInRange('outlierZ', o.outlierZ, 0, 1e6);
  expectMinimumSize('image', image, 3);

  const { width, height } = image;
  const y = studioLuma(image, false);
  const med = median3x3(y, width, height);
  const residual = new Float32Array(width * height);
  for (let i = 0; i < residual.length; i++) residual[i] = Math.abs(y[i]! - med[i]!);
  const blocks = blockMean(residual, width, height, o.blockSize);
  const inconsistent = outlierFraction(blocks.data, o.outlierZ, true, 0.05);
  return {
    maps: [
      { name: 'median-residual', data: residual, width, height, cellSize: 1, displayRange: [0, Math.max(1e-6, quantile(residual, 0.995))] },
      { name: 'median-residual-block-mean', data: blocks.data, width: blocks.width, height: blocks.height, cellSize: o.blockSize, displayRange: [0, Math.max(1e-6, quantile(blocks.data, 0.99))] },
    ],
    stats: { meanResidual: blocks.data.reduce((s, v) => s + v, 0) / blocks.data.length, medianBlockResidual: quantile(blocks.data, 0.5), inconsistentBlockFraction: inconsistent },
    score: clamp01(inconsistent),
  };
}
