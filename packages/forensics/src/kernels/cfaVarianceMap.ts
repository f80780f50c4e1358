import { cfaBlockFeatures } from '../internal/cfaBlockFeatures.js';
import { windowMedian5x5 } from '../internal/windowMedian5x5.js';
import { windowSum } from '../internal/convolve.js';
import { greenLatticeParity, layoutSampleStride, parityOfSampledRows, sampledLayoutErrors } from './cfaReinterpolation.js';
import type { BayerBandErrors } from '../internal/bayerErrors.js';
import { clamp01, quantilePair } from '../internal/stats.js';
import { fitZeroMeanMixtureBinned, logLikelihoodRatios } from '../internal/zeroMeanMixture.js';
import type { KernelResult, PixelBuffer } from '../types.js';
import { expectIntegerInRange, expectMinimumSize, expectNumberInRange, expectPixelBuffer } from '../validate.js';

export interface CfaVarianceMapOptions {
  /**
   * Side in pixels of the blocks the feature is computed on (must be even).
   * @default 8
   */
  blockSize?: number;
  /**
   * Half-width of the window (in blocks) over which block log-likelihood ratios are summed before the posterior.
   * @default 2
   */
  aggregationRadius?: number;
  /**
   * Standard deviation in pixels of the Gaussian weighting the 7x7 local variance window.
   * @default 1.5
   */
  windowSigma?: number;
  /**
   * How block log-likelihood ratios are pooled: `median` (robust, as the image-forensics toolbox does) or `sum`
   * (the paper's cumulated log-likelihood).
   * @default 'median'
   */
  aggregation?: 'median' | 'sum';
  /**
   * Parity of x+y of the acquired green samples, or `auto` to take the Bayer layout that re-interpolates best
   * (see `cfaReinterpolation`).
   * @default 'auto'
   */
  lattice?: 0 | 1 | 'auto';
}

export const cfaVarianceMapDefaults: Required<CfaVarianceMapOptions> = { blockSize: 8, aggregationRadius: 2, windowSigma: 1.5, aggregation: 'median', lattice: 'auto' };

/** Log-feature given to blocks with a zero variance product in one class (log of the smallest positive double). */
const DEGENERATE = -736.8;

/** The Bayer layout is chosen on every k-th row of 16-pixel blocks, k = max(1, floor(pixels / this)). */
const LATTICE_SAMPLED_PIXELS = 1.5e6;
/** The mixture is fitted on at most this many finite block features (every k-th); all blocks are then classified. */
const EM_MAX_SAMPLES = 32768;

/**
 * CFA artefact localisation after Ferrara, Bianchi, De Rosa and Piva 2012, "Image forgery localization via
 * fine-grained analysis of CFA artifacts" (IEEE TIFS 7(5)). On the green channel: the prediction error of a bilinear
 * predictor; its local variance with a Gaussian window over same-lattice pixels; per block the feature
 * L = log(prod(var at acquired) / prod(var at interpolated)), positive where demosaicing left
 * its trace; a mixture fit by EM (zero-mean component = no CFA trace) and, per block, the posterior probability of
 * "no trace" from the log-likelihood ratios pooled over a (2r+1)^2 neighbourhood (median by default). The acquired
 * lattice is the green lattice of the Bayer layout that re-interpolates best. Above 1.5 MP the layout is chosen on a
 * deterministic subsample of block rows and above 32768 blocks the mixture is fitted on every k-th finite feature;
 * every block is then classified with the fitted mixture. From 8192 features on, the fit works on the features
 * grouped in narrow bins (`fitZeroMeanMixtureBinned`: same iterations, parameters within about 1e-5). The variances
 * and their log sums are float32 (`cfaBlockFeatures`).
 *
 * Score: fraction of blocks whose posterior of "no CFA trace" exceeds 0.5.
 */
export function cfaVarianceMap(image: PixelBuffer, options: CfaVarianceMapOptions = {}): KernelResult {
  const plan = planCfaVariance(image, options);
  return cfaVarianceFromFeatures(cfaBlockFeatures(image, plan.options.blockSize, plan.lattice, plan.options.windowSigma), image, plan);
}

/** Validated options and the acquired-green lattice: what the bands of `cfaVarianceMap` share. */
export interface CfaVariancePlan {
  options: Required<CfaVarianceMapOptions>;
  lattice: 0 | 1;
}

