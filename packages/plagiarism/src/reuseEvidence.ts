import { weighCounterparts } from './wordFeatures.js';
import type { WordFeatures } from './wordFeatures.js';

/** Most content words between two matched words of an order-preserving chain, in the source. */
export const CHAIN_SPAN = 3;

/**
 * Rarity-weighted soft Dice similarity of two word ranges (each content word weighs its rarity in the
 * background, see `backgroundWeights`), and the evidence: the weight of the matched words, averaged over both
 * sides. Without weights every word weighs 1.
 */
export function weightedSimilarity(input: WordFeatures, source: WordFeatures, inFrom: number, inTo: number, srcFrom: number, srcTo: number,
  inSet: ReadonlySet<number>, srcSet: ReadonlySet<number>, weights: Float32Array | undefined): [similarity: number, evidence: number] {
  const [cIn, mIn] = weighCounterparts(input, inFrom, inTo, srcSet, weights);
  const [cSrc, mSrc] = weighCounterparts(source, srcFrom, srcTo, inSet, weights);
  return [cIn + cSrc === 0 ? 0 : (mIn + mSrc) / (cIn + cSrc), (mIn + mSrc) / 2];
}

/** Summed rarity weight of the content words of `words[from, from + length)`. */
export function runWeight(words: WordFeatures, from: number, length: number, weights: Float32Array): number {
  let sum = 0;
  for (let i = from; i < from + length; i++) {
    const stem = words.stemIds[i]!;
    if (stem >= 0) sum += weights[stem] ?? 1;
  }
  return sum;
}

/**
 * Order-preserving evidence of reuse (after the chains of matches of Glinos 2014): for each pair of consecutive
 * content words of the input range whose stems occur in the same order in the source range, at most
 * {@link CHAIN_SPAN} content words apart, the lesser rarity weight of the two. Topic words shared in any order
 * are no chain, and a stock bigram of the topic weighs nothing.
 */
export function chainEvidence(input: WordFeatures, source: WordFeatures, a: number, b: number, x: number, y: number,
  weights: Float32Array | undefined): number {
  const positions = new Map<number, number[]>();
  let rank = 0;
  for (let j = x; j < y; j++) {
    const stem = source.stemIds[j]!;
    if (stem < 0) continue;
    const list = positions.get(stem);
    if (list === undefined) positions.set(stem, [rank]);
    else list.push(rank);
    rank++;
  }
  const weightOf = (stem: number): number => (weights === undefined ? 1 : weights[stem] ?? 1);
  let evidence = 0;
  let previous = -1;
  for (let i = a; i < b; i++) {
    const stem = input.stemIds[i]!;
    if (stem < 0) continue;
    if (previous >= 0) {
      const before = positions.get(previous);
      const after = positions.get(stem);
      if (before !== undefined && after !== undefined && before.some((p) => after.some((q) => q > p && q - p <= CHAIN_SPAN))) {
        evidence += Math.min(weightOf(previous), weightOf(stem));
      }
    }
    previous = stem;
  }
  return evidence;
}

/**
 * Rarity weight of the content words of the longest run of identical words (any words, by key) shared by
 * `input[a, b)` and `source[x, y)` in the same order, among runs of at least `minWords` words; 0 when there is
 * none. A long verbatim run is reuse whatever the rarity of its words, unless all of them are the topic's own
 * (a template line every document carries).
 */
export function verbatimRunWeight(input: WordFeatures, source: WordFeatures, a: number, b: number, x: number, y: number,
  minWords: number, weights: Float32Array): number {
  const inKeys = input.text.tokens.keys;
  const srcKeys = source.text.tokens.keys;
  let previous = new Int32Array(y - x + 1);
  let current = new Int32Array(y - x + 1);
  let best = 0;
  for (let i = a; i < b; i++) {
    for (let j = x; j < y; j++) {
      const run = inKeys[i] === srcKeys[j] ? previous[j - x]! + 1 : 0;
      current[j - x + 1] = run;
      if (run >= minWords) best = Math.max(best, runWeight(input, i - run + 1, run, weights));
    }
    [previous, current] = [current, previous];
  }
  return best;
}
