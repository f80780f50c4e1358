import type { AlignedPassage } from './alignPassages.js';
import { featureSet, hasCounterpart } from './wordFeatures.js';
import type { WordFeatures } from './wordFeatures.js';

/** Kind of each input word of a passage: 2 identical, 1 similar, 0 unmatched (inserted). */
export const IDENTICAL = 2;
export const SIMILAR = 1;

/**
 * Classifies the input words of a passage against the source passage: a word is identical when the same
 * word (same key) is still available in the source passage (each source word pairs with one input word), similar
 * when a source word shares its stem or a WordNet synset, and unmatched otherwise.
 */
export function classifyWords(input: WordFeatures, source: WordFeatures, passage: AlignedPassage): Uint8Array {
  const available = new Map<string, number>();
  const sourceKeys = source.text.tokens.keys;
  for (let j = passage.sourceFrom; j < passage.sourceTo; j++) available.set(sourceKeys[j]!, (available.get(sourceKeys[j]!) ?? 0) + 1);
  const features = featureSet(source, passage.sourceFrom, passage.sourceTo);
  const kinds = new Uint8Array(passage.inputTo - passage.inputFrom);
  const inputKeys = input.text.tokens.keys;
  for (let i = passage.inputFrom; i < passage.inputTo; i++) {
    const left = available.get(inputKeys[i]!) ?? 0;
    if (left > 0) {
      available.set(inputKeys[i]!, left - 1);
      kinds[i - passage.inputFrom] = IDENTICAL;
    } else if (hasCounterpart(input, i, features)) {
      kinds[i - passage.inputFrom] = SIMILAR;
    }
  }
  return kinds;
}
