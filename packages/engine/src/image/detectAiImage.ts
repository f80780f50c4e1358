import type { AiImageClassifier, AiImageVersion } from '@content-analysis/classifiers';
import { checkImageInput, extractImageMetadata } from '@content-analysis/image-metadata';
import type { ImageMetadataResult } from '@content-analysis/image-metadata';
import { ApiError } from '../errors.js';
import { applyProvenance } from '../provenance/applyProvenance.js';
import { provenanceEvidence } from '../provenance/provenanceEvidence.js';
import { MAX_IMAGE_BYTES, MIN_IMAGE_DIMENSION } from '../schemas/requests.js';
import { processPixelBudget } from './pixelBudget.js';
import type { PixelBudget } from './pixelBudget.js';

/** The analysis fields of the image detection result, in the spec's order (credit fields are added by the engine). */
export interface ImageDetectionAnalysis {
  score: number;
  human_probability: number;
  ai_probability: number;
  version: string;
  /** How far the pixels tell (`low`: not conclusive, the score within 9 points of 50); `high` when the file declares AI generation. */
  confidence: 'low' | 'medium' | 'high';
  mime_type: ImageMetadataResult['mime_type'];
  c2pa: ImageMetadataResult['c2pa'];
  exif: ImageMetadataResult['exif'];
  metadata: ImageMetadataResult['metadata'];
  ai_watermark_detected: boolean;
  ai_watermark_issuers: ImageMetadataResult['ai_watermark_issuers'];
}

export interface DetectAiImageOptions {
  classifier: AiImageClassifier;
  /** Model version, already resolved (`latest` is not accepted here). */
  version: AiImageVersion;
  /** Request field the image came from (`image` or `url`), named in caller errors. */
  field: 'image' | 'url';
  /**
   * The decoded-pixel budget the analysis waits on (see {@link PixelBudget}).
   * @default the process's budget
   */
  pixelBudget?: PixelBudget;
}

/** Turns a caller error of the image packages (code BAD_REQUEST) into BAD_REQUEST naming the field; others pass. */
export function imageFieldError(error: unknown, field: string): unknown {
  if ((error as { code?: unknown } | null)?.code !== 'BAD_REQUEST' || error instanceof ApiError) return error;
  return new ApiError('BAD_REQUEST', `${field}: ${(error as Error).message}`, { cause: error });
}

/**
 * AI image detection of one encoded image: reads what the file says about itself (metadata, EXIF/XMP/IPTC, C2PA,
 * AI watermarks; this also refuses files over about 4 MB, under 256x256 pixels, or not JPEG, PNG or WEBP), runs the
 * pixel classifier, and applies the provenance rule of {@link applyProvenance}: a declaration of AI generation or
 * a decoded watermark in the file outweighs the pixels. Caller errors are BAD_REQUEST naming the field.
 */
export async function detectAiImage(bytes: Uint8Array, options: DetectAiImageOptions): Promise<ImageDetectionAnalysis> {
  try {
    // Bad input is refused from the header before any decoding; then the metadata (whose watermark decoder reads
    // every pixel on this thread) and the classifier (sharp and onnxruntime threads) run side by side.
    const limits = { maxBytes: MAX_IMAGE_BYTES, minDimension: MIN_IMAGE_DIMENSION };
    const { width, height } = await checkImageInput(bytes, limits);
    // Nothing is decoded before the image's pixels fit in the process's budget.
    const [metadata, raw] = await (options.pixelBudget ?? processPixelBudget).run(width * height, () => Promise.all([
      extractImageMetadata(bytes, limits),
      options.classifier.classify(bytes, { version: options.version }),
    ]));
    const { classification } = applyProvenance(raw, provenanceEvidence(metadata));
    return {
      score: classification.score,
      human_probability: classification.human_probability,
      ai_probability: classification.ai_probability,
      version: classification.version,
      confidence: classification.confidence,
      mime_type: metadata.mime_type,
      c2pa: metadata.c2pa,
      exif: metadata.exif,
      metadata: metadata.metadata,
      ai_watermark_detected: metadata.ai_watermark_detected,
      ai_watermark_issuers: metadata.ai_watermark_issuers,
    };
  } catch (error) {
    throw imageFieldError(error, options.field);
  }
}
