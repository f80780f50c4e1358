import { BAYER_PATTERNS, bayerBandErrors, withBestLayout } from './internal/bayerErrors.js';
import { cfaReinterpolation, cfaReinterpolationDefaults, cfaReinterpolationFromErrors, cfaReinterpolationOptions } from './kernels/cfaReinterpolation.js';
import type { CfaReinterpolationOptions } from './kernels/cfaReinterpolation.js';
import { cfaVarianceBand, cfaVarianceFromBands, cfaVarianceMap, cfaVarianceMapDefaults, planCfaVarianceBands } from './kernels/cfaVarianceMap.js';
import type { CfaVarianceBand, CfaVarianceBandPlan } from './kernels/cfaVarianceMap.js';
import { edgeAnomalyFromBands, edgeAnomalyFromLuma, edgeAnomalyMapDefaults, edgeAnomalyOptions, edgeBlockBand } from './kernels/edgeAnomalyMap.js';
import type { EdgeAnomalyMapOptions, EdgeBlockFeatures } from './kernels/edgeAnomalyMap.js';
import { errorLevelAnalysis, errorLevelAnalysisDefaults, errorLevelBand, errorLevelFromBands, errorLevelOptions, errorLevelsExact } from './kernels/errorLevelAnalysis.js';
import type { ErrorLevelAnalysisOptions, ErrorLevelBand } from './kernels/errorLevelAnalysis.js';
import { medianResidualBand, medianResidualFromBands, medianResidualFromLuma, medianResidualMapDefaults, medianResidualOptions } from './kernels/medianResidualMap.js';
import type { MedianResidualBand, MedianResidualMapOptions } from './kernels/medianResidualMap.js';
import { accumulateTileSpectrum, planSpectralTiles, spectralPeaksDefaults, spectralPeaksFromLuma, spectralPeaksFromSpectrum } from './kernels/spectralPeaks.js';
import type { SpectralTilePlan } from './kernels/spectralPeaks.js';
import { waveletBlocks, waveletNoiseBand, waveletNoiseFromBands, waveletNoiseFromLuma, waveletNoiseMapDefaults, waveletNoiseOptions } from './kernels/waveletNoiseMap.js';
import type { WaveletNoiseMapOptions } from './kernels/waveletNoiseMap.js';
import type { LumaPlanes } from './internal/luma.js';
import type { DctPlane } from './jpeg/blockDct.js';
import { alignedDoubleQuantisation, alignedDoubleQuantisationDefaults } from './kernels/alignedDoubleQuantisation.js';
import { blockArtefactGridDefaults, blockArtefactGridMap } from './kernels/blockArtefactGridMap.js';
import { jpegGhostDefaults, jpegGhostMap } from './kernels/jpegGhostMap.js';
import { nonAlignedDoubleQuantisation, nonAlignedDoubleQuantisationDefaults } from './kernels/nonAlignedDoubleQuantisation.js';
import { UnknownKernelError } from './errors.js';
import type { KernelResult, PixelBuffer } from './types.js';

/** Tool ids of the advanced image detection endpoint that kernels report under. */
export type AdvancedToolId = 'ela_image' | 'residual_noise_maps' | 'cfa_pattern_analysis' | 'edge_anomaly_heat_map' | 'spectral_analysis' | 'jpeg_analysis';

/**
 * What a kernel runs on: the decoded image and, for ELA, the same image after a JPEG round trip; for the kernels that
 * read luma (`usesLuma`), optionally its luma planes computed once for all of them (`studioLumaPlanes`).
 */
export interface KernelInput {
  image: PixelBuffer;
  recompressed?: PixelBuffer;
  luma?: LumaPlanes;
  /**
   * The luma DCT coefficients and quantisation table read from the JPEG file itself (`readJpegCoefficients`); the
   * JPEG-domain kernels use them instead of the blockwise DCT of the pixels when present.
   */
  dct?: DctPlane;
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
  /** True when `run` reads `input.luma` (it computes the luma itself when that is absent). */
  usesLuma: boolean;
  run(input: KernelInput, options?: Record<string, unknown>): KernelResult;
  /** Present when the kernel's heavy pass splits into row bands that a pool runs in parallel. */
  bands?: KernelBands;
}

/** Shared memory of at least `bytes` bytes for a map every band writes part of (its old contents are overwritten). */
export type SharedAllocator = (bytes: number) => SharedArrayBuffer;

/** One band's partial result: typed arrays only, so a worker can move them back. */
export type BandPart = Record<string, Float32Array | Float64Array>;


/**
 * How a kernel splits one image's work into bands of block rows: `plan` (caller's thread) validates the options,
 * computes what every band needs and cuts the rows; `runBand` (a worker) computes one band; `merge` (caller's thread)
 * joins the parts in order and finishes. The result equals `run`'s bit for bit (tested).
 */