/** Validates the options and chooses the lattice (first step of `cfaVarianceMap`). */
export function planCfaVariance(image: PixelBuffer, options: CfaVarianceMapOptions = {}): CfaVariancePlan {
  const o = cfaVarianceOptions(image, options);
  return { options: o, lattice: o.lattice === 'auto' ? greenLatticeParity(image, LAYOUT_BLOCK, LAYOUT_SMOOTH_STD, LATTICE_SAMPLED_PIXELS) : o.lattice };
}

/** Options merged over the defaults and validated against the image. */
export function cfaVarianceOptions(image: PixelBuffer, options: CfaVarianceMapOptions = {}): Required<CfaVarianceMapOptions> {
  const o = { ...cfaVarianceMapDefaults, ...options };
  expectPixelBuffer('image', image);
  expectIntegerInRange('blockSize', o.blockSize, 2, 256);
  if (o.blockSize % 2 !== 0) throw new RangeError(`Expected even integer for blockSize but received ${o.blockSize} of type number`);
  expectIntegerInRange('aggregationRadius', o.aggregationRadius, 0, 64);
  expectNumberInRange('windowSigma', o.windowSigma, 0.3, 16);
  if (o.aggregation !== 'median' && o.aggregation !== 'sum') throw new RangeError(`Expected 'median' or 'sum' for aggregation but received ${String(o.aggregation)} of type ${typeof o.aggregation}`);
  if (o.lattice !== 0 && o.lattice !== 1 && o.lattice !== 'auto') throw new RangeError(`Expected 0, 1 or 'auto' for lattice but received ${String(o.lattice)} of type ${typeof o.lattice}`);
  expectMinimumSize('image', image, 4 * o.blockSize);
  return o;
}

/** Block size and smoothness threshold of the layout choice (`cfaReinterpolation`'s defaults). */
const LAYOUT_BLOCK = 16, LAYOUT_SMOOTH_STD = 5;

/**
 * What the bands of `cfaVarianceMap` share: the validated options and, when the lattice is `auto`, the stride of the
 * rows of blocks sampled for the layout choice. The choice itself is left to the bands (each measures the sampled
 * rows within its own rows) and the merge: nothing image-sized runs on the caller's thread before the bands.
 */
export interface CfaVarianceBandPlan {
  options: Required<CfaVarianceMapOptions>;
  layoutStride: number;
}

export function planCfaVarianceBands(image: PixelBuffer, options: CfaVarianceMapOptions = {}): CfaVarianceBandPlan {
  const o = cfaVarianceOptions(image, options);
  return { options: o, layoutStride: layoutSampleStride(image, LATTICE_SAMPLED_PIXELS) };
}

/** One band's part: its block features and, for `lattice: 'auto'`, the layout errors of its sampled rows. */
export interface CfaVarianceBand {
  feature: Float32Array;
  layout?: BayerBandErrors;
}

/**
 * The block features of the rows of blocks [start, end). With `lattice: 'auto'` they are computed for lattice 1 and
 * the merge negates them if the layout choice gives 0: swapping the lattices swaps the two running products, so the
 * feature X - Y becomes Y - X, exactly its negation (rounding is symmetric), except +0 which stays +0 (and NaN).
 */
export function cfaVarianceBand(image: PixelBuffer, plan: CfaVarianceBandPlan, start: number, end: number): CfaVarianceBand {
  const o = plan.options;
  const feature = cfaBlockFeatures(image, o.blockSize, o.lattice === 'auto' ? 1 : o.lattice, o.windowSigma, start, end);
  if (o.lattice !== 'auto') return { feature };
  // The sampled rows of 16-pixel blocks that start in this band's pixel rows (the last band takes the rows below
  // the last full block too), so the bands' parts are all the sampled rows in order.
  const last = end === Math.floor(image.height / o.blockSize);
  return { feature, layout: sampledLayoutErrors(image, LAYOUT_BLOCK, plan.layoutStride, start * o.blockSize, last ? image.height : end * o.blockSize) };
}

/** Joins the bands' parts in order, chooses the lattice from their layout errors and finishes as `cfaVarianceMap`. */
export function cfaVarianceFromBands(image: PixelBuffer, plan: CfaVarianceBandPlan, parts: CfaVarianceBand[]): KernelResult {
  const o = plan.options;
  const feature = new Float32Array(parts.reduce((n, p) => n + p.feature.length, 0));
  let offset = 0;
  for (const p of parts) { feature.set(p.feature, offset); offset += p.feature.length; }
  let lattice: 0 | 1 = o.lattice === 'auto' ? 1 : o.lattice;
  if (o.lattice === 'auto') {
    lattice = parityOfSampledRows(image, LAYOUT_BLOCK, LAYOUT_SMOOTH_STD, parts.map((p) => p.layout!));
    if (lattice === 0) for (let i = 0; i < feature.length; i++) { const f = feature[i]!; if (f > 0 || f < 0) feature[i] = -f; }
  }
  return cfaVarianceFromFeatures(feature, image, { options: o, lattice });
}

