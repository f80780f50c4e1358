import { describe, expect, it } from 'vitest';
import { checkFacts } from '../src/checkFacts.js';
import { EvidenceStore, type EvidencePassage } from '../src/evidenceStore.js';
import { judgeClaim } from '../src/judgeClaim.js';
import { loadWordVectors } from '../src/wordVectors.js';

const vectors = loadWordVectors();
const passage = (text: string, title: string): EvidencePassage => ({ url: `https://example.org/${title.replace(/ /g, '_')}`, title, text, score: 1 });

const MAUER = 'Die Berliner Mauer wurde ab dem 13. August 1961 von der DDR gebaut, um die Flucht ihrer Bürger in den Westen zu verhindern. Sie fiel am 9. November 1989.';
const WALL = 'The Berlin Wall was built by the GDR from 13 August 1961 to stop its citizens from fleeing to the West. It fell on 9 November 1989.';

// The cases of issue 34: a German claim with the wrong decade and purpose came back SUPPORTED 61 ("it agrees on Die
// Berliner Mauer"), its English twin PARTIALLY_SUPPORTED; the claim resolver's year mismatch must decide against
// SUPPORTED in every language.
describe('calibrated verdicts across languages', () => {
  it.each([
    ['de', 'Die Berliner Mauer wurde 1971 gebaut, um den Handel zu fördern.', MAUER, 'Berliner Mauer'],
    ['en', 'The Berlin Wall was built in 1971 to promote trade.', WALL, 'Berlin Wall'],
  ])('%s: refutes a claim whose year the source contradicts, naming the year', async (language, claim, text, title) => {
    for (const entailmentModel of ['2.0', '1.x'] as const) {
      const judgement = await judgeClaim(claim, [passage(text, title)], vectors, { language, entailmentModel });
      expect(judgement.verdict, entailmentModel).toBe('REFUTED');
      expect(judgement.score).toBeLessThan(30);
      expect(judgement.explanation).toMatch(/the year 1971 does not appear in the source/);
    }
  });

  it.each([
    ['de', 'Die Berliner Mauer wurde 1961 gebaut.', MAUER, 'Berliner Mauer'],
    ['de', 'Die Berliner Mauer fiel am 9. November 1989.', MAUER, 'Berliner Mauer'],
    ['en', 'The Berlin Wall fell on 9 November 1989.', WALL, 'Berlin Wall'],
  ])('%s: supports a claim the source states: %s', async (language, claim, text, title) => {
    const judgement = await judgeClaim(claim, [passage(text, title)], vectors, { language });
    expect(judgement.verdict).toBe('SUPPORTED');
    expect(judgement.score).toBeGreaterThan(70);
    expect(judgement.explanation).toMatch(/calibrated chance supported \d+%/);
  });

  it('de: refutes a claim that negates the source with "nicht"', async () => {
    const judgement = await judgeClaim('Die Berliner Mauer wurde nicht 1961 gebaut.', [passage(MAUER, 'Berliner Mauer')], vectors, { language: 'de' });
    expect(judgement.verdict).toBe('REFUTED');
    expect(judgement.explanation).toMatch(/the claim negates what the source states/);
  });

  it('says what was and was not found when the evidence does not settle the claim', async () => {
    const related = passage('Tide gauges along the Atlantic coast have recorded sea levels for more than a century.', 'Tide gauges');
    const judgement = await judgeClaim('Sea levels along the Atlantic coast rose by 30 centimetres because of melting glaciers.', [related], vectors);
    expect(judgement.verdict).toBe('NOT_ENOUGH_EVIDENCE');
    expect(judgement.score).toBe(50);
    expect(judgement.links).toEqual([{ url: related.url, title: 'Tide gauges' }]);
    expect(judgement.explanation).toMatch(/"Tide gauges" is related but does not settle the claim: it agrees on Sea, Atlantic/);
    expect(judgement.explanation).toMatch(/neither side is likely enough \(calibrated chance supported \d+%, refuted \d+%\)/);
    expect(judgement.explanation).toMatch(/No passage mentions .*centimetres.*glaciers/);
  });

  it('de: checkFacts splits at no ordinal or abbreviation, drops the first-person sentence and refutes the wrong decade', async () => {
    const store = new EvidenceStore([{ url: 'https://example.org/mauer', title: 'Berliner Mauer', text: MAUER }]);
    const text = 'Die Berliner Mauer wurde 1971 gebaut, um den Handel zu fördern. Wir besuchen jedes Jahr die Gedenkstätte an der Bernauer Straße. '
      + 'Viele Orte, z. B. Potsdam, lagen direkt an der Grenze. Die Mauer fiel am 9. November 1989.';
    const result = await checkFacts(text, { store, language: 'auto' });
    expect(result.language).toBe('de');
    expect(result.sentences.map((s) => s.text)).toEqual([
      'Die Berliner Mauer wurde 1971 gebaut, um den Handel zu fördern.',
      'Wir besuchen jedes Jahr die Gedenkstätte an der Bernauer Straße.',
      'Viele Orte, z. B. Potsdam, lagen direkt an der Grenze.',
      'Die Mauer fiel am 9. November 1989.',
    ]);
    const byId = new Map(result.claims.map((c) => [c.id, c]));
    expect(byId.has(2)).toBe(false);
    expect(byId.get(1)).toMatchObject({ verdict: 'REFUTED' });
    expect(byId.get(1)?.explanation).toMatch(/1971/);
    expect(byId.get(4)).toMatchObject({ verdict: 'SUPPORTED' });
  });
});