export interface KernelBands {
  /**
   * Undefined when the image is too small for bands to pay off. `allocate` gives the shared memory of maps the bands
   * write into (a pool's released buffers, at least `bytes` long, not zeroed); without it, new SharedArrayBuffers.
   */
  plan(input: KernelInput, options: Record<string, unknown> | undefined, bands: number, allocate?: SharedAllocator): { shared: unknown; rows: Array<[number, number]> } | undefined;
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

/**
 * The bands of `blockRows` rows of blocks for `bands` threads, or undefined when the image is below BAND_MIN_PIXELS
 * or there is one thread: the band policy every kernel's `plan` applies after validating its options.
 */
function blockRowBands(image: PixelBuffer, blockRows: number, bands: number): Array<[number, number]> | undefined {
  return image.width * image.height < BAND_MIN_PIXELS || bands < 2 ? undefined : splitRows(blockRows, bands);
}

function concat<T extends Float32Array | Float64Array>(parts: T[], make: (n: number) => T): T {
  const out = make(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) { out.set(p, offset); offset += p.length; }
  return out;
}

// The lattice choice runs in the bands (each measures the sampled rows of its own rows) and the merge.
const cfaVarianceBands: KernelBands = {
  plan(input, options, bands) {
    const plan = planCfaVarianceBands(input.image, options);
    const rows = blockRowBands(input.image, Math.floor(input.image.height / plan.options.blockSize), bands);
    return rows && { shared: plan, rows };
  },
  runBand(input, shared, [start, end]) {
    const { feature, layout } = cfaVarianceBand(input.image, shared as CfaVarianceBandPlan, start, end);
    const part: BandPart = { feature };
    if (layout) {
      part.layoutStds = layout.stds;
      layout.errors.forEach((e, k) => { part[`layoutErrors${k}`] = e; });
    }
    return part;
  },
  merge(input, shared, parts) {
    const bandParts: CfaVarianceBand[] = parts.map((p) => ({
      feature: p.feature as Float32Array,
      ...(p.layoutStds ? { layout: { stds: p.layoutStds as Float64Array, errors: [0, 1, 2, 3].map((k) => p[`layoutErrors${k}`] as Float64Array) } } : {}),
    }));
    return cfaVarianceFromBands(input.image, shared as CfaVarianceBandPlan, bandParts);
  },
};

const cfaReinterpolationBands: KernelBands = {
  plan(input, options, bands) {
    const o = cfaReinterpolationOptions(input.image, options);
    const rows = blockRowBands(input.image, Math.ceil(input.image.height / o.blockSize), bands);
    return rows && { shared: o, rows };
  },
  runBand(input, shared, [start, end]) {
    const { errors, stds } = bayerBandErrors(input.image, (shared as Required<CfaReinterpolationOptions>).blockSize, start, end);
    return { stds, ...Object.fromEntries(errors.map((e, k) => [`errors${k}`, e])) };
  },
  merge(input, shared, parts) {
    const o = shared as Required<CfaReinterpolationOptions>;
    const f64 = (key: string) => concat(parts.map((p) => p[key] as Float64Array), (n) => new Float64Array(n));
    const errors = { errors: BAYER_PATTERNS.map((_, k) => f64(`errors${k}`)), stds: f64('stds') };
    const { width, height } = input.image;
    return cfaReinterpolationFromErrors(withBestLayout(Math.ceil(width / o.blockSize), Math.ceil(height / o.blockSize), errors, o.smoothStd), o);
  },
};

/**
 * A full-size Float32 map in shared memory: bands in workers write their rows straight into it (no join after), every
 * element of it, so a reused buffer from `allocate` gives the same map as a new one (tested).
 */
function sharedMap(width: number, height: number, allocate?: SharedAllocator): Float32Array {
  const n = width * height;
  return new Float32Array(allocate ? allocate(4 * n) : new SharedArrayBuffer(4 * n), 0, n);
}

/** What ELA's `plan` hands every band: the options and, on the 8-bit path, the shared map the bands write into. */
interface ErrorLevelPlan {
  options: Required<ErrorLevelAnalysisOptions>;
  map?: Float32Array;
}

const errorLevelBands: KernelBands = {
  plan(input, options, bands, allocate) {
    const recompressed = needsRecompressed(input);
    const o = errorLevelOptions(input.image, recompressed, options);
    const { width, height } = input.image;
    const rows = blockRowBands(input.image, Math.ceil(height / o.blockSize), bands);
    if (!rows) return undefined;
    // The generic (float) path keeps returning each band's map; the 8-bit path's parts are then only counts and sums.
    const shared: ErrorLevelPlan = { options: o, ...(errorLevelsExact(input.image, recompressed, o) ? { map: sharedMap(width, height, allocate) } : {}) };
    return { shared, rows };
  },
  runBand(input, shared, [start, end]) {
    const { options: o, map: whole } = shared as ErrorLevelPlan;
    const { width, height } = input.image;
    const out = whole?.subarray(start * o.blockSize * width, Math.min(height, end * o.blockSize) * width);
    const { map, count, sums } = errorLevelBand(input.image, needsRecompressed(input), o, start, end, out);
    const part: BandPart = whole ? {} : { map };
    if (count && sums) Object.assign(part, { count, sums });
    return part;
  },
  merge(input, shared, parts) {
    const { options, map } = shared as ErrorLevelPlan;
    return errorLevelFromBands(input.image, parts as unknown as ErrorLevelBand[], options, map);
  },
};

/** What the median residual's `plan` hands every band: the options and the shared map the bands write into. */
interface MedianResidualPlan {
  options: Required<MedianResidualMapOptions>;
  residual: Float32Array;
}

const medianResidualBands: KernelBands = {
  plan(input, options, bands, allocate) {
    const o = medianResidualOptions(input.image, options);
    const { width, height } = input.image;
    const rows = blockRowBands(input.image, Math.ceil(height / o.blockSize), bands);
    if (!rows) return undefined;
    const shared: MedianResidualPlan = { options: o, residual: sharedMap(width, height, allocate) };
    return { shared, rows };
  },
  runBand(input, shared, [start, end]) {
    const { image } = input;
    const { options: o, residual } = shared as MedianResidualPlan;
    const out = residual.subarray(start * o.blockSize * image.width, Math.min(image.height, end * o.blockSize) * image.width);
    const { blocks, largest } = medianResidualBand(input.luma?.luma ?? image, image.width, image.height, o.blockSize, start, end, out);
    const part: BandPart = { blocks };
    if (largest) part.largest = largest;
    return part;
  },
  merge(input, shared, parts) {
    const { options, residual } = shared as MedianResidualPlan;
    return medianResidualFromBands(input.image, parts as unknown as MedianResidualBand[], options, residual);
  },
};

const edgeAnomalyBands: KernelBands = {
  plan(input, options, bands) {
    const o = edgeAnomalyOptions(input.image, options);
    const rows = blockRowBands(input.image, Math.floor(input.image.height / o.blockSize), bands);
    return rows && { shared: o, rows };
  },
  runBand(input, shared, [start, end]) {
    const { image } = input;
    return { ...edgeBlockBand(input.luma?.luma ?? image, image.width, image.height, shared as Required<EdgeAnomalyMapOptions>, start, end) };
  },
  merge(input, shared, parts) {
    return edgeAnomalyFromBands(input.image, parts as unknown as EdgeBlockFeatures[], shared as Required<EdgeAnomalyMapOptions>);
  },
};

const waveletNoiseBands: KernelBands = {
  plan(input, options, bands) {
    const o = waveletNoiseOptions(input.image, options);
    const rows = blockRowBands(input.image, waveletBlocks(input.image, o.blockSize)[1], bands);
    return rows && { shared: o, rows };
  },
  runBand(input, shared, [start, end]) {
    return { sigma: waveletNoiseBand(input.image, shared as Required<WaveletNoiseMapOptions>, input.luma, start, end) };
  },
  merge(input, shared, parts) {
    return waveletNoiseFromBands(input.image, parts.map((p) => p.sigma as Float32Array), shared as Required<WaveletNoiseMapOptions>);
  },
};

// One band per tile (four 512 x 512 tiles by default, each a p-map and a 2-D FFT): each band returns its tiles'
// magnitude spectra, which the merge adds in the plan's order, as the unsplit kernel does.
const spectralBands: KernelBands = {
  plan(input, options, bands) {
    const plan = planSpectralTiles(input.image, options);
    if (input.image.width * input.image.height < BAND_MIN_PIXELS || bands < 2 || plan.tiles.length < 2) return undefined;
    return { shared: plan, rows: plan.tiles.map((_, i) => [i, i + 1] as [number, number]) };
  },
  runBand(input, shared, [start, end]) {
    const { n, tiles } = shared as SpectralTilePlan;
    const part: BandPart = {};
    for (let k = start; k < end; k++) {
      const spectrum = new Float64Array(n * n);
      accumulateTileSpectrum(input.image, n, tiles[k]!, input.luma?.luma, spectrum);
      part[`tile${k}`] = spectrum;
    }
    return part;
  },
  merge(_input, shared, parts) {
    const plan = shared as SpectralTilePlan;
    const spectrum = new Float64Array(plan.n * plan.n);
    const byTile = new Map(parts.flatMap((part) => Object.entries(part)));
    for (let k = 0; k < plan.tiles.length; k++) {
      const tile = byTile.get(`tile${k}`)!;
      for (let i = 0; i < spectrum.length; i++) spectrum[i] = spectrum[i]! + tile[i]!;
    }
    return spectralPeaksFromSpectrum(spectrum, plan);
  },
};

export const KERNEL_IDS = [
  'ela', 'wavelet-noise', 'median-residual', 'cfa-variance', 'cfa-reinterpolation', 'edge-anomaly', 'spectral',
  'dq-aligned', 'dq-nonaligned', 'jpeg-grid', 'jpeg-ghost',
] as const;
export type KernelId = (typeof KERNEL_IDS)[number];

function needsRecompressed(input: KernelInput): PixelBuffer {
  if (!input.recompressed) throw new TypeError('Expected input.recompressed (the JPEG round trip of the image) for kernel ela but received undefined of type undefined');
  return input.recompressed;
}

/** Every kernel by id: `run`, `defaults`, `version`, and the tool it reports under. */
export const kernelRegistry: Readonly<Record<KernelId, KernelEntry>> = {
  ela: { id: 'ela', tool: 'ela_image', version: '2', defaults: errorLevelAnalysisDefaults, needsRecompressed: true, usesLuma: false,
    run: (input, options) => errorLevelAnalysis(input.image, needsRecompressed(input), options), bands: errorLevelBands },
  'wavelet-noise': { id: 'wavelet-noise', tool: 'residual_noise_maps', version: '1', defaults: waveletNoiseMapDefaults, needsRecompressed: false, usesLuma: true,
    run: (input, options) => waveletNoiseFromLuma(input.image, options, input.luma), bands: waveletNoiseBands },
  'median-residual': { id: 'median-residual', tool: 'residual_noise_maps', version: '1', defaults: medianResidualMapDefaults, needsRecompressed: false, usesLuma: true,
    run: (input, options) => medianResidualFromLuma(input.image, options, input.luma?.luma), bands: medianResidualBands },
  'cfa-variance': { id: 'cfa-variance', tool: 'cfa_pattern_analysis', version: '4', defaults: cfaVarianceMapDefaults, needsRecompressed: false, usesLuma: false,
    run: (input, options) => cfaVarianceMap(input.image, options), bands: cfaVarianceBands },
  'cfa-reinterpolation': { id: 'cfa-reinterpolation', tool: 'cfa_pattern_analysis', version: '1', defaults: cfaReinterpolationDefaults, needsRecompressed: false, usesLuma: false,
    run: (input, options) => cfaReinterpolation(input.image, options), bands: cfaReinterpolationBands },
  'edge-anomaly': { id: 'edge-anomaly', tool: 'edge_anomaly_heat_map', version: '1', defaults: edgeAnomalyMapDefaults, needsRecompressed: false, usesLuma: true,
    run: (input, options) => edgeAnomalyFromLuma(input.image, options, input.luma?.luma), bands: edgeAnomalyBands },
  spectral: { id: 'spectral', tool: 'spectral_analysis', version: '1', defaults: spectralPeaksDefaults, needsRecompressed: false, usesLuma: true,
    run: (input, options) => spectralPeaksFromLuma(input.image, options, input.luma?.luma), bands: spectralBands },
  'dq-aligned': { id: 'dq-aligned', tool: 'jpeg_analysis', version: '1', defaults: alignedDoubleQuantisationDefaults, needsRecompressed: false, usesLuma: false,
    run: (input, options) => alignedDoubleQuantisation(input.image, options, input.dct) },
  'dq-nonaligned': { id: 'dq-nonaligned', tool: 'jpeg_analysis', version: '1', defaults: nonAlignedDoubleQuantisationDefaults, needsRecompressed: false, usesLuma: false,
    run: (input, options) => nonAlignedDoubleQuantisation(input.image, options) },
  'jpeg-grid': { id: 'jpeg-grid', tool: 'jpeg_analysis', version: '1', defaults: blockArtefactGridDefaults, needsRecompressed: false, usesLuma: false,
    run: (input, options) => blockArtefactGridMap(input.image, options) },
  'jpeg-ghost': { id: 'jpeg-ghost', tool: 'jpeg_analysis', version: '1', defaults: jpegGhostDefaults, needsRecompressed: false, usesLuma: false,
    run: (input, options) => jpegGhostMap(input.image, options, input.dct) },
};

/** The registry entry for `id`; throws UnknownKernelError for ids it does not hold. */
export function getKernel(id: string): KernelEntry {
  if (!(KERNEL_IDS as readonly string[]).includes(id)) throw new UnknownKernelError(id, KERNEL_IDS);
  return kernelRegistry[id as KernelId];
}
