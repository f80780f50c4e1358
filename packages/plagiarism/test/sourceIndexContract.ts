import { afterEach, describe, expect, it } from 'vitest';
import { analyzePlagiarism, analyzeText, checkPlagiarism, fingerprintsOf, InvalidDocumentError } from '../src/index.js';
import type { SourceDocument, SourceIndex } from '../src/index.js';
import { BEES, expectExactOffsets, FILLER, PRESS, VOLCANO } from './helpers.js';
import { phonePolicyEssays } from './sameTopic.js';

const query = (text: string) => fingerprintsOf(analyzeText(text, 'en', false));

/** The three fixture sources of the check tests. */
export const COLLECTION: readonly SourceDocument[] = [
  { url: 'https://history.example.com/press', title: 'The press', author: 'Ann Smith', publishedDate: Date.UTC(2020, 0, 1), text: PRESS },
  { url: 'https://www.geo.example.org/volcano', title: 'Volcanoes', text: VOLCANO },
  { url: 'https://bees.example.net/a', title: 'Bees', text: BEES },
];

const essays = phonePolicyEssays(61);
/** Written for these tests: a paragraph on the essays' topic with content of its own (as in sameTopic.test.ts). */
const POUCH = 'Last spring our principal tested a pouch system in which every phone was sealed inside a magnetic bag at the classroom door. Detentions for texting fell from forty-one to six within the first semester, according to the attendance office ledger. The pouches cost eleven dollars each and were paid for by the parent association bake sale.';

/** A same-topic family (60 essays, one carrying POUCH) next to the three fixture sources. */
export const FAMILY: readonly SourceDocument[] = essays.slice(1).map((essay, i) => ({
  url: `https://essays.example/${i}`, title: `essay ${i}`, text: i === 4 ? `${essay} ${POUCH}` : essay,
}));

/** Check inputs whose results must not depend on the store: verbatim, disguised, reordered, same-topic, clean. */
export const CHECK_INPUTS: readonly string[] = [
  FILLER + VOLCANO.slice(0, VOLCANO.indexOf('Eruptions') - 1) + ' ' + FILLER,
  FILLER + 'Johannes Gutenberg built a movable type system that altered how books were produced throughout Europe. '
    + 'Before his inventions, scribes copying manuscripts by hand was a slow and expensive process. ' + FILLER,
  BEES.split(/(?<=\.) /).reverse().join(' ') + ' ' + FILLER,
  `${FILLER}As Ann Smith wrote, "Before his invention, scribes copied manuscripts by hand, a slow and expensive process." ${FILLER}`,
  essays[0]!,
  `${essays[0]} ${POUCH}`,
  FILLER.repeat(3),
];

/**
 * The behaviours every store of a {@link SourceIndex} shares (memory, SQLite, PostgreSQL), through the async
 * methods that work on all of them. `open` gives an empty index.
 */
export function describeSourceIndexContract(name: string, open: () => Promise<SourceIndex>): void {
  describe(name, () => {
    const opened: SourceIndex[] = [];
    const empty = async (): Promise<SourceIndex> => {
      const index = await open();
      opened.push(index);
      return index;
    };
    afterEach(async () => {
      for (const index of opened.splice(0)) await index.closeAsync();
    });

    it('finds the document that shares fingerprints, best first', async () => {
      const index = await empty();
      expect(await index.addManyAsync(COLLECTION)).toBe(3);
      expect(index.size).toBe(3);
      const found = index.candidates(query('Worker bees gather nectar and pollen from flowers and turn the nectar into honey.'));
      expect(index.getById(found[0]!.id)?.document.url).toBe('https://bees.example.net/a');
      expect(index.get('https://history.example.com/press')).toMatchObject({ title: 'The press', author: 'Ann Smith', publishedDate: Date.UTC(2020, 0, 1), text: PRESS });
    });

    it('replaces a document added again under the same url and removes on request', async () => {
      const index = await empty();
      await index.addAsync({ url: 'https://a.example/x', text: PRESS });
      await index.addAsync({ url: 'https://a.example/x', text: VOLCANO });
      expect(index.size).toBe(1);
      expect(index.candidates(query(PRESS))).toEqual([]);
      expect(index.candidates(query(VOLCANO)).length).toBe(1);
      expect(await index.removeAsync('https://a.example/x')).toBe(true);
      expect(await index.removeAsync('https://a.example/x')).toBe(false);
      expect(index.size).toBe(0);
      expect(index.candidates(query(VOLCANO))).toEqual([]);
    });

    it('counts the documents of each content-word stem as documents come, change and go', async () => {
      const index = await empty();
      await index.addManyAsync([{ url: 'https://a.example/1', text: 'Volcanoes erupt. Volcanoes sleep.' }, { url: 'https://a.example/2', text: 'Bees sleep in the hive.' }]);
      const stems = index.stemFrequencies();
      expect([stems.documents, stems.count('volcano'), stems.count('sleep'), stems.count('the')]).toEqual([2, 1, 2, 0]);
      await index.addAsync({ url: 'https://a.example/1', text: 'Rivers sleep.' });
      expect([stems.documents, stems.count('volcano'), stems.count('river'), stems.count('sleep')]).toEqual([2, 0, 1, 2]);
      await index.removeAsync('https://a.example/2');
      expect([stems.documents, stems.count('bee'), stems.count('sleep')]).toEqual([1, 0, 1]);
    });

    it('keeps a fractional publishedDate (a file time) as whole milliseconds', async () => {
      const index = await empty();
      await index.addAsync({ url: 'https://a.example/t', text: PRESS, publishedDate: 1795775943293.1575 });
      expect(index.get('https://a.example/t')?.publishedDate).toBe(1795775943293);
      await expect(index.addAsync({ url: 'u', text: PRESS, publishedDate: 1e300 })).rejects.toThrow(/publishedDate/);
    });

    it('rejects malformed documents naming the field', async () => {
      const index = await empty();
      await expect(index.addAsync({ url: '', text: 'x' })).rejects.toBeInstanceOf(InvalidDocumentError);
      await expect(index.addAsync({ url: 'u', text: 3 as unknown as string })).rejects.toThrow(/document\.text/);
      await index.refresh();
      expect(index.size).toBe(0);
    });

    it('finds a verbatim and a disguised passage with exact offsets', async () => {
      const index = await empty();
      await index.addManyAsync(COLLECTION);
      const verbatim = await checkPlagiarism(CHECK_INPUTS[0]!, { index });
      expectExactOffsets(verbatim);
      expect(verbatim.sources.map((s) => s.url)).toEqual(['https://www.geo.example.org/volcano']);
      expect(verbatim.result.identicalWordCounts).toBeGreaterThan(25);
      const disguised = await checkPlagiarism(CHECK_INPUTS[1]!, { index, language: 'en' });
      expect(disguised.sources[0]!.url).toBe('https://history.example.com/press');
      expect(disguised.similarWords.map((w) => w.word)).toEqual(expect.arrayContaining(['altered', 'inventions', 'copying']));
    });

    it('weighs words by the collection: a shared topic is not reuse, a copied paragraph is', async () => {
      const index = await empty();
      await index.addManyAsync(FAMILY);
      const lenient = { index, bounds: { min: 0, max: 1e9 }, language: 'en' as const };
      expect((await analyzePlagiarism(CHECK_INPUTS[4]!, lenient)).matches.flatMap((m) => m.passages)).toEqual([]);
      const copied = await analyzePlagiarism(CHECK_INPUTS[5]!, lenient);
      expect(copied.matches.filter((m) => m.passages.length > 0).map((m) => m.found.document.url)).toEqual(['https://essays.example/4']);
    });
  });
}
