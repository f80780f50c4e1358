import type * as z from 'zod';
import type {
  advancedImageDetectionRequest, aiContentDetectionRequest, factCheckerRequest, imageDetectionRequest, plagiarismRequest,
  plagiarismV1Request, textCompareRequest,
} from './schemas/requests.js';
import type {
  AdvancedImageDetectionResult, AiContentDetectionResult, FactCheckerResult, ImageDetectionResult, PlagiarismResult,
  PlagiarismV1Result, TextCompareResult,
} from './schemas/results.js';

/**
 * Request and result types of the built-in features, by feature id: the request as a caller writes it (fields
 * with defaults optional), the result as `execute` returns it (credit fields included).
 */
export interface FeatureTypes {
  'ai-content-detection': { request: z.input<typeof aiContentDetectionRequest>; result: AiContentDetectionResult };
  'image-detection': { request: z.input<typeof imageDetectionRequest>; result: ImageDetectionResult };
  'advanced-image-detection': { request: z.input<typeof advancedImageDetectionRequest>; result: AdvancedImageDetectionResult };
  'plagiarism': { request: z.input<typeof plagiarismRequest>; result: PlagiarismResult };
  'plagiarism-v1': { request: z.input<typeof plagiarismV1Request>; result: PlagiarismV1Result };
  'fact-checker': { request: z.input<typeof factCheckerRequest>; result: FactCheckerResult };
  'text-compare': { request: z.input<typeof textCompareRequest>; result: TextCompareResult };
}

/** Id of a built-in feature. */
export type FeatureId = keyof FeatureTypes;
/** The request body of a built-in feature, as `run` and `execute` take it. */
export type FeatureRequest<Id extends FeatureId> = FeatureTypes[Id]['request'];
/** The result of a built-in feature as `execute` returns it. */
export type FeatureResult<Id extends FeatureId> = FeatureTypes[Id]['result'];
/** The result of a built-in feature as `run` returns it: what it would cost, and no balance. */
export type RunResult<Id extends FeatureId> = Omit<FeatureResult<Id>, 'credits_remaining' | 'creditsRemaining' | 'balance'>;
