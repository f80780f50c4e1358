import { blockMean } from '../internal/blocks.js';
import { largestOutlierRegion } from '../internal/outlierRegion.js';
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
  /**
   * Robust z-score above which a block belongs to an anomalous region in the score (largest connected region).
   * @default 2
   */
  regionZ?: number;
}

export const errorLevelAnalysisDefaults: Required<ErrorLevelAnalysisOptions> = { scale: 15, blockSize: 16, outlierZ: 3.5, regionZ: 2 };

/**
 * Error level analysis (Krawetz 2007, "A Picture's Worth"): the per-pixel mean over channels of
 * |original - recompressed| times `scale`, where `recompressed` is the original re-encoded as JPEG at a known quality
 * and decoded (see `recompressJpeg`). Regions whose compression history differs from the rest show a different error
 * level. The map is not clipped; the toolbox's uint8 map is `min(255, round(map))`.
 *
 * Score: area of the largest 4-connected region of blocks whose mean error level has robust z > `regionZ`, as a
 * fraction of all blocks (a region re-saved differently stands out as one patch; isolated outliers count little).
 * The fraction of blocks with robust z > `outlierZ` (the score of version 1) is the stat `outlierBlockFraction`.
 */
export function errorLevelAnalysis(original: PixelBuffer, recompressed: PixelBuffer, options: ErrorLevelAnalysisOptions = {}): KernelResult {
  const o = { ...errorLevelAnalysisDefaults, ...options };
  expectPixelBuffer('original', original);
  expectPixelBuffer('recompressed', recompressed);
  expectSameShape(original, recompressed, 'original', 'recompressed');
  expectNumberInRange('scale', o.scale, 0, 1e6);
  expectPositiveInteger('blockSize', o.blockSize);
  expectNumberInRange('outlierZ', o.outlierZ, 0, 1e6);
  expectNumberInRange('regionZ', o.regionZ, 0, 1e6);

  const { width, height, channels } = original;
  const fast = original.data instanceof Uint8Array && recompressed.data instanceof Uint8Array
    ? uint8ErrorLevels(original.data, recompressed.data, width, height, channels, o.scale / channels, o.blockSize)
    : undefined;
  const { map, blocks, mean, std, p999, p99, max } = fast ?? genericErrorLevels(original.data, recompressed.data, width, height, channels, o.scale / channels, o.blockSize);
  const outliers = outlierFraction(blocks.data, o.outlierZ, false, 0.5);
  const region = largestOutlierRegion(blocks.data, blocks.width, blocks.height, o.regionZ, false, 0.5);
  return {
    maps: [
      { name: 'ela', data: map, width, height, cellSize: 1, displayRange: [0, Math.max(1, p999)] },
      { name: 'ela-block-mean', data: blocks.data, width: blocks.width, height: blocks.height, cellSize: o.blockSize, displayRange: [0, Math.max(1, quantile(blocks.data, 0.999))] },
    ],
    stats: { mean, std, p99, max, outlierBlockFraction: outliers, largestOutlierRegionFraction: region },
    score: clamp01(region),
  };
}

interface ErrorLevels {
  map: Float32Array;
  blocks: { data: Float32Array; width: number; height: number };
  mean: number;
  std: number;
  p999: number;
  p99: number;
  max: number;
}

function genericErrorLevels(a: Uint8Array | Float32Array, b: Uint8Array | Float32Array, width: number, height: number, channels: number, k: number, block: number): ErrorLevels {
  const map = new Float32Array(width * height);
  for (let i = 0, p = 0; i < map.length; i++) {
    let s = 0;
    for (let c = 0; c < channels; c++, p++) s += Math.abs(a[p]! - b[p]!);
    map[i] = s * k;
  }
  const { mean, std } = meanStd(map);
  return { map, blocks: blockMean(map, width, height, block), mean, std, p999: quantile(map, 0.999), p99: quantile(map, 0.99), max: quantile(map, 1) };
}

/**
 * 8-bit inputs in one pass: the channel sum s of |a - b| is an integer 0..255*channels, so the map is a table
 * lookup, the quantiles come from a histogram of s, and block sums are integer sums of s times k. Used when every
 * s*k is a float32 with at most 8 fractional bits and the image's total stays below 2^53 at that resolution: then the
 * pixel-order float64 sums of the generic path are exact too, and both paths give the same maps, quantiles and mean
 * (the std may differ in the last bits, the sum of squares being exact here and rounded there).
 */
function uint8ErrorLevels(a: Uint8Array, b: Uint8Array, width: number, height: number, channels: number, k: number, block: number): ErrorLevels | undefined {
  const n = width * height;
  const top = 255 * channels;
  const lut = new Float32Array(top + 1);
  for (let s = 0; s <= top; s++) {
    lut[s] = s * k;
    if (lut[s] !== s * k || !Number.isInteger(s * k * 256)) return undefined;
  }
  if (top * k * n * 256 >= 2 ** 53) return undefined;
  const map = new Float32Array(n);
  // Four interleaved histograms (by pixel index mod 4) so runs of equal s do not serialise on one counter.
  const hist = new Uint32Array(4 << 10);
  const bw = Math.ceil(width / block), bh = Math.ceil(height / block);
  const sums = new Float64Array(bw * bh);
  for (let y = 0; y < height; y++) {
    const brow = Math.floor(y / block) * bw;
    let i = y * width, p = i * channels;
    for (let bx = 0, x0 = 0; x0 < width; bx++, x0 += block) {
      const end = y * width + Math.min(width, x0 + block);
      let acc = 0;
      if (channels === 3) {
        for (; i < end; i++, p += 3) {
          const d0 = a[p]! - b[p]!, d1 = a[p + 1]! - b[p + 1]!, d2 = a[p + 2]! - b[p + 2]!;
          const s = (d0 < 0 ? -d0 : d0) + (d1 < 0 ? -d1 : d1) + (d2 < 0 ? -d2 : d2);
          map[i] = lut[s]!;
          hist[((i & 3) << 10) | s]!++;
          acc += s;
        }
      } else {
        for (; i < end; i++) {
          let s = 0;
          for (let c = 0; c < channels; c++, p++) { const d = a[p]! - b[p]!; s += d < 0 ? -d : d; }
          map[i] = lut[s]!;
          hist[((i & 3) << 10) | s]!++;
          acc += s;
        }
      }
      sums[brow + bx]! += acc;
    }
  }
  const count = new Float64Array(top + 1);
  let total = 0, squares = 0;
  for (let s = 0; s <= top; s++) {
    const c = hist[s]! + hist[1024 + s]! + hist[2048 + s]! + hist[3072 + s]!;
    count[s] = c;
    total += c * s;
    squares += c * lut[s]! * lut[s]!;
  }
  const mean = (total * k) / n;
  const rank = (q: number): number => {
    let r = Math.min(n - 1, Math.max(0, Math.round(q * (n - 1))));
    let s = 0;
    while (r >= count[s]!) r -= count[s++]!;
    return lut[s]!;
  };
  const data = new Float32Array(bw * bh);
  for (let by = 0; by < bh; by++) {
    const rows = Math.min(block, height - by * block);
    for (let bx = 0; bx < bw; bx++) data[by * bw + bx] = (sums[by * bw + bx]! * k) / (rows * Math.min(block, width - bx * block));
  }
  return {
    map, blocks: { data, width: bw, height: bh }, mean, std: Math.sqrt(Math.max(0, squares / n - mean * mean)),
    p999: rank(0.999), p99: rank(0.99), max: rank(1),
  };
}
