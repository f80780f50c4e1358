import { describe, expect, it } from 'vitest';
import { detectAiText, detectLanguage, languageName, UnidentifiedLanguageError, UnsupportedLanguageError } from '../src/index.js';
import { PROSE } from './helpers.js';

const ITALIAN = 'Il rapporto è stato pubblicato martedì e ha subito suscitato un acceso dibattito nel consiglio comunale. '.repeat(5);

/** `n` pseudo-random bytes (a fixed linear congruential sequence, so the test sees the same bytes every run). */
function randomBytes(n: number): Buffer {
  const bytes = Buffer.alloc(n);
  let state = 12345;
  for (let i = 0; i < n; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

const NO_LANGUAGE: Record<string, string> = {
  'random bytes read as Latin-1': randomBytes(600).toString('latin1'),
  'random bytes read as UTF-8': randomBytes(600).toString('utf8'),
  'emoji only': '😀🎉🚀 '.repeat(100),
  'NUL characters only': '\0'.repeat(400),
  'digits only': '12345 67890 '.repeat(40),
};

describe('the language of AI text detection', () => {
  it('names a detected language, says it was detected and lists the supported ones (language auto)', async () => {
    const error = await detectAiText(ITALIAN, { language: 'auto' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedLanguageError);
    expect(error).toMatchObject({ code: 'UNSUPPORTED_LANGUAGE', field: 'language', language: 'it', origin: 'detected' });
    expect((error as Error).message).toBe('The text was detected to be in Italian (it), which is not supported (supported: English (en), French (fr), German (de), Spanish (es))');
  });

  it('says the same when no language is given', async () => {
    const error = await detectAiText(ITALIAN).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UNSUPPORTED_LANGUAGE', language: 'it', origin: 'detected' });
    expect((error as Error).message).toMatch(/^The text was detected to be in Italian \(it\)/);
  });

  it('says the caller sent an unsupported language, named when it is one', async () => {
    const italian = await detectAiText(PROSE, { language: 'it' }).catch((e: unknown) => e);
    expect(italian).toMatchObject({ code: 'UNSUPPORTED_LANGUAGE', field: 'language', language: 'it', origin: 'requested' });
    expect((italian as Error).message).toBe(
      'The request sent language Italian (it), which is not supported (supported: English (en), French (fr), German (de), Spanish (es), or auto)',
    );
    const unknown = await detectAiText(PROSE, { language: 'xx' }).catch((e: unknown) => e);
    expect((unknown as Error).message).toMatch(/^The request sent language xx, which is not supported/);
  });

  for (const [name, text] of Object.entries(NO_LANGUAGE)) {
    it(`finds no language in ${name}: BAD_REQUEST on text, not a guessed language`, async () => {
      expect(detectLanguage(text)).toBe('und');
      const error = await detectAiText(text).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnidentifiedLanguageError);
      expect(error).toMatchObject({ code: 'BAD_REQUEST', field: 'text' });
      expect((error as Error).message).toMatch(/^No language could be identified in the text .*\(supported: English \(en\), French \(fr\), German \(de\), Spanish \(es\)\)$/);
    });
  }

  it('still reads English prose with line breaks and a few stray control characters as English', () => {
    expect(detectLanguage(PROSE.replace(/\. /g, '.\n\n'))).toBe('en');
    expect(detectLanguage(`${PROSE}\u0007\u0000`)).toBe('en');
  });

  it('names languages in English with their code, and leaves an unknown code bare', () => {
    expect(languageName('de')).toBe('German (de)');
    expect(languageName('zh')).toBe('Chinese (zh)');
    expect(languageName('xx')).toBe('xx');
  });
});
