import { countWords } from '@content-analysis/credits';
import { analyzePlagiarism } from './analyzePlagiarism.js';
import { buildV2Result } from './buildV2Result.js';
import type { CheckPlagiarismOptions } from './checkOptions.js';
import { PLAGIARISM_TEXT_BOUNDS } from './checkOptions.js';
import { InvalidArgumentError, TextLengthError } from './errors.js';
import type { PlagiarismV1Result, PlagiarismV2Result } from './resultTypes.js';
import { toV1Result } from './toV1Result.js';

const INPUT_TYPES = new Set(['text', 'file', 'website']);

/**
 * Checks `text` against the sources of `options.index` and `options.providers` and returns the v2 result
 * without the credit fields. Bad input throws a typed error naming the field (`text`, `language`,
 * `excluded_sources`).
 */
export async function checkPlagiarism(text: string, options: CheckPlagiarismOptions = {}): Promise<PlagiarismV2Result> {
  const inputType = options.inputType ?? 'text';
  if (!INPUT_TYPES.has(inputType)) throw new InvalidArgumentError('inputType', "'text', 'file' or 'website'", inputType);
  const analysis = await analyzePlagiarism(text, options);
  return buildV2Result(analysis, { scanTime: (options.now ?? (() => new Date()))(), inputType });
}

/** The v1 check: text of 16 to 20,000 words (the project's word counter), v1 result without credit fields. */
export async function checkPlagiarismV1(text: string, options: CheckPlagiarismOptions = {}): Promise<PlagiarismV1Result> {
  if (typeof text !== 'string') throw new InvalidArgumentError('text', 'a string', text);
  const { min, max } = PLAGIARISM_TEXT_BOUNDS.v1Words;
  const words = countWords(text);
  if (words < min || words > max) throw new TextLengthError(words, min, max, 'words');
  const v2 = await checkPlagiarism(text, { ...options, bounds: { min: 0, max: Number.MAX_SAFE_INTEGER } });
  return toV1Result(v2);
}
