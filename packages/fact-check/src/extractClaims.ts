import { checkWorthinessFeatures, CHECK_WORTHINESS_FEATURE_COUNT } from './checkWorthinessFeatures.js';
import { loadModel } from './onnxModel.js';
import { resolveClaim } from './resolveClaim.js';
import type { Sentence } from './segmentSentences.js';
import { tokenize } from './tokenize.js';
import type { WordVectors } from './wordVectors.js';

/** A checkable statement taken from one sentence. */
export interface ExtractedClaim {
  /** Id of the sentence it comes from. */
  sentenceId: number;
  sentence: string;
  /** The sentence made self-contained (see `resolveClaim`). */
  claim: string;
  /** Check-worthiness probability, 0..1. */
  checkWorthiness: number;
}

export interface ExtractClaimsOptions {
  /**
   * At most this many claims, best first.
   * @default 12
   */
  maxClaims?: number;
  /**
   * Minimum check-worthiness probability of a claim.
   * @default 0.4
   */
  minCheckWorthiness?: number;
}

const HEDGED = /\b(i think|i believe|i feel|i guess|in my (opinion|view)|it seems|perhaps|maybe|probably)\b/i;

/**
 * Picks the sentences that state verifiable facts: questions, sentences of fewer than 4 words and openly hedged
 * sentences (`I think`, `maybe`) are never claims; the others are scored by the check-worthiness model and kept
 * above `minCheckWorthiness`, best first, at most `maxClaims`, each made self-contained from its context.
 */
export async function extractClaims(
  sentences: readonly Sentence[],
  vectors: WordVectors,
  options: ExtractClaimsOptions = {},
): Promise<ExtractedClaim[]> {
  const maxClaims = options.maxClaims ?? 12;
  const minCheckWorthiness = options.minCheckWorthiness ?? 0.4;
  const candidates = sentences.filter(
    (s) => !/\?["'”’)]*$/.test(s.text) && tokenize(s.text).length >= 4 && !HEDGED.test(s.text),
  );
  const model = await loadModel('checkworthiness');
  const probabilities = await model.run(
    candidates.map((s) => checkWorthinessFeatures(s.text, vectors)),
    CHECK_WORTHINESS_FEATURE_COUNT,
  );
  const scored = candidates.map((sentence, i) => ({ sentence, score: probabilities[i]?.[1] ?? 0 }));
  return scored
    .filter((c) => c.score >= minCheckWorthiness)
    .sort((a, b) => b.score - a.score || a.sentence.id - b.sentence.id)
    .slice(0, maxClaims)
    .map(({ sentence, score }) => ({
      sentenceId: sentence.id,
      sentence: sentence.text,
      claim: resolveClaim(sentence, sentences.filter((s) => s.id < sentence.id)),
      checkWorthiness: score,
    }));
}
