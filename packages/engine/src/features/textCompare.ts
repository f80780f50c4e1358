import * as z from 'zod';
import { countWords, textCompareCredits } from '@content-analysis/credits';
import { compareTexts } from '@content-analysis/text-compare';
import { defineFeature, SNAKE_CASE_CREDITS } from '../feature.js';
import { TEXT_BOUNDS, textCompareRequest } from '../schemas/requests.js';
import type { TextCompareRequest } from '../schemas/requests.js';
import { textCompareResult } from '../schemas/results.js';

type TextCompareAnalysis = Omit<z.infer<typeof textCompareResult>, 'status' | 'credits_used' | 'credits_remaining'>;

function percent(value: number): string {
  return `${Number.isInteger(value) ? value : value.toFixed(2)}%`;
}

export const textCompareFeature = defineFeature<TextCompareRequest, TextCompareAnalysis>({
  id: 'text-compare',
  title: 'Text Compare',
  description: 'Compares two texts word by word and reports the matching passages, word counts and similarity scores.',
  routes: ['/v2/text-compare'],
  errorStyle: 'v2',
  request: textCompareRequest,
  result: textCompareResult,
  credits: SNAKE_CASE_CREDITS,
  statusField: true,
  async plan(request) {
    const cost = textCompareCredits(countWords(request.first_text), countWords(request.second_text));
    return {
      cost,
      analyse: async () => compareTexts(request.first_text, request.second_text),
    };
  },
  tool: {
    name: 'text-compare',
    title: 'Text Compare',
    description:
      'Compare two texts and report the passages they share (identical, or differing only in case and punctuation), ' +
      'the word counts and the similarity of each text. Cost: 0.5 credits per word, counted over both texts.',
    arguments: z.object({
      first_text: z.string().max(TEXT_BOUNDS.textCompare.max).describe('The first text.'),
      second_text: z.string().max(TEXT_BOUNDS.textCompare.max).describe('The second text.'),
    }),
    toRequest: (args) => ({ first_text: args.first_text, second_text: args.second_text }),
    summarize: (result) =>
      `Similarity ${percent(result.similarity_score)}: ${result.first_text.matching_word_count} of ` +
      `${result.first_text.total_word_count} words of the first text and ${result.second_text.matching_word_count} of ` +
      `${result.second_text.total_word_count} of the second match.`,
  },
  cli: {
    command: 'text-compare',
    summary: 'Compare two texts (files, URLs, or - for standard input) and print the text-compare result.',
    inputs: [
      { field: 'first_text', description: 'the first text', kind: 'text' },
      { field: 'second_text', description: 'the second text', kind: 'text' },
    ],
  },
});
