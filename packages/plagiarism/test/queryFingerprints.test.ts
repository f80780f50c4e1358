import { describe, expect, it } from 'vitest';
import { analyzeText, DEFAULT_CANDIDATE_OPTIONS, fingerprintsOf, IndexSourceProvider, queryFingerprintsOf, SourceIndex } from '../src/index.js';
import { hashGram } from '../src/hash.js';
import { contentStemHashes } from '../src/fingerprints.js';

// Written for this test: twelve content words, no stop words, each once.
const INPUT = 'harbour ferry budget tolls island boats winter timetable committee bridges storm quarry';

describe('queryFingerprintsOf', () => {
  it('holds every k-gram of the input, a superset of its winnowed fingerprints', () => {
    const text = analyzeText(INPUT, 'en', false);
    const all = queryFingerprintsOf(text);
    expect(all).toHaveLength(10);
    expect([...fingerprintsOf(text)].every((f) => all.includes(f))).toBe(true);
  });
});

describe('IndexSourceProvider with all k-grams', () => {
  it('fills free candidate slots with a document sharing a k-gram the input\'s winnowing left out, outside the background', () => {
    const text = analyzeText(INPUT, 'en', false);
    const words = contentStemHashes(text);
    const winnowed = new Set(fingerprintsOf(text));
    // A run of three content words whose gram the input's winnowing does not select.
    const at = [...Array(words.length - 2).keys()].find((i) => !winnowed.has(hashGram(words, i, 3)))!;
    expect(at).toBeDefined();
    const run = INPUT.split(' ').slice(at, at + 3).join(' ');
    const index = SourceIndex.open();
    index.add({ url: 'https://example.com/run', text: run });
    const provider = new IndexSourceProvider(index);
    const query = { text: INPUT, language: 'en' as const, candidates: DEFAULT_CANDIDATE_OPTIONS, fingerprints: () => fingerprintsOf(text) };
    expect(provider.findSources(query)).toEqual([]);
    expect(provider.findSources({ ...query, allFingerprints: () => queryFingerprintsOf(text) }))
      .toEqual([{ document: expect.objectContaining({ url: 'https://example.com/run' }), provider: 'index', background: false }]);
    index.close();
  });
});
