import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countWords } from '@content-analysis/credits';
import { meteredEngine, rejection, routeToLocal, startLocalServer } from './helpers.js';

const ESSAY =
  'My grandmother kept bees behind the shed for almost forty years, and every August the whole house smelled of ' +
  'wax. She never wore gloves. When I asked her why, she said the bees knew her hands better than she did, which ' +
  'made no sense to me at nine and makes only a little more sense now. The honey was dark, almost bitter some ' +
  'years, and she sold it from a card table at the end of the lane with a coffee tin for the money.';

let server: Awaited<ReturnType<typeof startLocalServer>>;
beforeAll(async () => {
  server = await startLocalServer((req, res) => {
    if (req.url === '/essay') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><title>Bees</title></head><body><nav>Home | About</nav><article><h1>Bees</h1><p>${ESSAY}</p></article><footer>© 2026</footer></body></html>`);
    } else {
      res.writeHead(404).end();
    }
  });
});
afterAll(() => server.close());

const setup = (credits = 2000) => meteredEngine({ credits, fetch: routeToLocal(() => server.port) });

describe('ai-content-detection', () => {
  it('answers the documented fields and charges one credit per word', async () => {
    const { engine, ledger, accountId, token } = await setup();
    const { result } = await engine.execute('ai-content-detection', { text: ESSAY }, { token });
    const words = countWords(ESSAY);
    expect(result.status).toBe(200);
    expect(result.input).toBe('text');
    expect(result.credits_used).toBe(words);
    expect(result.credits_remaining).toBe(2000 - words);
    expect(await ledger.balance(accountId)).toBe(2000 - words);
    expect(typeof result.score).toBe('number');
    expect(result.score).toBeGreaterThanOrEqual(0);
    expect(result.score).toBeLessThanOrEqual(100);
    expect(result.attack_detected).toEqual({ zero_width_space: false, homoglyph_attack: false });
    expect(result.language).toBe('en');
    const sentences = result.sentences as Array<{ text: string; score: number }>;
    expect(sentences.length).toBeGreaterThan(3);
    expect(sentences[0]!.text).toBe('My grandmother kept bees behind the shed for almost forty years, and every August the whole house smelled of wax.');
  });

  it('takes version latest, as the Winston SDK sends it, for the default detector', async () => {
    const { engine, token } = await setup();
    const { result } = await engine.execute('ai-content-detection', { text: ESSAY, version: 'latest' }, { token });
    expect(result.status).toBe(200);
    const plain = await engine.execute('ai-content-detection', { text: ESSAY }, { token });
    expect(result.version).toBe(plain.result.version);
    expect(result.score).toBe(plain.result.score);
  });

  it('reports the human scores at two decimals, the sentences too', async () => {
    const { engine, token } = await setup();
    const { result } = await engine.execute('ai-content-detection', { text: ESSAY }, { token });
    const atTwoDecimals = (score: number) => Math.round(score * 100) / 100;
    const scores = [result.score as number, result.readability_score as number, ...(result.sentences as Array<{ score: number }>).map((s) => s.score)];
    expect(scores.map(atTwoDecimals)).toEqual(scores);
  });

  it('leaves the sentences out when asked to', async () => {
    const { engine, token } = await setup();
    const { result } = await engine.execute('ai-content-detection', { text: ESSAY, sentences: false }, { token });
    expect('sentences' in result).toBe(false);
  });

  it('reports a zero-width attack', async () => {
    const { engine, token } = await setup();
    const attacked = ESSAY.replace(/ /g, (space, i: number) => (i % 3 === 0 ? '\u200b ' : space));
    const { result } = await engine.execute('ai-content-detection', { text: attacked }, { token });
    expect((result.attack_detected as { zero_width_space: boolean }).zero_width_space).toBe(true);
  });

  it('reads the main content of a web page given as website, which takes priority over text', async () => {
    const { engine, token } = await setup();
    const { result } = await engine.execute('ai-content-detection', { website: 'http://blog.example.com/essay', text: 'ignored' }, { token });
    expect(result.input).toBe('website');
    // The main content only: the essay, without the navigation, the footer or the heading that repeats the title.
    expect(result.credits_used).toBe(countWords(ESSAY));
  });

  it('is FORBIDDEN for a page the service cannot read, and charges nothing', async () => {
    const { engine, ledger, accountId, token } = await setup();
    const error = await rejection(engine.execute('ai-content-detection', { website: 'http://blog.example.com/missing' }, { token }));
    expect(error.code).toBe('FORBIDDEN');
    expect(await ledger.balance(accountId)).toBe(2000);
  });

  it('names the field of bad input and charges nothing', async () => {
    const { engine, ledger, accountId, token } = await setup();
    expect((await rejection(engine.execute('ai-content-detection', { text: 'too short' }, { token }))).description).toBe(
      'text must be at least 300 characters long (received 9)',
    );
    expect((await rejection(engine.execute('ai-content-detection', { text: 42 }, { token }))).description).toBe(
      'text must be of type string but received number',
    );
    expect((await rejection(engine.execute('ai-content-detection', { text: 'x'.repeat(150_001) }, { token }))).description).toMatch(
      /^text must be at most 150000 characters long/,
    );
    expect((await rejection(engine.execute('ai-content-detection', {}, { token }))).description).toBe(
      'text is required unless website or file is given',
    );
    expect((await rejection(engine.execute('ai-content-detection', { text: ESSAY, language: 'english' }, { token }))).description).toMatch(
      /^language must be a 2-letter/,
    );
    const unsupported = await rejection(engine.execute('ai-content-detection', { text: ESSAY, language: 'xx' }, { token }));
    expect(unsupported.code).toBe('BAD_REQUEST');
    expect(unsupported.description).toMatch(/language/);
    expect(await ledger.balance(accountId)).toBe(2000);
  });

  it('refuses a text that costs more than the balance, before analysing it', async () => {
    const { engine, ledger, accountId, token } = await setup(10);
    expect((await rejection(engine.execute('ai-content-detection', { text: ESSAY }, { token }))).code).toBe('PAYMENT_REQUIRED');
    expect(await ledger.balance(accountId)).toBe(10);
  });
});

const ITALIAN =
  'Mia nonna ha tenuto le api dietro il capanno per quasi quarant\'anni, e ogni agosto tutta la casa profumava di cera. ' +
  'Non portava mai i guanti. Quando le chiesi perché, mi disse che le api conoscevano le sue mani meglio di lei, ' +
  'cosa che a nove anni per me non aveva alcun senso e che oggi ne ha solo un poco di più. Il miele era scuro.';

describe('ai-content-detection: the language', () => {
  it('says an Italian text was detected as Italian (it), when no language is sent, and charges nothing', async () => {
    const { engine, ledger, accountId, token } = await setup();
    const error = await rejection(engine.execute('ai-content-detection', { text: ITALIAN }, { token }));
    expect(error.code).toBe('BAD_REQUEST');
    expect((error.cause as { code?: string }).code).toBe('UNSUPPORTED_LANGUAGE');
    expect(error.description).toBe('The text was detected to be in Italian (it), which is not supported (supported: English (en), French (fr), German (de), Spanish (es))');
    expect(await ledger.balance(accountId)).toBe(2000);
  });

  it('says the same for language auto', async () => {
    const { engine, token } = await setup();
    const error = await rejection(engine.execute('ai-content-detection', { text: ITALIAN, language: 'auto' }, { token }));
    expect(error.description).toMatch(/^The text was detected to be in Italian \(it\)/);
  });

  it('says the caller sent an unsupported language', async () => {
    const { engine, token } = await setup();
    const error = await rejection(engine.execute('ai-content-detection', { text: ITALIAN, language: 'it' }, { token }));
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.description).toBe('The request sent language Italian (it), which is not supported (supported: English (en), French (fr), German (de), Spanish (es), or auto)');
  });

  it('says no language could be identified in emoji, NUL characters, digits or undecodable bytes', async () => {
    const { engine, token } = await setup();
    const texts = ['😀🎉🚀 '.repeat(100), '\0'.repeat(400), '12345 67890 '.repeat(40), '\uFFFD\u0001ab\u0002'.repeat(80)];
    for (const text of texts) {
      const error = await rejection(engine.execute('ai-content-detection', { text }, { token }));
      expect(error.code).toBe('BAD_REQUEST');
      expect(error.description).toMatch(/^No language could be identified in the text .*\(supported: English \(en\), French \(fr\), German \(de\), Spanish \(es\)\)$/);
    }
  });

  it('scores a German text with the German model, detected or declared, and charges it', async () => {
    const { engine, ledger, accountId, token } = await setup();
    const text = readFileSync(new URL('../../../fixtures/ai-text-languages/de-human-wikipedia-marie-curie.txt', import.meta.url), 'utf8');
    const detected = (await engine.execute('ai-content-detection', { text, sentences: false }, { token })).result;
    expect(detected.status).toBe(200);
    expect(detected.language).toBe('de');
    expect(detected.version).toBe('de-1.0.0');
    expect(detected.score).toBeGreaterThan(50);
    const declared = (await engine.execute('ai-content-detection', { text, language: 'de', sentences: false }, { token })).result;
    expect(declared.score).toBe(detected.score);
    expect(await ledger.balance(accountId)).toBe(2000 - 2 * countWords(text));
  });

  it('refuses an English text declared as French, naming English, and charges nothing', async () => {
    const { engine, ledger, accountId, token } = await setup();
    const error = await rejection(engine.execute('ai-content-detection', { text: ESSAY, language: 'fr' }, { token }));
    expect((error.cause as { code?: string }).code).toBe('LANGUAGE_MISMATCH');
    expect(error.description).toBe(
      'The request sent language French (fr), but the text is in English (en) (supported: English (en), French (fr), German (de), Spanish (es), or auto)',
    );
    expect(await ledger.balance(accountId)).toBe(2000);
  });
});
