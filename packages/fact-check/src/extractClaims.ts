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
 * above `minCheckWorthiness`, best first, at most `maxClaims`, each made self-contained from its context. A claim
 * that repeats is returned once, with the position of its first occurrence.
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
  const kept = candidates
    .map((sentence, i) => ({ sentence, score: probabilities[i]?.[1] ?? 0 }))
    .filter((c) => c.score >= minCheckWorthiness)
    .map(({ sentence, score }) => ({
      sentenceId: sentence.id,
      sentence: sentence.text,
      claim: resolveClaim(sentence, sentences.filter((s) => s.id < sentence.id)),
      checkWorthiness: score,
    }));
  return firstOccurrences(kept)
    .sort((a, b) => b.checkWorthiness - a.checkWorthiness || a.sentenceId - b.sentenceId)
    .slice(0, maxClaims);
}

/** The same statement compared regardless of case, spacing and final punctuation. */
function claimKey(claim: string): string {
  return claim.toLowerCase().replace(/\s+/g, ' ').replace(/[\s.!;:]+$/u, '').trim();
}

/**
 * One claim per statement: a text that repeats a sentence (or restates one that resolves to the same claim) is
 * checked once, at the sentence where the claim first appears.
 */
function firstOccurrences(claims: ExtractedClaim[]): ExtractedClaim[] {
  const first = new Map<string, ExtractedClaim>();
  for (const claim of claims) {
    const key = claimKey(claim.claim);
    const seen = first.get(key);
    if (!seen || claim.sentenceId < seen.sentenceId) first.set(key, claim);
  }
  return [...first.values()];
}
