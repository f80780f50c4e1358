import { BAYER_PATTERNS, bayerBandErrors, bayerBlockErrors, withBestLayout } from '../internal/bayerErrors.js';
import type { BayerBandErrors, BayerBlockErrors } from '../internal/bayerErrors.js';
import { clamp01, concatFloat64, medianInPlace, quantile } from '../internal/stats.js';
import type { KernelResult, PixelBuffer } from '../types.js';
import { expectIntegerInRange, expectMinimumSize, expectNumberInRange, expectPixelBuffer } from '../validate.js';

export interface CfaReinterpolationOptions {
  /**
   * Side in pixels of the blocks the re-interpolation error is measured on (must be even).
   * @default 16
   */
  blockSize?: number;
  /**
   * A (block, channel) whose standard deviation is at or below this is smooth: left out of the layout choice and,
   * when every channel of a block is, out of the score.
   * @default 5
   */
  smoothStd?: number;
  /**
   * Layout-preference value above which a textured block counts as lacking the demosaicing trace in the score
   * (0 = the camera layout re-interpolates perfectly, 0.25 = no layout fits better than another).
   * @default 0.15
   */
  absentThreshold?: number;
}

export const cfaReinterpolationDefaults: Required<CfaReinterpolationOptions> = { blockSize: 16, smoothStd: 5, absentThreshold: 0.15 };

/**
 * Demosaicing re-interpolation test after Dirik and Memon 2009, "Image tamper detection based on demosaicing
 * artifacts" (ICIP 2009): the image is re-sampled with each of the four Bayer layouts and re-interpolated
 * bilinearly; the layout with the lowest mean error over textured blocks is taken as the camera's. Per block the map
 * `cfa-layout-preference` is the green error under that layout over the sum of the green errors under all four
 * (Dirik and Memon's comparison of layouts): near 0 where the trace is intact, near 0.25 where no layout fits better.
 * `cfa-green-error-share` is the image-forensics toolbox's CFA2 map, the green share eG / (eR + eG + eB) of the error
 * under the chosen layout (kept for comparability; golden test). NaN for blocks with no error (flat, saturated).
 *
 * Score: fraction of textured blocks whose layout preference exceeds `absentThreshold`.
 */
export function cfaReinterpolation(image: PixelBuffer, options: CfaReinterpolationOptions = {}): KernelResult {
  const o = cfaReinterpolationOptions(image, options);
  return cfaReinterpolationFromErrors(bayerBlockErrors(image, o.blockSize, o.smoothStd), o);
}

/** Options merged over the defaults and validated against the image (first step of `cfaReinterpolation`). */
export function cfaReinterpolationOptions(image: PixelBuffer, options: CfaReinterpolationOptions = {}): Required<CfaReinterpolationOptions> {
  const o = { ...cfaReinterpolationDefaults, ...options };
  expectPixelBuffer('image', image);
  expectIntegerInRange('blockSize', o.blockSize, 2, 1024);
  if (o.blockSize % 2 !== 0) throw new RangeError(`Expected even integer for blockSize but received ${o.blockSize} of type number`);
  expectNumberInRange('smoothStd', o.smoothStd, 0, 1e6);
  expectNumberInRange('absentThreshold', o.absentThreshold, 0, 1);
  expectMinimumSize('image', image, 2 * o.blockSize);
  return o;
}

