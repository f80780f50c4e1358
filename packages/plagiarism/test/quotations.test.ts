import { describe, expect, it } from 'vitest';
import { checkPlagiarism, isInReferenceList, quotedRanges, referenceEntries, SourceIndex } from '../src/index.js';
import { hasAttribution } from '../src/citations.js';

/** The quoted texts of `text`. */
const quotes = (text: string): string[] => quotedRanges(text).map(([s, e]) => text.slice(s, e));

// Sentences written for these tests.
describe('quotedRanges', () => {
  it('finds quotations in the marks of several scripts and conventions', () => {
    expect(quotes('He wrote „Die Brücke ist alt“ and «le pont est vieux» and 「橋は古い」.')).toEqual(['Die Brücke ist alt', 'le pont est vieux', '橋は古い']);
    expect(quotes('Hon sa ”bron är gammal” och »den är smal«.')).toEqual(['bron är gammal', 'den är smal']);
  });

  it('reads ‘single quotes’ and leaves apostrophes alone', () => {
    expect(quotes('She said ‘the bridge isn’t safe’ and left, it’s late.')).toEqual(['the bridge isn’t safe']);
  });

  it('pairs straight quotes that open before a word and close after one', () => {
    expect(quotes('He wrote "the bridge is old" and "it needs repair" twice.')).toEqual(['the bridge is old', 'it needs repair']);
    expect(quotes('A 12" record and "a quoted phrase" here.')).toEqual(['a quoted phrase']);
  });

  it('finds a quotation inside a quotation, in other marks', () => {
    expect(quotes('"Look at the radar. „The bridge is old“, Moreau said. Fly on," he told us.')).toEqual(['Look at the radar. „The bridge is old“, Moreau said. Fly on,', 'The bridge is old']);
    expect(quotes('“She told me ‘the bridge is old’ yesterday”')).toEqual(['She told me ‘the bridge is old’ yesterday', 'the bridge is old']);
  });

  it('finds block quotations marked with > or indented', () => {
    const text = 'Smith writes:\n\n> The bridge is old.\n> It needs repair.\n\nAnd in the report:\n\n    Traffic fell by half.\n';
    expect(quotes(text)).toEqual(['The bridge is old.\n> It needs repair.', 'Traffic fell by half.']);
  });
});

describe('hasAttribution', () => {
  /** Whether the first quotation of `text` is attributed (no source names). */
  const attributed = (text: string): boolean => {
    const [range] = quotedRanges(text);
    return hasAttribution(text, range![0], range![1], []);
  };

  it('takes a reporting verb next to the quotation, in several languages', () => {
    expect(attributed('As the mayor said, “the bridge is closed until spring.”')).toBe(true);
    expect(attributed('«Le pont est fermé jusqu’au printemps», selon le maire.')).toBe(true);
    expect(attributed('「橋は春まで閉鎖される」と市長は述べた。')).toBe(true);
  });

  it('does not take a reporting verb two sentences away, the writer reporting someone else', () => {
    expect(attributed('We walked home. “The bridge is closed until spring.” The ferry ran late again that evening, '
      + 'and we waited for an hour in the rain with the other passengers. The council said the timetable would change.')).toBe(false);
  });

  it('takes a citation marker, not any number in brackets or a dash before a word', () => {
    expect(attributed('“The bridge is closed until spring” (Okafor, 2019).')).toBe(true);
    expect(attributed('“The bridge is closed until spring” [4].')).toBe(true);
    expect(attributed('The span (built in 1953) was long. “The bridge is closed until spring.” It rained.')).toBe(false);
    expect(attributed('The vote was 9-1 in favour - the first such vote. “The bridge is closed until spring.”')).toBe(false);
    expect(attributed('“The bridge is closed until spring.” — Ada Lindqvist')).toBe(true);
  });
});

