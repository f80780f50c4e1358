import { assertNonNegativeInteger } from './validate.js';

/**
 * Credit cost of each operation, as the service publishes it. Frozen: a cost is changed here, in one place,
 * never at a call site.
 */
export const CREDIT_COSTS = Object.freeze({
  /** AI text detection, per word. */
  aiTextPerWord: 1,
  /** Plagiarism search, per word. */
  plagiarismPerWord: 2,
  /** Fact checking, per word. */
  factCheckPerWord: 2,
  /** AI image detection, per image. */
  imageDetection: 300,
  /** Advanced (forensic) image detection, per image, charged after a successful analysis. */
  advancedImageDetection: 500,
  /** Text compare, per word over the words of both texts; the total is rounded up (see `textCompareCredits`). */
  textComparePerWord: 0.5,
} as const);

/** The cost table's type. */
export type CreditCosts = typeof CREDIT_COSTS;

/** Credits a new account starts with. */
export const NEW_ACCOUNT_CREDITS = 2000;

/**
 * Credits for `words` words at `perWord` credits each, rounded up to a whole credit (a fraction of a credit is
 * never given away, nor charged twice).
 *
 * @param words number of words, a non-negative integer
 * @param perWord credits per word, a finite number ≥ 0
 * @throws {RangeError} if an argument is out of range
 */
export function creditsForWords(words: number, perWord: number): number {
  assertNonNegativeInteger('words', words);
  if (typeof perWord !== 'number' || !Number.isFinite(perWord) || perWord < 0) {
    throw new RangeError(`Expected non-negative finite number for perWord but received ${String(perWord)} of type ` +
      typeof perWord);
  }
  const credits = Math.ceil(words * perWord);
  if (!Number.isSafeInteger(credits)) {
    throw new RangeError(`Expected a cost within safe integers but ${words} words at ${perWord} give ${credits}`);
  }
  return credits;
}

/** Credits for AI text detection of a text of `words` words: 1 per word. */
export function aiTextCredits(words: number): number {
  return creditsForWords(words, CREDIT_COSTS.aiTextPerWord);
}

/** Credits for a plagiarism search of a text of `words` words: 2 per word. */
export function plagiarismCredits(words: number): number {
  return creditsForWords(words, CREDIT_COSTS.plagiarismPerWord);
}

/** Credits for fact checking a text of `words` words: 2 per word. */
export function factCheckCredits(words: number): number {
  return creditsForWords(words, CREDIT_COSTS.factCheckPerWord);
}

/**
 * Credits for comparing two texts: half a credit per word over the total words of both texts, ROUNDED UP to a
 * whole credit, i.e. `Math.ceil((firstWords + secondWords) / 2)`. The halves are summed before rounding, so
 * 1 + 2 words cost 2 credits (not 1 + 1), 2 + 2 words cost 2, 0 + 1 word costs 1 and 0 + 0 words cost 0.
 *
 * @param firstWords words in the first text, a non-negative integer
 * @param secondWords words in the second text, a non-negative integer
 * @throws {RangeError} if an argument is not a non-negative safe integer
 */
export function textCompareCredits(firstWords: number, secondWords: number): number {
  assertNonNegativeInteger('firstWords', firstWords);
  assertNonNegativeInteger('secondWords', secondWords);
  return creditsForWords(firstWords + secondWords, CREDIT_COSTS.textComparePerWord);
}
