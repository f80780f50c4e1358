import type { AiImageClassifier } from '@content-analysis/classifiers';
import { analyzeImage, decodeImage, fuseMaps } from '@content-analysis/forensics';
import type { ForensicMap, ForensicsPool, FusedLocalisation, KernelId, KernelOutcome, PixelBuffer } from '@content-analysis/forensics';
import { checkImageInput, extractImageMetadata } from '@content-analysis/image-metadata';
import type { DecodedPixels, ImageMetadataResult } from '@content-analysis/image-metadata';
import { ApiError } from '../errors.js';
import { MIN_IMAGE_DIMENSION } from '../schemas/requests.js';
import { defaultImageClassifier } from '../image/defaultImageClassifier.js';
import { processPixelBudget } from '../image/pixelBudget.js';
import type { PixelBudget } from '../image/pixelBudget.js';
import { classifyImageReport, classifyOutcome } from './classifyImageTool.js';
import type { ClassificationOutcome } from './classifyImageTool.js';
import { decide } from './decide.js';
import { toolReports } from './toolReports.js';
import type { ToolReport } from './toolReports.js';

/**
 * The kernels behind the spec's forensic tools (the spectral kernel has no tool id in the spec) and the JPEG-domain
 * kernels with a nonzero weight in the fused map that `authenticity` is taken from (they have no tool id either).
 * `dq-nonaligned` has weight 0 in FUSION_MODEL: it would not change the fused map or the decision and cost about a
 * third of the JPEG kernels' time, so the endpoint leaves it out (the forensics CLI and forensics-bench still run it).
 */
export const ADVANCED_KERNELS: readonly KernelId[] = [
  'ela', 'wavelet-noise', 'median-residual', 'cfa-variance', 'cfa-reinterpolation', 'edge-anomaly',
  'dq-aligned', 'jpeg-grid', 'jpeg-ghost',
];

export interface AuthenticityOptions {
  /**
   * The forensic kernels to run; the fused map takes the ones its model weighs. The `forensics` CLI adds
   * `dq-nonaligned` for its maps and report.
   * @default ADVANCED_KERNELS
   */
  kernels?: readonly KernelId[];
  /** Worker pool for the forensic kernels. @default none: they run one after another on this thread */
  pool?: ForensicsPool;
  /** JPEG quality of the ELA round trip. @default 90 */
  elaQuality?: number;
  /** Largest image accepted, in bytes. @default 25 MiB */
  maxBytes?: number;
  /** The pixel classifier behind `classify_image` (model version 5). @default the process-wide default classifier */
  classifier?: AiImageClassifier;
  /**
   * The decoded-pixel budget the analysis waits on before it decodes anything (see {@link PixelBudget}); the basic
   * image detection shares it, so images of both endpoints count against one bound.
   * @default the process's budget
   */
  pixelBudget?: PixelBudget;
}

/**
 * Pixels an advanced analysis counts against the decoded-pixel budget per pixel of its image: its decode, the
 * kernels' maps and the ELA round trip hold about 17 bytes a pixel at their peak, against about 5 for the basic
 * detection (issue 26 replay: two 7000 x 7000 advanced analyses took `serve` from 0.9 to 2.5 GB). A 49-Mpx image
 * then runs alone, and the budget bounds both endpoints' memory alike.
 */
export const ADVANCED_PIXEL_WEIGHT = 4;

/** The analysis fields of the advanced image detection result (without status, cost and balance). */
export interface AuthenticityReport {
  language: 'en';
  title: string;
  tags: string[];
  tool_used: Array<ToolReport['id']>;
  label: 'AI-Generated' | 'Human';
  confidence: 'High' | 'Moderate' | 'Low';
  authenticity: 'Authentic' | 'Manipulated';
  conclusion: string;
  analysis: string;
  tools_used_analysis: ToolReport[];
}

function asDecodedPixels({ data, width, height, channels }: PixelBuffer): DecodedPixels {
  return { data: data as Uint8Array, width, height, channels };
}

function isCallerImageError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'BAD_REQUEST' || (typeof code === 'string' && code.startsWith('ERR_FORENSICS_IMAGE'));
}

