import { countWords, factCheckCredits } from '@content-analysis/credits';
import type { FactCheckResult } from '@content-analysis/fact-check';
import { callerError } from '../callerError.js';
import { ApiError } from '../errors.js';
import { CAMEL_CASE_CREDITS, defineFeature } from '../feature.js';
import { analysedText } from '../inputs/textInput.js';
import { factCheckerRequest, TEXT_BOUNDS } from '../schemas/requests.js';
import type { FactCheckerRequest } from '../schemas/requests.js';
import { factCheckerResult } from '../schemas/results.js';

type FactCheckAnalysis = Omit<FactCheckResult, 'status'>;

export const factCheckerFeature = defineFeature<FactCheckerRequest, FactCheckAnalysis>({
  id: 'fact-checker',
  title: 'Fact Checker',
  description:
    'Extracts at most 12 check-worthy claims from a text and gives each a verdict (SUPPORTED, PARTIALLY_SUPPORTED, ' +
    'NOT_ENOUGH_EVIDENCE, REFUTED) with a score, an explanation and links to the evidence used.',
  routes: ['/v2/fact-checker'],
  errorStyle: 'v2',
  request: factCheckerRequest,
  result: factCheckerResult,
  credits: CAMEL_CASE_CREDITS,
  statusField: true,
  async plan(request, context) {
    const { input, text } = await analysedText(request, context, TEXT_BOUNDS.factChecker);
    return {
      cost: factCheckCredits(countWords(text)),
      analyse: async () => {
        const { store, searchProvider } = context.services().evidence;
        try {
          const { status: _status, ...result } = await context.analysis.checkFacts(text, {
            store,
            language: request.language,
            input,
            signal: context.signal,
            ...(searchProvider ? { searchProvider } : {}),
          });
          return result;
        } catch (error) {
          const mapped = callerError(error, ['INVALID_ARGUMENT']);
          if ((error as { code?: string }).code === 'SEARCH_PROVIDER_FAILED') {
            throw new ApiError('SERVICE_UNAVAILABLE', 'The evidence search service did not answer; retry later.', { cause: error, retryAfter: 5 });
          }
          throw mapped;
        }
      },
    };
  },
  cli: {
    command: 'fact-check',
    summary: 'Check the claims of a text (file, document, URL, or -) against the evidence given with --evidence <folder|jsonl>.',
    inputs: [{ field: 'text', description: 'the text to check', kind: 'text' }],
  },
});
