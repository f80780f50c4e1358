import type { StemFrequencies } from './stemFrequencies.js';
import type { WordFeatures } from './wordFeatures.js';

/**
 * Fewest candidate documents for a candidate background: the rates of a handful of documents say nothing about a
 * topic.
 */
export const MIN_BACKGROUND_CANDIDATES = 5;

/**
 * Fewest documents of a collection for its stem frequencies to serve as a background. Ten documents on one matter
 * already tell its formula words from the rest: in the 16 articles of the Universal Declaration of Human Rights
 * (scripts/plagiarism/languages.mjs, development draws 1-3), "Everyone has the right to freedom of" is in most of
 * them, and without a background those formula sentences were reported as reuse (span precision 0.63 to 0.79 in
 * en, fr, de, ja, hi, ko at 50 documents; 0.93 to 1.00 at 10). Issue 19 had set 50.
 */
export const MIN_BACKGROUND_COLLECTION = 10;

/** `log(n / df) / log(n)`: 1 for a word of one document, 0 for a word of all of them. */
const rarity = (df: number, n: number): number => (df <= 1 ? 1 : Math.max(0, Math.log(n / df) / Math.log(n)));

/**
 * Rarity weight (0..1) of each stem id of `vocabulary`, the least of two backgrounds:
 * - the candidate sources of the input (at least {@link MIN_BACKGROUND_CANDIDATES}): the documents closest to the
 *   input, so in a collection written to one prompt or in one field, its topic neighbours;
 * - the whole collection of the index (at least {@link MIN_BACKGROUND_COLLECTION} documents).
 * A word every essay on the prompt uses is evidence of the topic, not of reuse, and weighs about 0; a word only
 * the aligned source shares weighs 1 (the inverse document frequency weighting of Sanchez-Perez, Sidorov and
 * Gelbukh 2014, with these collections as background). Returns undefined without a background: every word
 * then weighs 1.
 */
export function backgroundWeights(candidates: readonly WordFeatures[], vocabulary: ReadonlyMap<string, number>,
  collection?: StemFrequencies): Float32Array | undefined {
  const size = vocabulary.size;
  const useCandidates = candidates.length >= MIN_BACKGROUND_CANDIDATES;
  const useCollection = collection !== undefined && collection.documents >= MIN_BACKGROUND_COLLECTION;
  if (!useCandidates && !useCollection) return undefined;
  const weights = new Float32Array(size).fill(1);
  if (useCandidates) {
    const df = new Uint32Array(size);
    const seenIn = new Int32Array(size).fill(-1);
    candidates.forEach((words, d) => {
      for (const stem of words.stemIds) {
        if (stem < 0 || seenIn[stem] === d) continue;
        seenIn[stem] = d;
        df[stem] = df[stem]! + 1;
      }
    });
    for (let s = 0; s < size; s++) weights[s] = rarity(df[s]!, candidates.length);
  }
  if (useCollection) {
    for (const [stem, id] of vocabulary) weights[id] = Math.min(weights[id]!, rarity(collection.count(stem), collection.documents));
  }
  return weights;
}
