import * as z from 'zod';
import { plagiarismCredits } from '@content-analysis/credits';
import { parseExcludedSources, toV1Result } from '@content-analysis/plagiarism';
import type { PlagiarismV2Result } from '@content-analysis/plagiarism';
import { callerError } from '../callerError.js';
import { ApiError } from '../errors.js';
import { defineFeature, SNAKE_CASE_CREDITS } from '../feature.js';
import type { FeatureContext } from '../feature.js';
import { analysedText } from '../inputs/textInput.js';
import { boundedText } from '../schemas/common.js';
import { plagiarismRequest, plagiarismV1Request, TEXT_BOUNDS } from '../schemas/requests.js';
import type { PlagiarismRequest, PlagiarismV1Request } from '../schemas/requests.js';
import { plagiarismResult, plagiarismV1Result } from '../schemas/results.js';

/** Codes of the plagiarism package's errors that are about the caller's input. */
const CALLER_ERRORS = ['TEXT_LENGTH', 'UNSUPPORTED_LANGUAGE', 'INVALID_EXCLUDED_SOURCE', 'INVALID_ARGUMENT'] as const;

type V2Analysis = Omit<PlagiarismV2Result, 'status'>;

async function scan(
  text: string,
  options: { language: string; excludedSources: readonly string[]; inputType: 'text' | 'file' | 'website' },
  context: FeatureContext,
): Promise<PlagiarismV2Result> {
  const { index, providers } = context.services().plagiarism;
  try {
    return await context.analysis.checkPlagiarism(text, {
      index,
      providers,
      excludedSources: options.excludedSources,
      language: options.language,
      inputType: options.inputType,
      // The engine has applied the endpoint's bounds to the text it resolved.
      bounds: { min: 1, max: Number.MAX_SAFE_INTEGER },
    }, context.signal);
  } catch (error) {
    throw callerError(error, CALLER_ERRORS);
  }
}

export const plagiarismFeature = defineFeature<PlagiarismRequest, V2Analysis>({
  id: 'plagiarism',
  title: 'Plagiarism',
  description:
    'Finds the passages of a text that come from known sources, verbatim or disguised (synonyms, inflections, ' +
    'reordering), with exact offsets, per-source figures, citations and evasion attempts.',
  routes: ['/v2/plagiarism'],
  errorStyle: 'v2',
  request: plagiarismRequest,
  result: plagiarismResult,
  credits: SNAKE_CASE_CREDITS,
  statusField: true,
  async plan(request, context) {
    try {
      parseExcludedSources(request.excluded_sources);
    } catch (error) {
      throw callerError(error, CALLER_ERRORS);
    }
    const { input, text } = await analysedText(request, context, TEXT_BOUNDS.plagiarism);
    return {
      cost: plagiarismCredits(await context.analysis.countWords(text, context.signal)),
      analyse: async () => {
        const { status: _status, ...result } = await scan(
          text,
          { language: request.language, excludedSources: request.excluded_sources, inputType: input },
          context,
        );
        return result;
      },
    };
  },
  tool: {
    name: 'plagiarism-detection',
    title: 'Plagiarism Detection',
    description:
      'Check a text (100 to 120,000 characters) for passages taken from known sources, verbatim or disguised, and ' +
      'report each source with its matching passages and offsets. Cost: 2 credits per word.',
    arguments: z.object({
      text: boundedText(TEXT_BOUNDS.toolPlagiarism.min, TEXT_BOUNDS.toolPlagiarism.max).describe('The text to check.'),
      language: z.string().default('en').describe('2-letter language code or auto.'),
      country: z.string().default('us').describe('Country code of where the text was written.'),
    }),
    toRequest: (args) => ({ ...args }),
    summarize: (result) =>
      `Plagiarism score ${result.result.score}%: ${result.result.totalPlagiarismWords} of ${result.result.textWordCounts} ` +
      `words match ${result.result.sourceCounts} source${result.result.sourceCounts === 1 ? '' : 's'}.`,
  },
  cli: {
    command: 'plagiarism',
    summary: 'Check a text (file, document, URL, or -) against the sources given with --sources <folder|jsonl>.',
    inputs: [{ field: 'text', description: 'the text to check', kind: 'text' }],
  },
});

type V1Analysis = Omit<z.infer<typeof plagiarismV1Result>, 'status' | 'credits_used' | 'credits_remaining'>;

export const plagiarismV1Feature = defineFeature<PlagiarismV1Request, V1Analysis>({
  id: 'plagiarism-v1',
  title: 'Plagiarism (v1)',
  description: 'The v1 plagiarism result (matching websites and their excerpts) from the same alignment as v2.',
  routes: ['/v1/plagiarism'],
  errorStyle: 'v2',
  request: plagiarismV1Request,
  result: plagiarismV1Result,
  credits: SNAKE_CASE_CREDITS,
  statusField: true,
  async plan(request, context) {
    const words = await context.analysis.countWords(request.text, context.signal);
    const { min, max } = TEXT_BOUNDS.plagiarismV1Words;
    if (words < min || words > max) {
      throw new ApiError('BAD_REQUEST', `text must have ${min} to ${max} words (received ${words})`);
    }
    return {
      cost: plagiarismCredits(words),
      analyse: async () => {
        const v2 = await scan(request.text, { language: 'auto', excludedSources: [], inputType: 'text' }, context);
        const { status: _status, credits_used: _used, credits_remaining: _remaining, ...v1 } = toV1Result(v2) as V1Analysis & {
          status: number;
          credits_used?: number;
          credits_remaining?: number;
        };
        return v1;
      },
    };
  },
});
