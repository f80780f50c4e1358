import * as z from 'zod';
import * as results from './schemas/results.js';
import * as requests from './schemas/requests.js';

/** JSON Schema (draft 2020-12) of a request or result schema. `io: 'input'` describes what a caller may send. */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'output'): Record<string, unknown> {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
}

/** Every documented result, by endpoint, whether or not its feature has landed. */
export const RESULT_SCHEMAS = Object.freeze({
  'ai-content-detection': results.aiContentDetectionResult,
  'image-detection': results.imageDetectionResult,
  'advanced-image-detection': results.advancedImageDetectionResult,
  plagiarism: results.plagiarismResult,
  'plagiarism-v1': results.plagiarismV1Result,
  'fact-checker': results.factCheckerResult,
  'text-compare': results.textCompareResult,
});

/** Every documented request, by endpoint. */
export const REQUEST_SCHEMAS = Object.freeze({
  'ai-content-detection': requests.aiContentDetectionRequest,
  'image-detection': requests.imageDetectionRequest,
  'advanced-image-detection': requests.advancedImageDetectionRequest,
  plagiarism: requests.plagiarismRequest,
  'plagiarism-v1': requests.plagiarismV1Request,
  'fact-checker': requests.factCheckerRequest,
  'text-compare': requests.textCompareRequest,
});
