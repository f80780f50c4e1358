import type { AnalyzedText } from './analyzeText.js';

/**
 * Integer features of the content words of a text: a stem id (>= 0) per content word, -1 for stop words, and
 * the word's WordNet synsets as negative ids. Ids come from a vocabulary shared by the texts being compared.
 */
export interface WordFeatures {
  readonly text: AnalyzedText;
  readonly stemIds: Int32Array;
  /** Synset features of word i: `-(synset + 1)`. */
  readonly synsetIds: readonly (readonly number[])[];
}

export function wordFeatures(text: AnalyzedText, vocabulary: Map<string, number>): WordFeatures {
  const n = text.tokens.length;
  const stemIds = new Int32Array(n).fill(-1);
  const synsetIds: (readonly number[])[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const synsets = text.synsets[i]!;
    synsetIds[i] = synsets.length === 0 ? synsets : synsets.map((s) => -(s + 1));
    if (text.content[i] !== 1) continue;
    const stem = text.stems[i]!;
    let id = vocabulary.get(stem);
    if (id === undefined) {
      id = vocabulary.size;
      vocabulary.set(stem, id);
    }
    stemIds[i] = id;
  }
  return { text, stemIds, synsetIds };
}

/** The features (stems and synsets) of the content words `from` to `to` (exclusive). */
export function featureSet(words: WordFeatures, from: number, to: number): Set<number> {
  const set = new Set<number>();
  for (let i = from; i < to; i++) {
    const stem = words.stemIds[i]!;
    if (stem < 0) continue;
    set.add(stem);
    for (const s of words.synsetIds[i]!) set.add(s);
  }
  return set;
}

/** Whether word i has a counterpart in `features`: the same stem, or a shared synset. */
export function hasCounterpart(words: WordFeatures, i: number, features: ReadonlySet<number>): boolean {
  const stem = words.stemIds[i]!;
  if (stem < 0) return false;
  if (features.has(stem)) return true;
  for (const s of words.synsetIds[i]!) if (features.has(s)) return true;
  return false;
}

/** Content words among `from` to `to`, and how many of them have a counterpart in `features`. */
export function countCounterparts(words: WordFeatures, from: number, to: number, features: ReadonlySet<number>): [number, number] {
  let content = 0;
  let matched = 0;
  for (let i = from; i < to; i++) {
    if (words.stemIds[i]! < 0) continue;
    content++;
    if (hasCounterpart(words, i, features)) matched++;
  }
  return [content, matched];
}

/**
 * Like {@link countCounterparts}, each content word weighted by `weights[stem]` (1 without weights): the weight of
 * the content words among `from` to `to`, and the weight of those with a counterpart in `features`.
 */
export function weighCounterparts(words: WordFeatures, from: number, to: number, features: ReadonlySet<number>,
  weights: Float32Array | undefined): [number, number] {
  let content = 0;
  let matched = 0;
  for (let i = from; i < to; i++) {
    const stem = words.stemIds[i]!;
    if (stem < 0) continue;
    const weight = weights === undefined ? 1 : weights[stem] ?? 1;
    content += weight;
    if (hasCounterpart(words, i, features)) matched += weight;
  }
  return [content, matched];
}