describe('reference list', () => {
  it('reads the entries after a References heading and matches a source by author or title', () => {
    const entries = referenceEntries('Body text.\n\nReferences\nOkafor, A. (2019). Bridges of the north. Press.\n');
    expect(entries).toEqual(['okafor, a. (2019). bridges of the north. press.']);
    expect(isInReferenceList(entries, ['Okafor', 'Some title', 'example.com'])).toBe(true);
    expect(isInReferenceList(entries, ['Lindqvist', 'Other title', 'example.org'])).toBe(false);
  });
});

describe('checkPlagiarism with attributed quotations', () => {
  const SOURCE = 'The old harbour bridge carried four thousand carts a day before the railway opened in the valley. '
    + 'Its stone arches were rebuilt twice after floods destroyed the eastern piers in the winter storms.';
  const QUOTED = 'The old harbour bridge carried four thousand carts a day before the railway opened in the valley.';
  const OWN = 'Our class walked along the river on a cold morning and counted the boats that passed under the arches. '
    + 'Later we drew maps of the town and compared them with photographs from the museum archive.';

  async function check(text: string) {
    const index = SourceIndex.open();
    index.add({ url: 'https://history.example/bridge', title: 'Harbour history', author: 'Ada Lindqvist', text: SOURCE });
    const result = await checkPlagiarism(text, { index, now: () => new Date(0) });
    index.close();
    return result;
  }

  it('does not count a block quotation introduced by its author', async () => {
    const result = await check(`${OWN}\n\nLindqvist writes:\n\n> ${QUOTED}\n\n${OWN}`);
    expect(result.result.totalPlagiarismWords).toBe(0);
    expect(result.sources[0]?.citation).toBe(true);
  });

  it('does not count a quotation whose source the reference list names', async () => {
    const result = await check(`${OWN} “${QUOTED}” ${OWN}\n\nReferences\nLindqvist, A. Harbour history. 2020.`);
    expect(result.result.totalPlagiarismWords).toBe(0);
  });

  it('reports a quotation without the lead-in words the source shares ("According to X," where it says "according to Y")', async () => {
    const index = SourceIndex.open();
    const source = 'Rents in the harbour district rose by a third in two years, according to the port authority, and families moved inland to the valley towns.';
    index.add({ url: 'https://news.example/rents', title: 'Rents', author: 'Sam Okafor', text: source });
    const quote = 'Rents in the harbour district rose by a third in two years, according to the port authority';
    const text = `${OWN} According to Okafor, "${quote}" [2]. ${OWN}`;
    const result = await checkPlagiarism(text, { index, now: () => new Date(0) });
    index.close();
    expect(result.result.totalPlagiarismWords).toBe(0);
    expect(result.sources[0]?.plagiarismFound.map((p) => p.sequence)).toEqual([quote]);
  });

  it('does not count an attributed quotation inside the writer’s own quoted dialogue', async () => {
    const result = await check(`${OWN} The guide spoke up "Look at the arches. „${QUOTED}“, Lindqvist said. ${OWN}" and we walked on.`);
    expect(result.result.totalPlagiarismWords).toBe(0);
    expect(result.sources[0]?.citation).toBe(true);
  });

  it('counts a copied sentence that quotes someone with the source’s own attribution, put in quotation marks', async () => {
    const index = SourceIndex.open();
    const source = 'The club met the league on Monday. "We need to give the harbour crowd a proper stand before the spring season opens," Feehan added. Tickets go on sale in March.';
    index.add({ url: 'https://news.example/stand', title: 'Stand', author: 'Sam Okafor', text: source });
    const copy = '"We need to give the harbour crowd a proper stand before the spring season opens," Feehan added.';
    const result = await checkPlagiarism(`${OWN} “${copy}” ${OWN}`, { index, now: () => new Date(0) });
    index.close();
    expect(result.result.totalPlagiarismWords).toBe(17);
    expect(result.sources[0]?.citation).toBe(false);
  });

  it('counts the same sentence in quotation marks without an attribution', async () => {
    const result = await check(`${OWN} “${QUOTED}” ${OWN}`);
    expect(result.result.totalPlagiarismWords).toBe(17);
    expect(result.sources[0]?.citation).toBe(false);
  });
});
