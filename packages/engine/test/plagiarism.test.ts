import { describe, expect, it } from 'vitest';
import { countWords } from '@content-analysis/credits';
import { SourceIndex } from '@content-analysis/plagiarism';
import { plagiarismResult, plagiarismV1Result } from '../src/index.js';
import { meteredEngine, rejection } from './helpers.js';

const SOURCE =
  'The lighthouse keeper climbed the spiral stairs every evening at dusk to light the lamp. In winter storms the ' +
  'waves rose higher than the rocks, and salt spray coated the windows of the lantern room. He kept a logbook of ' +
  'every ship that passed the headland, noting its name, its flag and the hour it was sighted from the gallery.';

const ESSAY =
  'Coastal life has always depended on small acts of care. The lighthouse keeper climbed the spiral stairs every ' +
  'evening at dusk to light the lamp. Nobody in the village thought of this as heroic; it was simply the job, ' +
  'done the same way in fair weather and foul, for as long as anyone could remember.';

function setup(credits = 2000) {
  const index = SourceIndex.open();
  index.add({ url: 'https://history.example.org/lighthouse', title: 'The keeper', text: SOURCE });
  return meteredEngine({ credits, services: { plagiarismIndex: index } });
}

describe('/v2/plagiarism', () => {
  it('finds the copied sentence with exact offsets and charges two credits per word', async () => {
    const { engine, token } = await setup();
    const { result } = await engine.execute('plagiarism', { text: ESSAY, language: 'en' }, { token });
    expect(plagiarismResult.safeParse(result).success).toBe(true);
    expect(result.credits_used).toBe(2 * countWords(ESSAY));
    const sources = result.sources as Array<{ url: string; plagiarismFound: Array<{ startIndex: number; endIndex: number; sequence: string }> }>;
    expect(sources.map((s) => s.url)).toEqual(['https://history.example.org/lighthouse']);
    const copied = 'The lighthouse keeper climbed the spiral stairs every evening at dusk to light the lamp.';
    const start = ESSAY.indexOf(copied);
    const found = sources[0]!.plagiarismFound;
    expect(found.length).toBeGreaterThan(0);
    for (const passage of found) expect(ESSAY.slice(passage.startIndex, passage.endIndex)).toBe(passage.sequence);
    // The passages found cover the copied sentence and little else.
    const covered = found.reduce((n, p) => n + Math.min(p.endIndex, start + copied.length) - Math.max(p.startIndex, start), 0);
    expect(covered).toBeGreaterThan(copied.length * 0.9);
  });

  it('does not count an excluded source', async () => {
    const { engine, token } = await setup();
    const { result } = await engine.execute('plagiarism', { text: ESSAY, excluded_sources: ['example.org'] }, { token });
    const sources = result.sources as Array<{ is_excluded: boolean }>;
    expect(sources.every((s) => s.is_excluded)).toBe(true);
    expect((result.result as { score: number }).score).toBe(0);
  });

  it('names the field of bad input and charges nothing', async () => {
    const { engine, ledger, accountId, token } = await setup();
    expect((await rejection(engine.execute('plagiarism', { text: 'short' }, { token }))).description).toBe(
      'text must be at least 100 characters long (received 5)',
    );
    expect((await rejection(engine.execute('plagiarism', { text: 'x'.repeat(120_001) }, { token }))).description).toMatch(/at most 120000/);
    expect((await rejection(engine.execute('plagiarism', { text: ESSAY, language: 'xx' }, { token }))).description).toMatch(/^language must be/);
    const excluded = await rejection(engine.execute('plagiarism', { text: ESSAY, excluded_sources: ['http://'] }, { token }));
    expect(excluded.code).toBe('BAD_REQUEST');
    expect(excluded.description).toMatch(/excluded_sources/);
    expect(await ledger.balance(accountId)).toBe(2000);
  });
});

describe('/v1/plagiarism', () => {
  it('answers the v1 result from the same alignment', async () => {
    const { engine, token } = await setup();
    const { result } = await engine.execute('plagiarism-v1', { text: ESSAY }, { token });
    expect(plagiarismV1Result.safeParse(result).success).toBe(true);
    expect(result.results_count).toBe(1);
    expect(result.credits_used).toBe(2 * countWords(ESSAY));
  });

  it('bounds the text in words: 16 to 20,000', async () => {
    const { engine, token } = await setup();
    expect((await rejection(engine.execute('plagiarism-v1', { text: 'one two three' }, { token }))).description).toBe(
      'text must have 16 to 20000 words (received 3)',
    );
  });
});

describe('/v2/plagiarism: the language', () => {
  it('says which language the caller sent when it is not supported', async () => {
    const { engine, token } = await setup();
    const error = await rejection(engine.execute('plagiarism', { text: ESSAY, language: 'et' }, { token }));
    expect(error.description).toMatch(/^language must be "auto" or one of the supported codes: en, fr, .*, but the request sent Estonian \(et\)$/);
  });

  it('scans a German text as German when no language is sent, with no language error', async () => {
    const { engine, token } = await setup();
    const german =
      'Der Leuchtturmwärter stieg jeden Abend in der Dämmerung die Wendeltreppe hinauf, um die Lampe anzuzünden. ' +
      'Niemand im Dorf hielt das für heldenhaft; es war einfach die Arbeit, die bei jedem Wetter getan wurde.';
    const { result } = await engine.execute('plagiarism', { text: german }, { token });
    expect((result.scanInformation as { language: string }).language).toBe('de');
  });
});
