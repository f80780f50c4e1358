import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { proseDatasetsRoot } from '../../../benchmarks/lib/prose.mjs';
import { alignSequences } from '../src/alignSequences.js';
import { compareTexts } from '../src/index.js';
import { matchItems } from '../src/matchItems.js';
import { tokenizePair } from '../src/tokenize.js';
import { Vocabulary } from '../src/vocabulary.js';
import { benchPairs } from './benchPairs.js';

interface GoldenPair {
  sha256: string;
  similarity_score: number;
  matching_word_count: number;
  total_word_counts: [number, number];
  items: number;
}

/**
 * Results of compareTexts made with the code before the single-pass word scanner and the reuse of repeated lines
 * (main 6eadb92), on the pairs of the benchmark and more (`benchPairs`): the SHA-256 of the whole JSON result and a
 * few of its figures. Regenerated only on purpose; a speed-up must leave every result as it was.
 */
const golden = JSON.parse(readFileSync(new URL('./golden/benchPairs.json', import.meta.url), 'utf8')) as {
  pairs: Record<string, GoldenPair>;
};

describe.skipIf(proseDatasetsRoot() === undefined)('compareTexts on the benchmark pairs of real prose (shared datasets)', () => {
  const pairs = benchPairs();

  it('covers every golden pair', () => {
    expect(pairs.map((p) => p.name).sort()).toEqual(Object.keys(golden.pairs).sort());
  });

  for (const { name, first, second } of pairs) {
    it(`gives the same result as before on ${name}`, () => {
      const result = compareTexts(first, second);
      const want = golden.pairs[name]!;
      expect(result.similarity_score).toBe(want.similarity_score);
      expect(result.first_text.matching_word_count).toBe(want.matching_word_count);
      expect([result.first_text.total_word_count, result.second_text.total_word_count]).toEqual(want.total_word_counts);
      expect(result.first_text.items.length).toBe(want.items);
      expect(createHash('sha256').update(JSON.stringify(result)).digest('hex')).toBe(want.sha256);
    });
  }

  it('gives the same results again in reverse order (each comparison reuses the arrays of the one before)', () => {
    for (const { name, first, second } of [...pairs].reverse()) {
      const result = compareTexts(first, second);
      expect(createHash('sha256').update(JSON.stringify(result)).digest('hex'), name).toBe(golden.pairs[name]!.sha256);
    }
  });

  it('matches the same items with and without the words the second text took from the first', () => {
    for (const { name, first, second } of pairs) {
      const vocabulary = new Vocabulary();
      const [a, b] = tokenizePair(first, second, vocabulary);
      const runs = alignSequences(a.keys, b.keys, vocabulary.keyCount, { minAnchorWords: 3, anchorsOnly: false });
      expect(b.copiedWithPrevious, name).toBeDefined();
      const withCopies = matchItems(a, b, runs);
      const checked = matchItems(a, { ...b, copiedWithPrevious: undefined }, runs);
      expect(withCopies, name).toEqual(checked);
    }
  });
});
