import { blockMean, blockMeansFromSums } from '../internal/blocks.js';
import { medianResidualSweep } from '../internal/medianResidualSweep.js';
import { studioLuma } from '../internal/luma.js';
import { SortedFloat32 } from '../internal/sortedFloat32.js';
import { medianResidualRows } from '../internal/median3x3.js';
import { clamp01, concatFloat32, float32Largest, float32LargestNonNegative, outlierFraction, quantile, selectKth } from '../internal/stats.js';
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
  return medianResidualFromLuma(image, options);
}

/** `medianResidualMap` on a precomputed `studioLuma(image, false)` (computed here when not given). */
export function medianResidualFromLuma(image: PixelBuffer, options: MedianResidualMapOptions = {}, luma?: Float32Array): KernelResult {
  const o = medianResidualOptions(image, options);
  const band = medianResidualBand(luma ?? image, image.width, image.height, o.blockSize, 0, Math.ceil(image.height / o.blockSize));
  return medianResidualFromBands(image, [band], o);
}

/** Options merged over the defaults and validated against the image (first step of `medianResidualMap`). */
export function medianResidualOptions(image: PixelBuffer, options: MedianResidualMapOptions = {}): Required<MedianResidualMapOptions> {
  const o = { ...medianResidualMapDefaults, ...options };
  expectPixelBuffer('image', image);
  expectIntegerInRange('blockSize', o.blockSize, 2, 1024);
  expectNumberInRange('outlierZ', o.outlierZ, 0, 1e6);
  expectMinimumSize('image', image, 3);
  return o;
}

/** The map's display range ends at this quantile of the residual. */
const DISPLAY_QUANTILE = 0.995;

/** How many of the largest residuals a band keeps so the display quantile of the whole map is among them. */
function displayTail(n: number): number {
  return n - Math.round(DISPLAY_QUANTILE * (n - 1));
}

/** One band of the median residual: its rows, block means and largest values (`float32Largest`; absent if not finite). */
export interface MedianResidualBand {
  residual: Float32Array;
  blocks: Float32Array;
  largest?: Float32Array;
}

/**
 * The residual and block means of the rows of blocks [blockRowStart, blockRowEnd): bands concatenate to the whole.
 * `source` is the luma plane (`studioLuma(image, false)`) or the image, whose luma is then computed row by row. With
 * `out` (the band's rows of the whole map, e.g. in shared memory) the residual is written there and returned as it.
 */
export function medianResidualBand(source: Float32Array | PixelBuffer, width: number, height: number, blockSize: number, blockRowStart: number, blockRowEnd: number, out?: Float32Array): MedianResidualBand {
  const y0 = blockRowStart * blockSize, y1 = Math.min(height, blockRowEnd * blockSize);
  const tail = displayTail(width * height);
  const sweep = source instanceof Float32Array || source.data instanceof Uint8Array ? medianResidualSweep(source, width, height, blockSize, y0, y1, out, tail) : undefined;
  if (sweep) {
    const largest = sweep.finite ? float32LargestNonNegative(sweep.candidates ?? sweep.residual, sweep.high, tail) : undefined;
    return { residual: sweep.residual, blocks: blockMeansFromSums(sweep.sums, width, y1 - y0, blockSize), ...(largest ? { largest } : {}) };
  }
  // Float pixels, or a luma plane with negative samples: the separate passes.
  const plane = source instanceof Float32Array ? source : studioLuma(source, false);
  let residual = medianResidualRows(plane, width, height, y0, y1);
  if (out) { out.set(residual); residual = out; }
  const largest = float32Largest(residual, tail);
  return { residual, blocks: blockMean(residual, width, y1 - y0, blockSize).data, ...(largest ? { largest } : {}) };
}

/**
 * The DISPLAY_QUANTILE quantile of the whole residual: from the bands' largest values when every band has them (all
 * finite: the count is then width * height, and the m-th largest of their union is the whole map's), else `quantile`.
 */
function displayQuantile(residual: Float32Array, bands: Array<{ largest?: Float32Array }>): number {
  if (!bands.every((b) => b.largest)) return quantile(residual, DISPLAY_QUANTILE);
  const m = displayTail(residual.length);
  const union = new Float64Array(bands.reduce((n, b) => n + b.largest!.length, 0));
  let offset = 0;
  for (const b of bands) { union.set(b.largest!, offset); offset += b.largest!.length; }
  return selectKth(union, union.length, union.length - m);
}

/**
 * Last step of `medianResidualMap`: maps, stats and score from the bands in order; `residual` is the whole map when
 * the bands wrote their rows into it (then their `residual` is not read), else the bands' residuals are joined.
 */
export function medianResidualFromBands(image: PixelBuffer, bands: Array<Omit<MedianResidualBand, 'residual'> & { residual?: Float32Array }>, o: Required<MedianResidualMapOptions>, whole?: Float32Array): KernelResult {
  const { width, height } = image;
  const residual = whole ?? (bands.length === 1 ? bands[0]!.residual! : concatFloat32(bands.map((b) => b.residual!)));
  const blocks = { data: bands.length === 1 ? bands[0]!.blocks : concatFloat32(bands.map((b) => b.blocks)), width: Math.ceil(width / o.blockSize), height: Math.ceil(height / o.blockSize) };
  // One sort of the block means for every order statistic (the same values as `outlierFraction` and `quantile`).
  const sorted = SortedFloat32.of(blocks.data);
  const inconsistent = sorted ? sorted.outlierFraction(o.outlierZ, true, 0.05) : outlierFraction(blocks.data, o.outlierZ, true, 0.05);
  const blockQuantile = (q: number): number => (sorted ? sorted.quantile(q) : quantile(blocks.data, q));
  return {
    maps: [
      { name: 'median-residual', data: residual, width, height, cellSize: 1, displayRange: [0, Math.max(1e-6, displayQuantile(residual, bands))] },
      { name: 'median-residual-block-mean', data: blocks.data, width: blocks.width, height: blocks.height, cellSize: o.blockSize, displayRange: [0, Math.max(1e-6, blockQuantile(0.99))] },
    ],
    stats: { meanResidual: blocks.data.reduce((s, v) => s + v, 0) / blocks.data.length, medianBlockResidual: blockQuantile(0.5), inconsistentBlockFraction: inconsistent },
    score: clamp01(inconsistent),
  };
}