/** Last step of `cfaVarianceMap`: mixture fit, pooled log-likelihood ratios and posterior from the block features. */
export function cfaVarianceFromFeatures(feature: Float32Array, image: PixelBuffer, plan: CfaVariancePlan): KernelResult {
  const o = plan.options, lattice = plan.lattice;
  const bw = Math.floor(image.width / o.blockSize), bh = Math.floor(image.height / o.blockSize);
  if (feature.length !== bw * bh) throw new RangeError(`Expected ${bw * bh} block features for feature but received ${feature.length} of type number`);
  // Feature: log of the ratio of the products of the variances (sum of log differences). A block where one class
  // has a zero variance has no finite feature: it is left out of the fit and given DEGENERATE in the likelihood.
  const { count: finiteCount, sample } = finiteSubsample(feature, EM_MAX_SAMPLES);
  const mixture = fitZeroMeanMixtureBinned(sample);
  const llr = logLikelihoodRatios(feature, mixture, DEGENERATE);
  const aggregated = o.aggregation === 'median' ? windowMedian5x5(llr, bw, bh, o.aggregationRadius) : windowSum(llr, bw, bh, o.aggregationRadius);
  const { probability, flagged } = posteriorOfNoTrace(aggregated, bw, bh);
  const fraction = flagged / probability.length;
  const [medianFeature, highFeature] = quantilePair(feature, 0.5, 0.99);
  return {
    maps: [
      { name: 'no-cfa-probability', data: probability, width: bw, height: bh, cellSize: o.blockSize, displayRange: [0, 1] },
      { name: 'cfa-feature', data: feature, width: bw, height: bh, cellSize: o.blockSize, displayRange: [0, Math.max(1e-3, highFeature)] },
    ],
    stats: {
      medianFeature, lattice, degenerateBlockFraction: 1 - finiteCount / feature.length, mixtureMean: mixture.mu1, mixtureSigmaTrace: mixture.sigma1,
      mixtureSigmaNoTrace: mixture.sigma0, mixtureWeightTrace: mixture.weight1, flaggedBlockFraction: fraction,
    },
    score: clamp01(fraction),
  };
}

/**
 * Per block p = 1 / (1 + exp(-a)) of the pooled log-likelihood ratio a (float32), and the count of p > 0.5; once per
 * distinct neighbour: a median-pooled map repeats values along its rows and columns (a third of the blocks of a 12 MP
 * photo). From a = 18 on p rounds to 1 in float32 (exp(-18) < 2^-25) and up to a = -110 to 0 (under half the
 * smallest subnormal); p > 0.5 is unchanged there. The same values as computing every p (tested).
 */
export function posteriorOfNoTrace(aggregated: Float32Array, bw: number, bh: number): { probability: Float32Array; flagged: number } {
  const probability = new Float32Array(bw * bh);
  const above = new Float64Array(bw);
  let flagged = 0;
  for (let y = 0, i = 0; y < bh; y++) {
    for (let x = 0; x < bw; x++, i++) {
      const a = aggregated[i]!;
      const p = a >= 18 ? 1 : a <= -110 ? 0 : x > 0 && a === aggregated[i - 1] ? above[x - 1]! : y > 0 && a === aggregated[i - bw] ? above[x]! : 1 / (1 + Math.exp(-a));
      above[x] = p;
      probability[i] = p;
      if (p > 0.5) flagged++;
    }
  }
  return { probability, flagged };
}

/**
 * `evenSubsample(finiteValues(values), max)` and the count of finite values, without the copy of every finite value:
 * every k-th finite value, k = ceil(count / max), or all of them when there are at most `max`.
 */
export function finiteSubsample(values: Float32Array, max: number): { count: number; sample: Float64Array } {
  let count = 0;
  for (let i = 0; i < values.length; i++) { const v = values[i]!; if (v - v === 0) count++; }
  const k = count <= max ? 1 : Math.ceil(count / max);
  const sample = new Float64Array(Math.ceil(count / k));
  for (let i = 0, f = 0, j = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v - v !== 0) continue;
    if (f++ % k === 0) sample[j++] = v;
  }
  return { count, sample };
}
