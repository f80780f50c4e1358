import * as z from 'zod';
import { FACT_CHECK_LANGUAGES, IMAGE_MODEL_VERSIONS, PLAGIARISM_LANGUAGES } from '../languages.js';
import { anyLanguage, boundedText, languageOf, urlString } from './common.js';

/** Request schemas, one per endpoint, with the bounds of the spec and of `response-fields.md`. */

/** Text bounds of each endpoint, in characters unless the name says words. */
export const TEXT_BOUNDS = Object.freeze({
  aiContentDetection: { min: 300, max: 150_000 },
  plagiarism: { min: 100, max: 120_000 },
  plagiarismV1Words: { min: 16, max: 20_000 },
  factChecker: { min: 300, max: 10_000 },
  textCompare: { min: 1, max: 120_000 },
  toolAiText: { min: 300, max: 150_000 },
  toolPlagiarism: { min: 100, max: 120_000 },
});

/** `version` of a model a deployment plugged in (`--model NAME=DIR`): `custom:` and the model's name. */
export const CUSTOM_MODEL_VERSION = /^custom:[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The message of a bad image `version` (the same whatever its type). */
const IMAGE_VERSION_ERROR = `must be one of ${IMAGE_MODEL_VERSIONS.map((v) => `"${v}"`).join(', ')}`;

/** Largest decoded image accepted in `image` (the spec's "about 4 MB or less"). */
export const MAX_IMAGE_BYTES = 4 * 1024 * 1024;

/** Smallest width and height of an image the detection endpoints analyse (the spec's 256x256 minimum resolution). */
export const MIN_IMAGE_DIMENSION = 256;

/**
 * Text, file and website inputs as the text endpoints take them. The text bounds apply only when the text is
 * the input used (no website and no file given); a website or file takes priority over it.
 */
function textInputs() {
  return {
    text: z.string().optional(),
    file: urlString.optional(),
    website: urlString.optional(),
  } as const;
}

function checkTextInput(bounds: { min: number; max: number }) {
  return (value: { text?: string | undefined; file?: string | undefined; website?: string | undefined }, ctx: z.RefinementCtx) => {
    if (value.website !== undefined || value.file !== undefined) return;
    if (value.text === undefined) {
      ctx.addIssue({ code: 'custom', path: ['text'], message: 'is required unless website or file is given' });
      return;
    }
    if (value.text.length < bounds.min) {
      ctx.addIssue({ code: 'custom', path: ['text'], message: `must be at least ${bounds.min} characters long (received ${value.text.length})` });
    } else if (value.text.length > bounds.max) {
      ctx.addIssue({ code: 'custom', path: ['text'], message: `must be at most ${bounds.max} characters long (received ${value.text.length})` });
    }
  };
}

export const aiContentDetectionRequest = z
  .object({
    ...textInputs(),
    sentences: z.boolean().default(true),
    language: anyLanguage.default('auto'),
    version: z.string().min(1).max(64).optional(),
  })
  .superRefine(checkTextInput(TEXT_BOUNDS.aiContentDetection));

export const imageDetectionRequest = z
  .object({
    url: urlString.optional(),
    image: z.string().min(1, { error: 'must be a non-empty base64 string or data URL' }).optional(),
    // The spec types version as a string; anything outside the list (a number too) is BAD_REQUEST before any work.
    // A deployment's plugged models are `custom:<name>`; whether the name is served is checked when planning.
    version: z
      .union([z.enum(IMAGE_MODEL_VERSIONS), z.string().regex(CUSTOM_MODEL_VERSION, { error: IMAGE_VERSION_ERROR })], { error: IMAGE_VERSION_ERROR })
      .default('5')
      .describe(
        'Model version: "9", "8", "7", "6", "5", "legacy-5", "4", "3", "2", "1" or "latest" (the newest: "9"), or "custom:<name>", a ' +
          'model the deployment plugged in. Default "5", which answers with model 9; "legacy-5" is the model that answered as "5" ' +
          'until 2026-11-27.',
      ),
  })
  .superRefine((value, ctx) => {
    if (value.url === undefined && value.image === undefined) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'url or image is required' });
    } else if (value.url !== undefined && value.image !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['image'], message: 'image and url cannot both be given: provide either url or image' });
    }
  });

export const advancedImageDetectionRequest = z.object({
  image_url: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(8192),
  // Not in the spec: `html` answers the same analysis as a self-contained HTML page (text/html) instead of JSON.
  report: z.enum(['json', 'html'], { error: 'must be "json" or "html"' }).optional()
    .describe('json (default): the JSON result; html: the same analysis as one self-contained HTML page (text/html), charged the same'),
});

export const plagiarismRequest = z
  .object({
    ...textInputs(),
    excluded_sources: z.array(z.string().min(1).max(2048)).max(1000).default([]),
    language: languageOf(PLAGIARISM_LANGUAGES).default('auto'),
    country: z.string().regex(/^[A-Za-z]{2}$/, { error: 'must be a 2-letter country code' }).default('us'),
  })
  .superRefine(checkTextInput(TEXT_BOUNDS.plagiarism));

/** v1 bounds are in words; they are checked by the engine with the project's word counter. */
export const plagiarismV1Request = z.object({
  text: z.string().max(TEXT_BOUNDS.plagiarismV1Words.max * 64),
});

export const factCheckerRequest = z
  .object({
    ...textInputs(),
    language: languageOf(FACT_CHECK_LANGUAGES).default('auto'),
  })
  .superRefine(checkTextInput(TEXT_BOUNDS.factChecker));

/** Whitespace, and the zero-width characters that render as nothing. */
const BLANK = /^[\s\u200b-\u200d\u2060]*$/u;

/** A text-compare side: not empty, and not whitespace alone (it has no words to compare). */
function comparedText() {
  const { min, max } = TEXT_BOUNDS.textCompare;
  // An empty text already fails the minimum; the blank check speaks only for a non-empty one.
  return boundedText(min, max).refine((text) => text.length === 0 || !BLANK.test(text), { error: 'must not be only whitespace' });
}

export const textCompareRequest = z.object({
  first_text: comparedText(),
  second_text: comparedText(),
});

export type AiContentDetectionRequest = z.output<typeof aiContentDetectionRequest>;
export type ImageDetectionRequest = z.output<typeof imageDetectionRequest>;
export type AdvancedImageDetectionRequest = z.output<typeof advancedImageDetectionRequest>;
export type PlagiarismRequest = z.output<typeof plagiarismRequest>;
export type PlagiarismV1Request = z.output<typeof plagiarismV1Request>;
export type FactCheckerRequest = z.output<typeof factCheckerRequest>;
export type TextCompareRequest = z.output<typeof textCompareRequest>;
