import { blockMean } from '../internal/blocks.js';
import { clamp01, meanStd, outlierFraction, quantile } from '../internal/stats.js';
import type { KernelResult, PixelBuffer } from '../types.js';
import { expectNumberInRange, expectPixelBuffer, expectPositiveInteger, expectSameShape } from '../validate.js';

export interface ErrorLevelAnalysisOptions {
  /**
   * Multiplier of the mean absolute difference (the toolbox's ELA uses 15 on a JPEG quality-90 resave).
   * @default 15
   */
  scale?: number;
  /**
   * Side in pixels of the blocks the statistics and score are computed over.
   * @default 16
   */
  blockSize?: number;
  /**
   * Robust z-score above which a block's mean error level counts as an outlier in the score.
   * @default 3.5
   */
  outlierZ?: number;
}

export const errorLevelAnalysisDefaults: Required<ErrorLevelAnalysisOptions> = { scale: 15, blockSize: 16, outlierZ: 3.5 };

/**
 * Error level analysis (Krawetz 2007, "A Picture's Worth"): the per-pixel mean over channels of
 * |original - recompressed| times `scale`, where `recompressed` is the original re-encoded as JPEG at a known quality
 * and decoded (see `recompressJpeg`). Regions whose compression history differs from the rest show a different error
 * level. The map is not clipped; the toolbox's uint8 map is `min(255, round(map))`.
 *
 * Score: fraction of blocks whose mean error level is a high outlier (robust z > `outlierZ`).
 */
export function errorLevelAnalysis(original: PixelBuffer, recompressed: PixelBuffer, options: ErrorLevelAnalysisOptions = {}): KernelResult {
  const o = { ...errorLevelAnalysisDefaults, ...options };
  expectPixelBuffer('original', original);
  expectPixelBuffer('recompressed', recompressed);
  expectSameShape(original, recompressed, 'original', 'recompressed');
  expectNumberInRange('scale', o.scale, 0, 1e6);
  expectPositiveInteger('blockSize', o.blockSize);
  expectNumberInRange('outlierZ', o.outlierZ, 0, 1e6);

  const { width, height, channels } = original;
  const a = original.data;
  const b = recompressed.data;
  const map = new Float32Array(width * height);
  const k = o.scale / channels;
  for (let i = 0, p = 0; i < map.length; i++) {
    let s = 0;
    for (let c = 0; c < channels; c++, p++) s += Math.abs(a[p]! - b[p]!);
    map[i] = s * k;
  }
  const blocks = blockMean(map, width, height, o.blockSize);
  const { mean, std } = meanStd(map);
  const outliers = outlierFraction(blocks.data, o.outlierZ, false, 0.5);
  return {
    maps: [
      { name: 'ela', data: map, width, height, cellSize: 1, displayRange: [0, Math.max(1, quantile(map, 0.999))] },
      { name: 'ela-block-mean', data: blocks.data, width: blocks.width, height: blocks.height, cellSize: o.blockSize, displayRange: [0, Math.max(1, quantile(blocks.data, 0.999))] },
    ],
    stats: { mean, std, p99: quantile(map, 0.99), max: quantile(map, 1), outlierBlockFraction: outliers },
    score: clamp01(outliers),
  };
}
