import { describe, expect, it } from 'vitest';
import { DEFAULT_AI_TEXT_VERSION, detectAiText, detectLanguage, HUMAN_SCORE_THRESHOLD } from '../src/index.js';
import { longText, PROSE } from './helpers.js';

// Robustness is measured on the model's raw-scale human score; "barely moves" = within 3 points of 100.
const TOLERANCE = 3;

describe('detectAiText', () => {
  it('returns the API fields with scores in range and sentences in input order', async () => {
    const result = await detectAiText(PROSE, { sentences: true, language: 'en' });
    expect(result.score).toBeGreaterThanOrEqual(0);
    expect(result.score).toBeLessThanOrEqual(100);
    expect(result.version).toBe(DEFAULT_AI_TEXT_VERSION);
    expect(DEFAULT_AI_TEXT_VERSION).toBe('2.0.0');
    expect(result.language).toBe('en');
    expect(result.attack_detected).toEqual({ zero_width_space: false, homoglyph_attack: false });
    expect(result.readability_score).toBeGreaterThan(40);
    expect(result.readability_score).toBeLessThanOrEqual(100);
    expect(result.sentences?.length).toBe(7);
    expect(result.sentences?.[0]?.text).toMatch(/^The library on Elm Street/);
    for (const s of result.sentences ?? []) expect(s.score).toBeGreaterThanOrEqual(0);
    expect(HUMAN_SCORE_THRESHOLD).toBe(50);
  });

  it('leaves out sentences when asked and detects English for auto', async () => {
    const result = await detectAiText(PROSE, { sentences: false });
    expect(result.sentences).toBeUndefined();
    expect(result.language).toBe('en');
  });

  it('barely moves under zero-width characters, homoglyphs, case and white space', async () => {
    const base = (await detectAiText(PROSE, { sentences: false })).score;
    const zeroWidth = PROSE.replace(/e/g, 'e\u200B');
    const homoglyphs = PROSE.replace(/o/g, 'о').replace(/a/g, 'а'); // Cyrillic о and а
    const variants = [zeroWidth, homoglyphs, PROSE.toUpperCase(), PROSE.replace(/ /g, '  ').replace(/\. /g, '.\n')];
    for (const text of variants) {
      const result = await detectAiText(text, { sentences: false });
      expect(Math.abs(result.score - base)).toBeLessThan(TOLERANCE);
    }
    const attacked = await detectAiText(zeroWidth, { sentences: false });
    expect(attacked.attack_detected.zero_width_space).toBe(true);
    const swapped = await detectAiText(homoglyphs, { sentences: false });
    expect(swapped.attack_detected.homoglyph_attack).toBe(true);
  });

  it('scores a 300-character text with low confidence', async () => {
    const text = longText(300);
    expect(text.length).toBe(300);
    const result = await detectAiText(text);
    expect(result.confidence).toBe('low');
    expect(Number.isFinite(result.score)).toBe(true);
  });

  it('scores a 150,000-character text with sentence scores', async () => {
    const text = longText(150_000);
    const result = await detectAiText(text, { sentences: true });
    expect(result.confidence).toBe('high');
    expect(result.sentences!.length).toBeGreaterThan(1000);
    expect(Number.isFinite(result.score)).toBe(true);
  });

  it('rejects bad input naming the field', async () => {
    await expect(detectAiText('')).rejects.toMatchObject({ code: 'BAD_REQUEST', field: 'text' });
    await expect(detectAiText('too short')).rejects.toMatchObject({ code: 'BAD_REQUEST', field: 'text' });
    await expect(detectAiText(longText(150_001))).rejects.toMatchObject({ code: 'BAD_REQUEST', field: 'text' });
    await expect(detectAiText(42)).rejects.toMatchObject({ code: 'BAD_REQUEST', field: 'text' });
    await expect(detectAiText(PROSE, { language: 'english' })).rejects.toMatchObject({ field: 'language' });
    await expect(detectAiText(PROSE, { language: 'it' })).rejects.toMatchObject({
      code: 'UNSUPPORTED_LANGUAGE', field: 'language',
    });
    await expect(detectAiText(PROSE, { sentences: 'yes' as unknown as boolean })).rejects.toMatchObject({
      field: 'sentences',
    });
  });

  it('refuses text in a language without a detector (Italian) when the language is auto', async () => {
    const italian = 'Il rapporto è stato pubblicato martedì e ha subito suscitato un acceso dibattito nel consiglio comunale. '.repeat(5);
    await expect(detectAiText(italian)).rejects.toMatchObject({ code: 'UNSUPPORTED_LANGUAGE', language: 'it' });
  });

  it('identifies the language with franc among the API\'s languages, as a 2-letter code', () => {
    expect(detectLanguage(PROSE)).toBe('en');
    expect(detectLanguage(PROSE.toUpperCase())).toBe('en');
    expect(detectLanguage('Der Bericht wurde am Dienstag veröffentlicht und sorgte sofort für Diskussionen im Landtag.')).toBe('de');
    expect(detectLanguage('Le rapport a été publié mardi et a immédiatement suscité des débats au sein du conseil municipal.')).toBe('fr');
    expect(detectLanguage('Доклад был опубликован во вторник и сразу вызвал споры в городском совете.')).toBe('ru');
    expect(detectLanguage('报告于星期二发表，立即在市议会引起了争论。')).toBe('zh');
    expect(detectLanguage('12345 67890 !!!')).toBe('und');
  });
});
