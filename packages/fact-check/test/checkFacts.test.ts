import { describe, expect, it } from 'vitest';
import { checkFacts, findCheckableClaims, gatherClaimEvidence, judgeClaims } from '../src/checkFacts.js';
import { InvalidArgumentError } from '../src/errors.js';
import { EvidenceStore } from '../src/evidenceStore.js';
import type { WebSearchProvider } from '../src/searchProvider.js';

const store = new EvidenceStore([
  {
    url: 'https://example.org/eiffel',
    title: 'Eiffel Tower',
    text: 'The Eiffel Tower is a wrought-iron lattice tower in Paris, France. It was completed in 1889 and is 330 metres tall.',
  },
  {
    url: 'https://example.org/moon',
    title: 'Moon landing',
    text: 'Apollo 11 landed on the Moon on 20 July 1969. Neil Armstrong was the first person to walk on the Moon.',
  },
]);

const TEXT =
  'The Eiffel Tower was completed in 1889 in Paris. It is 330 metres tall. I think it is the most beautiful building ' +
  'in the world. Have you ever visited it? Apollo 11 landed on the Moon in 1972. Maybe we should all travel more. ' +
  'The population of Tokyo grew by 4 percent between 2010 and 2020.';

describe('checkFacts', () => {
  it('returns the documented fields with claims mapped to sentence ids', async () => {
    const result = await checkFacts(TEXT, { store });
    expect(Object.keys(result).sort()).toEqual(
      ['claims', 'claimsCount', 'input', 'language', 'score', 'sentences', 'status', 'text', 'wordCount'].sort(),
    );
    expect(result).toMatchObject({ status: 200, text: TEXT, input: 'text', language: 'en', wordCount: 56 });
    expect(result.sentences).toHaveLength(7);
    expect(result.claimsCount).toBe(result.claims.length);
    const byId = new Map(result.claims.map((c) => [c.id, c]));
    expect([...byId.keys()].sort()).toEqual([1, 2, 5, 7]);
    expect(byId.get(1)?.verdict).toBe('SUPPORTED');
    expect(byId.get(2)).toMatchObject({ claim: 'The Eiffel Tower is 330 metres tall.', verdict: 'SUPPORTED' });
    expect(byId.get(5)?.verdict).toBe('REFUTED');
    for (const claim of result.claims) {
      expect(result.sentences.find((s) => s.id === claim.id)?.text).toBe(claim.sentence);
      expect(Number.isInteger(claim.score) && claim.score >= 0 && claim.score <= 100).toBe(true);
    }
    const judged = result.claims.filter((c) => c.verdict !== 'NOT_ENOUGH_EVIDENCE');
    expect(result.score).toBe(Math.round(judged.reduce((s, c) => s + c.score, 0) / judged.length));
  });

  it('checks a sentence that the text repeats once, at its first position', async () => {
    const repeated = `${TEXT} The Eiffel Tower was completed in 1889 in Paris.`;
    const result = await checkFacts(repeated, { store });
    expect(result.sentences).toHaveLength(8);
    expect(result.claims.map((c) => c.id).sort()).toEqual([1, 2, 5, 7]);
    expect(result.claims.filter((c) => c.claim === 'The Eiffel Tower was completed in 1889 in Paris.')).toHaveLength(1);
    expect(result.claimsCount).toBe(4);
  });

  it('never guesses on a claim with no evidence in the store', async () => {
    const result = await checkFacts(TEXT, { store });
    const tokyo = result.claims.find((c) => c.id === 7);
    expect(tokyo).toMatchObject({ verdict: 'NOT_ENOUGH_EVIDENCE', score: 50, links: [] });
    const empty = await checkFacts(TEXT, { store: new EvidenceStore() });
    expect(empty.claims.every((c) => c.verdict === 'NOT_ENOUGH_EVIDENCE' && c.score === 50)).toBe(true);
    expect(empty.score).toBe(50);
  });

  it('asks the search provider once per claim and uses what it finds', async () => {
    const queries: string[] = [];
    const searchProvider: WebSearchProvider = {
      async search(query) {
        queries.push(query);
        return [{ url: 'https://example.org/tokyo', title: 'Tokyo', text: 'The population of Tokyo grew by 4 percent between 2010 and 2020.' }];
      },
    };
    const result = await checkFacts(TEXT, { store: new EvidenceStore(), searchProvider });
    expect(queries).toHaveLength(result.claimsCount);
    expect(result.claims.find((c) => c.id === 7)).toMatchObject({ verdict: 'SUPPORTED', links: [{ url: 'https://example.org/tokyo', title: 'Tokyo' }] });
  });

  it('keeps the store evidence when the search provider fails', async () => {
    const searchProvider: WebSearchProvider = { search: () => Promise.reject(new Error('offline')) };
    const result = await checkFacts(TEXT, { store, searchProvider });
    expect(result.claims.find((c) => c.id === 1)?.verdict).toBe('SUPPORTED');
  });

  it('detects the language for auto and keeps a given one', async () => {
    const french = 'La tour Eiffel a été achevée en 1889 à Paris et elle mesure 330 mètres de haut pour les visiteurs.';
    expect((await checkFacts(french, { store })).language).toBe('fr');
    expect((await checkFacts(TEXT, { store, language: 'de' })).language).toBe('de');
  });

  it('rejects bad input naming the field', async () => {
    await expect(checkFacts('', { store })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', field: 'text' });
    await expect(checkFacts(42 as never, { store })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(checkFacts('x'.repeat(10_001), { store })).rejects.toMatchObject({ field: 'text' });
    await expect(checkFacts(TEXT, { store, language: 'xx' })).rejects.toMatchObject({ field: 'language' });
    await expect(checkFacts(TEXT, { store: {} as never })).rejects.toMatchObject({ field: 'store' });
    await expect(checkFacts(TEXT, { store, maxClaims: 13 })).rejects.toMatchObject({ field: 'maxClaims' });
  });

  it('is its three steps, whose results are plain data (structured-clone safe)', async () => {
    const found = await findCheckableClaims(TEXT, {});
    expect(structuredClone(found)).toEqual(found);
    const gathered = await gatherClaimEvidence(found, { store });
    expect(structuredClone(gathered)).toEqual(gathered);
    expect(await judgeClaims(gathered)).toEqual(await checkFacts(TEXT, { store }));
  });
});
