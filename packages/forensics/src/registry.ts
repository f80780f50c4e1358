import { cfaReinterpolation, cfaReinterpolationDefaults } from './kernels/cfaReinterpolation.js';
import { cfaVarianceMap, cfaVarianceMapDefaults } from './kernels/cfaVarianceMap.js';
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
}

export const KERNEL_IDS = ['ela', 'wavelet-noise', 'median-residual', 'cfa-variance', 'cfa-reinterpolation', 'edge-anomaly', 'spectral'] as const;
export type KernelId = (typeof KERNEL_IDS)[number];

function needsRecompressed(input: KernelInput): PixelBuffer {
  if (!input.recompressed) throw new TypeError('Expected input.recompressed (the JPEG round trip of the image) for kernel ela but received undefined of type undefined');
  return input.recompressed;
}

/** Every kernel by id: `run`, `defaults`, `version`, and the tool it reports under. */
export const kernelRegistry: Readonly<Record<KernelId, KernelEntry>> = {
  ela: { id: 'ela', tool: 'ela_image', version: '1', defaults: errorLevelAnalysisDefaults, needsRecompressed: true,
    run: (input, options) => errorLevelAnalysis(input.image, needsRecompressed(input), options) },
  'wavelet-noise': { id: 'wavelet-noise', tool: 'residual_noise_maps', version: '1', defaults: waveletNoiseMapDefaults, needsRecompressed: false,
    run: (input, options) => waveletNoiseMap(input.image, options) },
  'median-residual': { id: 'median-residual', tool: 'residual_noise_maps', version: '1', defaults: medianResidualMapDefaults, needsRecompressed: false,
    run: (input, options) => medianResidualMap(input.image, options) },
  'cfa-variance': { id: 'cfa-variance', tool: 'cfa_pattern_analysis', version: '2', defaults: cfaVarianceMapDefaults, needsRecompressed: false,
    run: (input, options) => cfaVarianceMap(input.image, options) },
  'cfa-reinterpolation': { id: 'cfa-reinterpolation', tool: 'cfa_pattern_analysis', version: '1', defaults: cfaReinterpolationDefaults, needsRecompressed: false,
    run: (input, options) => cfaReinterpolation(input.image, options) },
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
