import { describe, expect, it } from 'vitest';
import { normalizeText } from '../src/index.js';

describe('normalizeText', () => {
  it('removes zero-width characters inside words and maps offsets back', () => {
    const text = 'pla\u200Bgia\u200Drism works';
    const clean = normalizeText(text);
    expect(clean.text).toBe('plagiarism works');
    expect(clean.zeroWidth).toBe(true);
    expect(clean.homoglyph).toBe(false);
    const w = clean.text.indexOf('works');
    expect(text.slice(clean.toOriginal[w], clean.toOriginal[w + 5 - 1]! + 1)).toBe('works');
    expect(clean.toOriginal[clean.text.length]).toBe(text.length);
  });

  it('replaces Cyrillic look-alikes inside Latin words and reports them', () => {
    const clean = normalizeText('The сat sаt on the mat.');
    expect(clean.text).toBe('The cat sat on the mat.');
    expect(clean.homoglyph).toBe(true);
    expect(clean.zeroWidth).toBe(false);
  });

  it('leaves genuine Russian text alone', () => {
    const text = 'Это обычный русский текст о погоде.';
    const clean = normalizeText(text);
    expect(clean.text).toBe(text);
    expect(clean.homoglyph).toBe(false);
  });

  it('does not flag a Persian zero-width non-joiner', () => {
    const clean = normalizeText('می\u200Cخواهم');
    expect(clean.zeroWidth).toBe(false);
  });
});
