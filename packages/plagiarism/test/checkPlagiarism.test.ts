import { describe, expect, it } from 'vitest';
import {
  checkPlagiarism, checkPlagiarismV1, findSources, FoundSourcesProvider, InvalidExcludedSourceError, SourceIndex, TextLengthError, toV1Result,
  UnsupportedLanguageError,
} from '../src/index.js';
// The engine's result schemas, read from its sources: the results must parse with them.
import { plagiarismResult, plagiarismV1Result } from '../../engine/src/schemas/results.js';
import { BEES, expectExactOffsets, FILLER, PRESS, VOLCANO } from './helpers.js';

function collection(): SourceIndex {
  const index = SourceIndex.open();
  index.addMany([
    { url: 'https://history.example.com/press', title: 'The press', author: 'Ann Smith', publishedDate: Date.UTC(2020, 0, 1), text: PRESS },
    { url: 'https://www.geo.example.org/volcano', title: 'Volcanoes', text: VOLCANO },
    { url: 'https://bees.example.net/a', title: 'Bees', text: BEES },
  ]);
  return index;
}

const withCredits = (r: object) => ({ ...r, credits_used: 0, credits_remaining: 0 });

describe('checkPlagiarism', () => {
  it('gives the same result from the sources found apart (findSources, FoundSourcesProvider)', async () => {
    const text = FILLER + VOLCANO.slice(0, VOLCANO.indexOf('Eruptions') - 1) + ' ' + BEES.slice(0, 200) + FILLER;
    const now = () => new Date(Date.UTC(2026, 0, 1));
    const index = collection();
    const found = await findSources(text, { index });
    expect(found.map((f) => f.document.url).sort()).toEqual(['https://bees.example.net/a', 'https://www.geo.example.org/volcano']);
    expect(structuredClone(found)).toEqual(found);
    const apart = await checkPlagiarism(text, { providers: [new FoundSourcesProvider(found)], now });
    expect(apart).toEqual(await checkPlagiarism(text, { index, now }));
  });

  it('finds a verbatim passage with exact offsets and identical words', async () => {
    const copied = VOLCANO.slice(0, VOLCANO.indexOf('Eruptions') - 1);
    const text = FILLER + copied + ' ' + FILLER;
    const result = await checkPlagiarism(text, { index: collection() });
    expectExactOffsets(result);
    expect(result.sources).toHaveLength(1);
    const [source] = result.sources;
    expect(source!.url).toBe('https://www.geo.example.org/volcano');
    expect(result.indexes).toHaveLength(1);
    expect(result.indexes[0]!.sequence).toBe(copied.replace(/\.$/, ''));
    expect(result.result.similarWordCounts).toBe(0);
    expect(result.result.identicalWordCounts).toBe(source!.identicalWordCounts);
    expect(result.result.identicalWordCounts).toBeGreaterThan(25);
    expect(plagiarismResult.safeParse(withCredits(result)).success).toBe(true);
  });

  it('finds a disguised passage and counts similar words apart', async () => {
    const text = FILLER + 'Johannes Gutenberg built a movable type system that altered how books were produced throughout Europe. '
      + 'Before his inventions, scribes copying manuscripts by hand was a slow and expensive process. ' + FILLER;
    const result = await checkPlagiarism(text, { index: collection(), language: 'en' });
    expectExactOffsets(result);
    expect(result.sources[0]!.url).toBe('https://history.example.com/press');
    expect(result.result.similarWordCounts).toBeGreaterThan(0);
    expect(result.similarWords.map((w) => w.word)).toEqual(expect.arrayContaining(['altered', 'inventions', 'copying']));
    expect(result.result.totalPlagiarismWords).toBe(result.result.identicalWordCounts + result.result.similarWordCounts);
  });

  it('aligns reordered sentences and reports nothing for unrelated text', async () => {
    const sentences = BEES.split(/(?<=\.) /);
    const text = [sentences[2], sentences[0], sentences[1]].join(' ') + ' ' + FILLER;
    const result = await checkPlagiarism(text, { index: collection() });
    expectExactOffsets(result);
    expect(result.sources.map((s) => s.url)).toEqual(['https://bees.example.net/a']);
    expect(result.result.score).toBeGreaterThan(60);
    const clean = await checkPlagiarism(FILLER.repeat(3), { index: collection() });
    expect(clean.sources).toEqual([]);
    expect(clean.result.score).toBe(0);
  });

  it('sees through zero-width and homoglyph attacks and keeps offsets into the original', async () => {
    const attacked = 'Worker b\u0435es gather nec\u200Btar and pollen from flowers and turn the nectar into h\u043Eney inside the hive.';
    const text = FILLER + attacked + ' ' + FILLER;
    const result = await checkPlagiarism(text, { index: collection() });
    expectExactOffsets(result);
    expect(result.attackDetected).toEqual({ zero_width_space: true, homoglyph_attack: true });
    expect(result.indexes[0]!.sequence).toBe(attacked.slice(0, -1));
    expect(result.result.identicalWordCounts).toBe(17);
  });

  it('reports excluded sources without counting them: domains with subdomains, exact URLs, case-sensitive', async () => {
    const text = PRESS.slice(0, 170) + ' ' + VOLCANO.slice(0, 160);
    const index = collection();
    const byDomain = await checkPlagiarism(text, { index, excludedSources: ['example.com'] });
    expectExactOffsets(byDomain);
    const press = byDomain.sources.find((s) => s.url.includes('press'))!;
    expect(press.is_excluded).toBe(true);
    expect(byDomain.sources.find((s) => s.url.includes('volcano'))!.is_excluded).toBe(false);
    expect(byDomain.result.sourceCounts).toBe(1);
    expect(byDomain.result.totalPlagiarismWords).toBeLessThan(press.plagiarismWords + byDomain.sources.find((s) => s.url.includes('volcano'))!.plagiarismWords);
    const byUrl = await checkPlagiarism(text, { index, excludedSources: ['https://www.geo.example.org/volcano'] });
    expect(byUrl.sources.filter((s) => s.is_excluded).map((s) => s.url)).toEqual(['https://www.geo.example.org/volcano']);
    const otherCase = await checkPlagiarism(text, { index, excludedSources: ['Example.com', 'https://www.geo.example.org/Volcano'] });
    expect(otherCase.sources.every((s) => !s.is_excluded)).toBe(true);
    expect(otherCase.result.sourceCounts).toBe(2);
  });

  it('treats attributed quotations and cited sites as citations', async () => {
    const quote = 'Before his invention, scribes copied manuscripts by hand, a slow and expensive process.';
    const text = `${FILLER}As Ann Smith wrote, "${quote}" ${FILLER}`;
    const quoted = await checkPlagiarism(text, { index: collection() });
    expectExactOffsets(quoted);
    expect(quoted.sources[0]!.citation).toBe(true);
    expect(quoted.result.totalPlagiarismWords).toBe(0);
    expect(quoted.indexes).toEqual([]);
    const cited = await checkPlagiarism(`${FILLER}${BEES.slice(0, 200)} (see bees.example.net for more). ${FILLER}`, { index: collection() });
    expect(cited.citations).toEqual(['bees.example.net']);
    expect(cited.sources[0]!.citation).toBe(true);
    expect(cited.result.score).toBe(0);
  });

  it('rejects bad input with typed errors naming the field', async () => {
    await expect(checkPlagiarism('too short')).rejects.toMatchObject({ code: 'TEXT_LENGTH', field: 'text' });
    await expect(checkPlagiarism('x'.repeat(120_001))).rejects.toBeInstanceOf(TextLengthError);
    await expect(checkPlagiarism(FILLER.repeat(2), { language: 'xx' })).rejects.toBeInstanceOf(UnsupportedLanguageError);
    await expect(checkPlagiarism(FILLER.repeat(2), { excludedSources: ['ftp://a.com/x'] })).rejects.toMatchObject({ field: 'excluded_sources' });
    await expect(checkPlagiarism(FILLER.repeat(2), { excludedSources: ['not a domain'] })).rejects.toBeInstanceOf(InvalidExcludedSourceError);
  });

  it('detects the language and builds the v1 result from the same alignment', async () => {
    const text = FILLER + BEES.slice(0, 180);
    const v2 = await checkPlagiarism(text, { index: collection(), now: () => new Date(0) });
    expect(v2.scanInformation).toEqual({ service: 'plagiarism', scanTime: '1970-01-01T00:00:00.000Z', inputType: 'text', language: 'en' });
    const v1 = toV1Result(v2);
    expect(v1.results_count).toBe(1);
    expect(v1.results[0]!.excerpts['0']).toBe(v2.sources[0]!.plagiarismFound[0]!.sequence);
    expect(plagiarismV1Result.safeParse(withCredits(v1)).success).toBe(true);
    await expect(checkPlagiarismV1('only a few words here', { index: collection() })).rejects.toMatchObject({ unit: 'words', field: 'text' });
    expect((await checkPlagiarismV1(text, { index: collection() })).results_count).toBe(1);
  });
});
