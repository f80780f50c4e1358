import * as z from 'zod';
import { aiImageModelDir, resolveAiImageVersion } from '@content-analysis/classifiers';
import type { AiImageClassifier, AiImageVersion } from '@content-analysis/classifiers';
import { CREDIT_COSTS } from '@content-analysis/credits';
import { toImageBytes } from '@content-analysis/image-metadata';
import { callerError } from '../callerError.js';
import { defineFeature, SNAKE_CASE_CREDITS } from '../feature.js';
import { runnerImageClassifier } from '../image/defaultImageClassifier.js';
import { detectAiImage, imageFieldError } from '../image/detectAiImage.js';
import type { ImageDetectionAnalysis } from '../image/detectAiImage.js';
import { likelyAiGenerated } from '../image/likelyAiGenerated.js';
import { pluggedModel } from '../pluggedModels.js';
import { checkPublicUrl } from '../remote.js';
import { imageDetectionRequest, MAX_IMAGE_BYTES } from '../schemas/requests.js';
import type { ImageDetectionRequest } from '../schemas/requests.js';
import { imageDetectionResult } from '../schemas/results.js';

/** Formats image detection reads (spec: JPG, JPEG, PNG, WEBP). */
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/** Room for a base64 image of {@link MAX_IMAGE_BYTES} (4/3 of it), line breaks and a data URL prefix. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** The provenance part of the tool summary: which signals in the file outweigh the pixels, if any. */
function provenanceNote(issuers: ImageDetectionAnalysis['ai_watermark_issuers']): string {
  const entries = Object.entries(issuers);
  if (entries.length === 0) return '';
  const strong = entries.some(([, v]) => v.strength === 'strong');
  return `; the file ${strong ? 'declares AI generation' : 'names a generator'}: ${entries.map(([issuer]) => issuer).join(', ')}`;
}

/**
 * AI image detection, served on /v2/image-detection and on /v1/image-detection (the spec gives both the same
 * request and result), as the `ai-image-detection` tool and as the `image` command.
 *
 * Planning checks the version and the input before anything is charged or fetched: an unknown version, malformed
 * base64 and a URL that is not public are BAD_REQUEST. The analysis fetches a `url` through the guarded fetcher,
 * then runs {@link detectAiImage}.
 */
export const imageDetectionFeature = defineFeature<ImageDetectionRequest, ImageDetectionAnalysis>({
  id: 'image-detection',
  title: 'AI Image Detection',
  description:
    'Estimates whether an image is AI-generated: a human score from 0 (AI) to 100 (human) from the AI-image ' +
    'classifier, raised to AI when the file itself declares AI generation (C2PA, IPTC/XMP digital source type) or ' +
    'carries a generator watermark, with the image metadata, EXIF/XMP/IPTC fields, C2PA content credentials and AI ' +
    'watermark issuers. 300 credits per image.',
  routes: ['/v2/image-detection', '/v1/image-detection'],
  errorStyle: 'v2',
  request: imageDetectionRequest,
  result: imageDetectionResult,
  credits: SNAKE_CASE_CREDITS,
  statusField: false,
  maxBodyBytes: MAX_BODY_BYTES,
  async plan(request, context) {
    let version: AiImageVersion;
    // A plugged model (`custom:NAME`) answers in the bundled classifier's place, with the same fields and rounding.
    let custom: AiImageClassifier | undefined;
    try {
      const model = pluggedModel(context.customModels, request.version, 'ai-image');
      if (model) {
        custom = { classify: (image) => model.classify(image) as ReturnType<AiImageClassifier['classify']> };
        version = model.version as AiImageVersion;
      } else {
        version = resolveAiImageVersion(request.version);
        // A version kept in @content-analysis/models-extra is refused before anything is charged when it is not installed.
        aiImageModelDir(version);
      }
    } catch (error) {
      throw callerError(error, ['BAD_REQUEST', 'MODEL_NOT_INSTALLED']);
    }
    let bytes: Uint8Array | undefined;
    if (request.image !== undefined) {
      try {
        bytes = toImageBytes(request.image);
      } catch (error) {
        throw imageFieldError(error, 'image');
      }
    } else {
      checkPublicUrl(request.url!);
    }
    return {
      cost: CREDIT_COSTS.imageDetection,
      analyse: async () => {
        bytes ??= (await context.fetchRemote(request.url!, { accept: IMAGE_TYPES, maxBytes: MAX_IMAGE_BYTES })).bytes;
        return detectAiImage(bytes, {
          classifier: custom ?? runnerImageClassifier(context.services().imageClassifier(), context.analysis, context.signal),
          version,
          field: request.image !== undefined ? 'image' : 'url',
        });
      },
    };
  },
  tool: {
    name: 'ai-image-detection',
    title: 'AI Image Detection',
    description:
      'Estimate whether an image is AI-generated: a human score from 0 (AI) to 100 (human) from a trained classifier, ' +
      'overridden when the file declares AI generation (C2PA, IPTC/XMP) or carries a generator watermark, with its ' +
      'metadata and content credentials. Give the public URL of a JPG, PNG or WEBP image of at least 256x256 pixels ' +
      'and about 4 MB at most. Cost: 300 credits per image.',
    arguments: z.object({
      url: z.string().min(1).describe('Public URL of the image (JPG, PNG or WEBP).'),
    }),
    toRequest: (args) => ({ url: args.url }),
    summarize: (result) =>
      `Human score ${result.score} of 100 (${likelyAiGenerated(result.score) ? 'likely AI-generated' : 'likely human'}` +
      `${provenanceNote(result.ai_watermark_issuers)}), model version ${result.version}, ${result.credits_used} credits.`,
  },
  cli: {
    command: 'image',
    summary: 'Estimate whether an image (file, http(s) URL, or -) is AI-generated; --version 1..9, legacy-5, latest (= 9) or custom:NAME; default 5 (model 9).',
    inputs: [{ field: 'image', description: 'the image: a JPG, PNG or WEBP file, an http(s) URL, or -', kind: 'image' }],
    options: [{ field: 'version', description: 'model version: 9, 8, 7, 6, 5, legacy-5, 4, 3, 2, 1 or latest (= 9; default 5), or custom:NAME (a --model)' }],
  },
});
