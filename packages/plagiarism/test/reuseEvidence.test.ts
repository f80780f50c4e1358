import { describe, expect, it } from 'vitest';
import { analyzeText, wordFeatures } from '../src/index.js';
import { chainEvidence, verbatimRunWeight } from '../src/reuseEvidence.js';

const featuresOf = (a: string, b: string) => {
  const vocabulary = new Map<string, number>();
  const input = wordFeatures(analyzeText(a, 'en', false), vocabulary);
  const source = wordFeatures(analyzeText(b, 'en', false), vocabulary);
  return { input, source, vocabulary };
};
const SHARED = 'the committee approved the new harbour budget after a long debate about ferries and bridges';

describe('reuse evidence', () => {
  it('weighs the longest verbatim run of at least minWords words by its content words', () => {
    const { input, source, vocabulary } = featuresOf(`Yesterday ${SHARED} in town.`, `Reportedly ${SHARED} on Monday.`);
    const ones = new Float32Array(vocabulary.size).fill(1);
    const n = (x: typeof input) => x.text.tokens.length;
    // committee approved new harbour budget long debate ferries bridges: 9 content words
    expect(verbatimRunWeight(input, source, 0, n(input), 0, n(source), 12, ones)).toBe(9);
    expect(verbatimRunWeight(input, source, 0, n(input), 0, n(source), 20, ones)).toBe(0);
    // A run made only of words every document uses weighs nothing.
    expect(verbatimRunWeight(input, source, 0, n(input), 0, n(source), 12, new Float32Array(vocabulary.size))).toBe(0);
  });

  it('counts consecutive content words that recur in the same order, not the same words shuffled', () => {
    const ordered = featuresOf('harbour budget ferries bridges', 'the harbour budget pays ferries and bridges');
    const ones = new Float32Array(ordered.vocabulary.size).fill(1);
    expect(chainEvidence(ordered.input, ordered.source, 0, 4, 0, ordered.source.text.tokens.length, ones)).toBe(3);
    const shuffled = featuresOf('harbour budget ferries bridges', 'bridges ferries budget harbour');
    expect(chainEvidence(shuffled.input, shuffled.source, 0, 4, 0, 4, new Float32Array(shuffled.vocabulary.size).fill(1))).toBe(0);
  });
});
