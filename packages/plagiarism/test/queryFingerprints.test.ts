import { describe, expect, it } from 'vitest';
import { analyzeText, DEFAULT_CANDIDATE_OPTIONS, findSources, findSourcesOf, fingerprintsOf, IndexSourceProvider, prepareSourceQuery, queryFingerprintsOf, SourceIndex } from '../src/index.js';
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

describe('prepareSourceQuery and findSourcesOf (issue 26: the text\'s part of the lookup runs in a worker)', () => {
  // Written for this test: a document whose two sentences the input copies, one of them reworded.
  const SOURCE = 'The harbour ferry budget was cut by the island committee after the winter storm closed the quarry road. ' +
    'Boats now follow a reduced timetable, and the bridges toll pays for the repairs.';
  const TEXT = 'News from the coast. The harbour ferry budget was cut by the island committee after the winter storm ' +
    'closed the quarry road. Since then boats follow a smaller timetable while the bridges toll funds repairs.';

  it('finds the same sources as findSources, for the index\'s scheme and for a provider asking another', async () => {
    const index = SourceIndex.open();
    index.add({ url: 'https://example.com/ferry', text: SOURCE });
    index.add({ url: 'https://example.com/unrelated', text: 'Orchards bloom in spring when bees visit the apple trees.' });
    const asked: { k: number; window: number }[] = [];
    const other = {
      id: 'other',
      findSources(query: Parameters<IndexSourceProvider['findSources']>[0]) {
        asked.push({ k: 2, window: 3 });
        return [{ document: { url: `https://other.example/${query.fingerprints({ k: 2, window: 3 }).join('-')}/${query.allFingerprints?.({ k: 2, window: 3 }).length}`, text: 'x' }, provider: 'other' }];
      },
    };
    const options = { index, providers: [other], language: 'auto' };
    const expected = await findSources(TEXT, options);
    const query = prepareSourceQuery(TEXT, { language: 'auto' }, [index.fingerprintOptions]);
    expect(query.language).toBe('en');
    expect(query.fingerprints).toHaveLength(1);
    const found = await findSourcesOf(TEXT, structuredClone(query), options);
    expect(found).toEqual(expected);
    expect(found.map((f) => f.document.url)).toContain('https://example.com/ferry');
    expect(asked).toHaveLength(2);
    index.close();
  });

  it('refuses what findSources refuses, with the same errors', () => {
    expect(() => prepareSourceQuery(TEXT, { language: 'xx' })).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_LANGUAGE' }));
    expect(() => prepareSourceQuery('short', { bounds: { min: 100, max: 1000 } })).toThrow(expect.objectContaining({ code: 'TEXT_LENGTH' }));
  });
});