/** Last step of `cfaReinterpolation`: maps, stats and score from the per-block re-interpolation errors. */
export function cfaReinterpolationFromErrors({ blocksWide, blocksHigh, errors, stds, best }: BayerBlockErrors, o: Required<CfaReinterpolationOptions>): KernelResult {
  const e = errors[best]!;
  const nb = blocksWide * blocksHigh;
  const map = new Float32Array(nb);
  const preference = new Float32Array(nb);
  let textured = 0, absent = 0;
  for (let b = 0; b < nb; b++) {
    const sum = e[b * 3]! + e[b * 3 + 1]! + e[b * 3 + 2]!;
    map[b] = sum > 0 ? e[b * 3 + 1]! / sum : Number.NaN;
    let greenTotal = 0;
    for (const layout of errors) greenTotal += layout[b * 3 + 1]!;
    const value = greenTotal > 0 ? e[b * 3 + 1]! / greenTotal : Number.NaN;
    preference[b] = value;
    const isTextured = stds[b * 3]! > o.smoothStd || stds[b * 3 + 1]! > o.smoothStd || stds[b * 3 + 2]! > o.smoothStd;
    if (isTextured && Number.isFinite(value)) {
      textured++;
      if (value > o.absentThreshold) absent++;
    }
  }
  // Dirik and Memon's global feature: how far the green errors of the four layouts are from an even split.
  const spread = new Float64Array(nb);
  let ns = 0;
  for (let b = 0; b < nb; b++) {
    let total = 0;
    for (const layout of errors) total += layout[b * 3 + 1]!;
    if (!(total > 0)) continue;
    let u = 0;
    for (const layout of errors) u += Math.abs(layout[b * 3 + 1]! / total - 0.25);
    spread[ns++] = u;
  }
  const fraction = textured === 0 ? 0 : absent / textured;
  return {
    maps: [
      { name: 'cfa-layout-preference', data: preference, width: blocksWide, height: blocksHigh, cellSize: o.blockSize, displayRange: [0, 0.5] },
      { name: 'cfa-green-error-share', data: map, width: blocksWide, height: blocksHigh, cellSize: o.blockSize, displayRange: [0, 1] },
    ],
    stats: {
      pattern: best, greenLatticeParity: BAYER_PATTERNS[best]!.greenParity, layoutSpread: ns ? medianInPlace(spread, ns) : Number.NaN,
      medianPreference: quantile(preference, 0.5), medianGreenShare: quantile(map, 0.5), texturedBlockFraction: textured / nb, absentBlockFraction: fraction,
    },
    score: clamp01(fraction),
  };
}

/**
 * Parity of x+y of the green samples of the Bayer layout that re-interpolates the image best. With
 * `sampledPixels` set, only every k-th row of blocks is measured, k = max(1, floor(width * height / sampledPixels))
 * (all rows up to that size; at 12 MP and 1.5 MP every 8th row of blocks).
 */
export function greenLatticeParity(image: PixelBuffer, blockSize = 16, smoothStd = 5, sampledPixels = Infinity): 0 | 1 {
  const stride = layoutSampleStride(image, sampledPixels);
  if (stride === 1) return BAYER_PATTERNS[bayerBlockErrors(image, blockSize, smoothStd).best]!.greenParity;
  return parityOfSampledRows(image, blockSize, smoothStd, [sampledLayoutErrors(image, blockSize, stride, 0, image.height)]);
}

/** Every k-th row of blocks is measured for the layout choice, k = max(1, floor(width * height / sampledPixels)). */
export function layoutSampleStride(image: PixelBuffer, sampledPixels: number): number {
  return Math.max(1, Math.floor((image.width * image.height) / sampledPixels));
}

/**
 * Errors of the sampled rows of blocks (every `stride`-th) whose first pixel row is in [yStart, yEnd), one after
 * another: a part of the layout choice that a band of rows can compute.
 */
export function sampledLayoutErrors(image: PixelBuffer, blockSize: number, stride: number, yStart: number, yEnd: number): BayerBandErrors {
  const first = Math.ceil(Math.ceil(yStart / blockSize) / stride) * stride, end = Math.min(Math.ceil(image.height / blockSize), Math.ceil(yEnd / blockSize));
  if (stride === 1) return bayerBandErrors(image, blockSize, first, Math.max(first, end));
  const rows: BayerBandErrors[] = [];
  for (let by = first; by < end; by += stride) rows.push(bayerBandErrors(image, blockSize, by, by + 1));
  return { errors: BAYER_PATTERNS.map((_, k) => concatFloat64(rows.map((r) => r.errors[k]!))), stds: concatFloat64(rows.map((r) => r.stds)) };
}

/**
 * Green parity of the best layout over the sampled rows' errors (parts in row order). The rows left out would have
 * no textured (block, channel) pair, so the mean error per layout, and the best layout, are those of the whole
 * image's strided errors, without computing errors for blocks that were not measured.
 */
export function parityOfSampledRows(image: PixelBuffer, blockSize: number, smoothStd: number, parts: BayerBandErrors[]): 0 | 1 {
  const errors = BAYER_PATTERNS.map((_, k) => concatFloat64(parts.map((p) => p.errors[k]!)));
  const stds = concatFloat64(parts.map((p) => p.stds));
  const blocksWide = Math.ceil(image.width / blockSize);
  return BAYER_PATTERNS[withBestLayout(blocksWide, stds.length / (3 * blocksWide), { errors, stds }, smoothStd).best]!.greenParity;
}
