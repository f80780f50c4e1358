import { bayerBlockSums, bayerErrorsFromSums } from './internal/bayerErrors.js';
import { cfaBlockFeatures } from './internal/cfaBlockFeatures.js';
import { cfaReinterpolation, cfaReinterpolationDefaults, cfaReinterpolationFromErrors, cfaReinterpolationOptions } from './kernels/cfaReinterpolation.js';
import type { CfaReinterpolationOptions } from './kernels/cfaReinterpolation.js';
import { cfaVarianceFromFeatures, cfaVarianceMap, cfaVarianceMapDefaults, planCfaVariance } from './kernels/cfaVarianceMap.js';
import type { CfaVariancePlan } from './kernels/cfaVarianceMap.js';
import { edgeAnomalyMap, edgeAnomalyMapDefaults } from './kernels/edgeAnomalyMap.js';
import { errorLevelAnalysis, errorLevelAnalysisDefaults } from './kernels/errorLevelAnalysis.js';
import { medianResidualMap, medianResidualMapDefaults } from './kernels/medianResidualMap.js';
import { spectralPeaks, spectralPeaksDefaults } from './kernels/spectralPeaks.js';
import { waveletNoiseMap, waveletNoiseMapDefaults } from './kernels/waveletNoiseMap.js';
import { UnknownKernelError } from './errors.js';
import type { KernelResult, PixelBuffer } from './types.js';

/** Tool ids of the advanced image detection endpoint that kernels report under. */
export type AdvancedToolId = 'ela_image' | 'residual_noise_maps' | 'cfa_pattern_analysis' | 'edge_anomaly_heat_map' | 'spectral_analysis';

/** What a kernel runs on: the decoded image and, for ELA, the same image after a JPEG round trip. */
export interface KernelInput {
  image: PixelBuffer;
  recompressed?: PixelBuffer;
}

export interface KernelEntry {
  id: KernelId;
  /** The endpoint tool this kernel contributes to. */
  tool: AdvancedToolId;
  /** Bumped whenever the output for the same input changes. */
  version: string;
  defaults: Readonly<Record<string, unknown>>;
  /** True when `run` needs `input.recompressed`. */
  needsRecompressed: boolean;
  run(input: KernelInput, options?: Record<string, unknown>): KernelResult;
  /** Present when the kernel's heavy pass splits into row bands that a pool runs in parallel. */
  bands?: KernelBands;
}

/** One band's partial result: typed arrays only, so a worker can move them back. */
export type BandPart = Record<string, Float32Array | Float64Array>;

/**
 * How a kernel splits one image's work into bands of block rows: `plan` (caller's thread) validates the options,
 * computes what every band needs and cuts the rows; `runBand` (a worker) computes one band; `merge` (caller's thread)
 * joins the parts in order and finishes. The result equals `run`'s bit for bit (tested).
 */
export interface KernelBands {
  /** Undefined when the image is too small for bands to pay off. */
  plan(input: KernelInput, options: Record<string, unknown> | undefined, bands: number): { shared: unknown; rows: Array<[number, number]> } | undefined;
  runBand(input: KernelInput, shared: unknown, rows: [number, number]): BandPart;
  merge(input: KernelInput, shared: unknown, parts: BandPart[]): KernelResult;
}

/** Images below this many pixels run as one task per kernel: a band's overhead would outweigh the split. */
export const BAND_MIN_PIXELS = 2_000_000;

/** [start, end) ranges cutting `rows` into `n` near-equal contiguous bands (fewer when rows are few). */
export function splitRows(rows: number, n: number): Array<[number, number]> {
  const k = Math.max(1, Math.min(n, rows));
  return Array.from({ length: k }, (_, i) => [Math.floor((i * rows) / k), Math.floor(((i + 1) * rows) / k)] as [number, number]);
}

function concat<T extends Float32Array | Float64Array>(parts: T[], make: (n: number) => T): T {
  const out = make(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) { out.set(p, offset); offset += p.length; }
  return out;
}