function titleOf(metadata: ImageMetadataResult): string {
  const exif = metadata.exif as Record<string, unknown>;
  for (const field of ['Title', 'Headline']) {
    const value = exif[field];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  const camera = [exif.Make, exif.Model].filter((v): v is string => typeof v === 'string' && v.trim().length > 0).join(' ');
  const format = metadata.metadata.format.toUpperCase();
  return `${format} image, ${metadata.metadata.width}x${metadata.metadata.height}${camera ? `, from a ${camera}` : ''}`;
}

function tagsOf(metadata: ImageMetadataResult, label: string): string[] {
  const exif = metadata.exif as Record<string, unknown>;
  const tags = new Set<string>();
  if (Array.isArray(exif.keywords)) for (const k of exif.keywords) if (typeof k === 'string' && k.trim()) tags.add(k.trim());
  tags.add(metadata.metadata.format);
  if (typeof exif.Make === 'string' && exif.Make.trim()) tags.add(`camera:${exif.Make.trim()}`);
  if (typeof exif.GPSLatitude === 'number') tags.add('geotagged');
  if ((metadata.c2pa as Record<string, unknown>).validation_state !== undefined) tags.add('c2pa');
  for (const issuer of Object.keys(metadata.ai_watermark_issuers)) tags.add(`ai:${issuer}`);
  if (label === 'AI-Generated') tags.add('ai-generated');
  return [...tags];
}

/**
 * Runs the metadata tool, the pixel classifier and the forensic kernels on an image and composes the advanced
 * report: each tool's real output and a sentence from its measured numbers, and label, confidence and
 * authenticity by the rule of {@link decide}. Bad or unreadable images are BAD_REQUEST; a kernel or a classifier
 * that fails is reported and the rest stands.
 */
export async function analyzeImageAuthenticity(
  bytes: Uint8Array,
  options: AuthenticityOptions = {},
): Promise<{ report: AuthenticityReport; metadata: ImageMetadataResult; kernels: KernelOutcome[]; classification: ClassificationOutcome; fused: ForensicMap; fusion: FusedLocalisation; width: number; height: number }> {
  const elaQuality = options.elaQuality ?? 90;
  const injected = options.classifier;
  let metadata: ImageMetadataResult;
  let kernels: KernelOutcome[];
  let width: number, height: number;
  let classification: ClassificationOutcome;
  try {
    const metadataOptions = { maxBytes: options.maxBytes ?? 25 * 1024 * 1024, minDimension: MIN_IMAGE_DIMENSION };
    // Bad input is refused from the header before any decoding. Then the metadata tool (whose watermark decoder
    // reads every pixel on this thread), the classifier and the kernels (pool threads) run side by side; the
    // classifier's failure is an outcome, never a rejection.
    const checked = await checkImageInput(bytes, metadataOptions);
    // Nothing is decoded before the image's pixels fit in the process's budget (a refusal is 503, uncharged).
    [metadata, { kernels, width, height }, classification] = await (options.pixelBudget ?? processPixelBudget).run(checked.width * checked.height * ADVANCED_PIXEL_WEIGHT, () => {
      // One full decode serves the kernels and the watermark decoder, which wants the EXIF-oriented pixels: the
      // kernels' stored grid is that only at orientation 1; otherwise the metadata tool decodes its own.
      // With a pool, the decode runs in its workers and the pixels stay in shared memory (issue 26: the event loop).
      const pixels = options.pool ? options.pool.decode(bytes) : decodeImage(bytes);
      pixels.catch(() => undefined);
      return Promise.all([
        // decodeImage gives 8-bit pixels; the metadata tool checks their size and type before reading them.
        extractImageMetadata(bytes, { ...metadataOptions, ...(checked.orientation === 1 ? { pixels: pixels.then(asDecodedPixels) } : {}) }),
        pixels.then((image) => analyzeImage(image, { kernels: options.kernels ?? ADVANCED_KERNELS, elaQuality, sourceBytes: bytes, ...(options.pool ? { pool: options.pool } : {}) })),
        classifyOutcome(injected ? () => injected : defaultImageClassifier, bytes),
      ]);
    });
  } catch (error) {
    if (isCallerImageError(error)) throw new ApiError('BAD_REQUEST', (error as Error).message, { cause: error });
    throw error;
  }
  const tools = [classifyImageReport(classification, metadata), ...toolReports(metadata, kernels, elaQuality)];
  // In the pool's worker when there is one (issue 26: 9-12 s of the event loop for a 49-Mpx image); the same result.
  const fusion = options.pool ? await options.pool.fuseMaps(kernels, width, height) : fuseMaps(kernels, width, height);
  const decision = decide(metadata, classification.state === 'completed' ? classification.classification : undefined, fusion);
  const side = decision.inconclusive
    ? 'The pixels were not conclusive and nothing in the file declares AI generation'
    : decision.label === 'AI-Generated' ? 'AI-generated' : 'No sign of AI generation';
  const conclusion =
    `${side} (${decision.confidence.toLowerCase()} confidence); ` +
    `${decision.authenticity === 'Manipulated' ? (decision.manipulatedBy === 'credentials' ? 'manipulated: its content credentials no longer match the image' : 'manipulated: the forensic maps agree on a tampered region') : 'no evidence of manipulation found'}.`;
  const analysis = [
    `${conclusion[0]!.toUpperCase()}${conclusion.slice(1)}`,
    ...decision.reasons,
    ...tools.map((t) => `${t.id}: ${t.analysis}`),
  ].join('\n');
  return {
    report: {
      language: 'en',
      title: titleOf(metadata),
      tags: tagsOf(metadata, decision.inconclusive ? 'inconclusive' : decision.label), // no ai-generated tag when the pixels did not tell
      tool_used: tools.map((t) => t.id),
      label: decision.label,
      confidence: decision.confidence,
      authenticity: decision.authenticity,
      conclusion: `${conclusion[0]!.toUpperCase()}${conclusion.slice(1)}`,
      analysis,
      tools_used_analysis: tools,
    },
    metadata,
    kernels,
    classification,
    // The fused map as a report draws it beside the image (`ReportableAnalysis.fused`); its score and kernels in `fusion`.
    fused: fusion.map,
    fusion,
    width,
    height,
  };
}
