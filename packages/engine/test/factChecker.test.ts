import { describe, expect, it } from 'vitest';
import { countWords } from '@content-analysis/credits';
import { EvidenceStore } from '@content-analysis/fact-check';
import { ApiError, factCheckerResult } from '../src/index.js';
import { meteredEngine } from './helpers.js';

const TEXT =
  'The Eiffel Tower was completed in 1889 for the World Fair in Paris. It is about 330 metres tall and was the ' +
  'tallest structure in the world until 1930. I think it is the most beautiful building in Europe. Do you agree? ' +
  'Millions of people visit the tower every year, and it has become a global symbol of France.';

function setup(credits = 5000, withEvidence = true) {
  const store = new EvidenceStore(
    withEvidence
      ? [
          {
            url: 'https://encyclopedia.example.org/eiffel-tower',
            title: 'Eiffel Tower',
            text:
              'The Eiffel Tower is a wrought-iron lattice tower in Paris. It was completed in 1889 as the entrance ' +
              'to the 1889 World Fair. The tower is 330 metres tall. It was the tallest man-made structure in the ' +
              'world until the Chrysler Building in New York was finished in 1930.',
          },
        ]
      : [],
  );
  return meteredEngine({ credits, services: { evidenceStore: store } });
}

describe('/v2/fact-checker', () => {
  it('answers the documented result with camelCase credits, two per word', async () => {
    const { engine, token } = await setup();
    const { result } = await engine.execute('fact-checker', { text: TEXT, language: 'en' }, { token });
    expect(factCheckerResult.safeParse(result).success).toBe(true);
    expect(result.creditsUsed).toBe(2 * countWords(TEXT));
    expect(result.creditsRemaining).toBe(5000 - 2 * countWords(TEXT));
    expect(result.wordCount).toBe(countWords(TEXT));
    expect(result.input).toBe('text');
    const claims = result.claims as Array<{ sentence: string; verdict: string; links: Array<{ url: string }> }>;
    expect(claims.length).toBeGreaterThan(0);
    expect(claims.some((c) => c.sentence.startsWith('The Eiffel Tower was completed in 1889'))).toBe(true);
    // Opinions and questions are not claims.
    expect(claims.some((c) => /beautiful|Do you agree/.test(c.sentence))).toBe(false);
  });

  it('says NOT_ENOUGH_EVIDENCE when the store has nothing on a claim', async () => {
    const { engine, token } = await setup(5000, false);
    const { result } = await engine.execute('fact-checker', { text: TEXT }, { token });
    const claims = result.claims as Array<{ verdict: string; links: unknown[] }>;
    expect(claims.length).toBeGreaterThan(0);
    expect(claims.every((c) => c.verdict === 'NOT_ENOUGH_EVIDENCE' && c.links.length === 0)).toBe(true);
  });

  it('names the field of bad input and charges nothing', async () => {
    const { engine, ledger, accountId, token } = await setup();
    const short = await engine.execute('fact-checker', { text: 'Too short.' }, { token }).catch((e: unknown) => e);
    expect(short).toBeInstanceOf(ApiError);
    expect((short as ApiError).description).toBe('text must be at least 300 characters long (received 10)');
    const language = await engine.execute('fact-checker', { text: TEXT, language: 'sq' }, { token }).catch((e: unknown) => e);
    expect((language as ApiError).description).toMatch(/^language must be "auto" or one of/);
    expect(await ledger.balance(accountId)).toBe(5000);
  });
});

describe('/v2/fact-checker: the language', () => {
  it('says which language the caller sent when it is not supported', async () => {
    const { engine, token } = await setup();
    const error = await engine.execute('fact-checker', { text: TEXT, language: 'sq' }, { token }).catch((e: unknown) => e);
    expect((error as ApiError).description).toMatch(/, but the request sent Albanian \(sq\)$/);
    const number = await engine.execute('fact-checker', { text: TEXT, language: 7 }, { token }).catch((e: unknown) => e);
    expect((number as ApiError).description).toMatch(/, but the request sent a number$/);
  });
});