const cfaVarianceBands: KernelBands = {
  plan(input, options, bands) {
    const plan = planCfaVariance(input.image, options);
    if (input.image.width * input.image.height < BAND_MIN_PIXELS || bands < 2) return undefined;
    return { shared: plan, rows: splitRows(Math.floor(input.image.height / plan.options.blockSize), bands) };
  },
  runBand(input, shared, [start, end]) {
    const plan = shared as CfaVariancePlan;
    return { feature: cfaBlockFeatures(input.image, plan.options.blockSize, plan.lattice, plan.options.windowSigma, start, end) };
  },
  merge(input, shared, parts) {
    return cfaVarianceFromFeatures(concat(parts.map((p) => p.feature as Float32Array), (n) => new Float32Array(n)), input.image, shared as CfaVariancePlan);
  },
};

const cfaReinterpolationBands: KernelBands = {
  plan(input, options, bands) {
    const o = cfaReinterpolationOptions(input.image, options);
    if (input.image.width * input.image.height < BAND_MIN_PIXELS || bands < 2) return undefined;
    return { shared: o, rows: splitRows(Math.ceil(input.image.height / o.blockSize), bands) };
  },
  runBand(input, shared, [start, end]) {
    const { sums, moments, count } = bayerBlockSums(input.image, (shared as Required<CfaReinterpolationOptions>).blockSize, start, end);
    return { sums, moments, count };
  },
  merge(input, shared, parts) {
    const o = shared as Required<CfaReinterpolationOptions>;
    const f64 = (key: string) => concat(parts.map((p) => p[key] as Float64Array), (n) => new Float64Array(n));
    const sums = { sums: f64('sums'), moments: f64('moments'), count: f64('count') };
    return cfaReinterpolationFromErrors(bayerErrorsFromSums(input.image.width, input.image.height, o.blockSize, o.smoothStd, sums), o);
  },
};

export const KERNEL_IDS = ['ela', 'wavelet-noise', 'median-residual', 'cfa-variance', 'cfa-reinterpolation', 'edge-anomaly', 'spectral'] as const;
export type KernelId = (typeof KERNEL_IDS)[number];

function needsRecompressed(input: KernelInput): PixelBuffer {
  if (!input.recompressed) throw new TypeError('Expected input.recompressed (the JPEG round trip of the image) for kernel ela but received undefined of type undefined');
  return input.recompressed;
}

/** Every kernel by id: `run`, `defaults`, `version`, and the tool it reports under. */
export const kernelRegistry: Readonly<Record<KernelId, KernelEntry>> = {
  ela: { id: 'ela', tool: 'ela_image', version: '2', defaults: errorLevelAnalysisDefaults, needsRecompressed: true,
    run: (input, options) => errorLevelAnalysis(input.image, needsRecompressed(input), options) },
  'wavelet-noise': { id: 'wavelet-noise', tool: 'residual_noise_maps', version: '1', defaults: waveletNoiseMapDefaults, needsRecompressed: false,
    run: (input, options) => waveletNoiseMap(input.image, options) },
  'median-residual': { id: 'median-residual', tool: 'residual_noise_maps', version: '1', defaults: medianResidualMapDefaults, needsRecompressed: false,
    run: (input, options) => medianResidualMap(input.image, options) },
  'cfa-variance': { id: 'cfa-variance', tool: 'cfa_pattern_analysis', version: '3', defaults: cfaVarianceMapDefaults, needsRecompressed: false,
    run: (input, options) => cfaVarianceMap(input.image, options), bands: cfaVarianceBands },
  'cfa-reinterpolation': { id: 'cfa-reinterpolation', tool: 'cfa_pattern_analysis', version: '1', defaults: cfaReinterpolationDefaults, needsRecompressed: false,
    run: (input, options) => cfaReinterpolation(input.image, options), bands: cfaReinterpolationBands },
  'edge-anomaly': { id: 'edge-anomaly', tool: 'edge_anomaly_heat_map', version: '1', defaults: edgeAnomalyMapDefaults, needsRecompressed: false,
    run: (input, options) => edgeAnomalyMap(input.image, options) },
  spectral: { id: 'spectral', tool: 'spectral_analysis', version: '1', defaults: spectralPeaksDefaults, needsRecompressed: false,
    run: (input, options) => spectralPeaks(input.image, options) },
};

/** The registry entry for `id`; throws UnknownKernelError for ids it does not hold. */
export function getKernel(id: string): KernelEntry {
  if (!(KERNEL_IDS as readonly string[]).includes(id)) throw new UnknownKernelError(id, KERNEL_IDS);
  return kernelRegistry[id as KernelId];
}
