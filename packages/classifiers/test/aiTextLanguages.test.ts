import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  AI_TEXT_LANGUAGE_MODELS, AI_TEXT_LANGUAGES, aiTextCalibrationScorer, calibrateAiText, detectAiText, UnsupportedLanguageError,
} from '../src/index.js';
import { PROSE } from './helpers.js';

// fixtures/ai-text-languages/README.md: three Wikipedia introductions (CC BY-SA) that the shipped French, German and
// Spanish models were not trained on (their topic group is in train.py's shipped hold-out), and three texts written
// by a language model (Claude) for these tests, a generator none of the training data comes from.
const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../fixtures/ai-text-languages');
const fixture = (name: string) => readFileSync(resolve(FIXTURES, name), 'utf8');
const ITALIAN = 'Il rapporto è stato pubblicato martedì e ha subito suscitato un acceso dibattito nel consiglio comunale. '.repeat(4);
const HUMAN = { fr: 'fr-human-wikipedia-marie-curie.txt', de: 'de-human-wikipedia-marie-curie.txt', es: 'es-human-wikipedia-genoma.txt' };

describe('AI text detection in French, German and Spanish', () => {
  it('lists English, French, German and Spanish as the supported languages', () => {
    expect(AI_TEXT_LANGUAGES).toEqual(['en', 'fr', 'de', 'es']);
    expect(Object.keys(AI_TEXT_LANGUAGE_MODELS)).toEqual(['fr', 'de', 'es']);
  });

  for (const language of ['fr', 'de', 'es'] as const) {
    it(`scores a held-out ${language} Wikipedia article as human with the ${language} model, detected or sent`, async () => {
      const text = fixture(HUMAN[language]);
      const detected = await detectAiText(text);
      expect(detected.language).toBe(language);
      expect(detected.version).toBe(`${language}-1.0.0`);
      expect(detected.score).toBeGreaterThan(50);
      const sent = await detectAiText(text, { language });
      expect(sent.score).toBeCloseTo(detected.score, 10);
      expect(sent.sentences!.length).toBeGreaterThan(3);
      expect(sent.confidence).toBe(text.length >= 1500 ? 'high' : 'medium');
    });

    it(`scores a ${language} text written by a language model below the human article`, async () => {
      const human = await detectAiText(fixture(HUMAN[language]), { sentences: false });
      const ai = await detectAiText(fixture(`${language}-ai-claude.txt`), { sentences: false });
      expect(ai.language).toBe(language);
      expect(ai.sentences).toBeUndefined();
      expect(ai.score).toBeLessThan(human.score);
    });
  }

  it('flags the French machine text at the model\'s threshold (human score below 50)', async () => {
    const result = await detectAiText(fixture('fr-ai-claude.txt'));
    expect(result.score).toBeLessThan(50);
  });

  it('marks sentences of a flagged text and few of a human one (anchored to the document score)', async () => {
    const ai = await detectAiText(fixture('fr-ai-claude.txt'));
    const human = await detectAiText(fixture('fr-human-wikipedia-marie-curie.txt'));
    const flaggedShare = (r: typeof ai) => r.sentences!.filter((s) => s.score < 50).length / r.sentences!.length;
    expect(flaggedShare(ai)).toBeGreaterThan(flaggedShare(human));
    expect(flaggedShare(human)).toBeLessThan(0.5);
  });

  it('still refuses Italian, detected or sent, naming the supported languages', async () => {
    const detected = await detectAiText(ITALIAN).catch((e: unknown) => e);
    expect(detected).toBeInstanceOf(UnsupportedLanguageError);
    expect(detected).toMatchObject({ code: 'UNSUPPORTED_LANGUAGE', language: 'it', origin: 'detected' });
    expect((detected as Error).message).toBe(
      'The text was detected to be in Italian (it), which is not supported (supported: English (en), French (fr), German (de), Spanish (es))',
    );
    await expect(detectAiText(ITALIAN, { language: 'it' })).rejects.toMatchObject({ language: 'it', origin: 'requested' });
  });

  it('refuses a French text with a deployment calibration profile, which measured the English detector', async () => {
    const texts = Array.from({ length: 40 }, (_, i) => `${PROSE} Note ${i}: ${PROSE.slice(i * 3)}`);
    const { profile } = await calibrateAiText(texts, { targetFpr: 0.2 });
    expect((await detectAiText(PROSE, { calibration: profile })).language).toBe('en');
    const error = await detectAiText(fixture('fr-human-wikipedia-marie-curie.txt'), { calibration: profile }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UNSUPPORTED_LANGUAGE', language: 'fr', origin: 'detected' });
  });

  it('leaves French and German texts out of a deployment calibration of the English detector', async () => {
    const scorer = await aiTextCalibrationScorer();
    expect(await scorer.score(fixture('fr-human-wikipedia-marie-curie.txt'), [])).toEqual({ skip: 'language fr' });
    expect(await scorer.score(fixture('de-human-wikipedia-marie-curie.txt'), [])).toEqual({ skip: 'language de' });
    expect(await scorer.score(PROSE, [])).toHaveProperty('ranges');
  });
});
