import { describe, expect, it } from 'vitest';
import { wordKey } from '../src/wordKey.js';

describe('wordKey', () => {
  it('folds case', () => {
    expect(wordKey('ÉCOLE')).toBe(wordKey('école'));
  });

  it('folds sharp s to ss', () => {
    expect(wordKey('Straße')).toBe(wordKey('STRASSE'));
  });

  it('applies NFKC compatibility forms', () => {
    expect(wordKey('ﬁle')).toBe('file');
    expect(wordKey('ＡＢＣ')).toBe('abc');
  });

  it('unifies apostrophe variants', () => {
    expect(wordKey('don’t')).toBe("don't");
    expect(wordKey('donʼt')).toBe("don't");
  });

  it('keeps different words apart', () => {
    expect(wordKey('resume')).not.toBe(wordKey('résumé'));
  });
});

describe('wordKey on ASCII', () => {
  it('equals NFKC, upper then lower case for every printable ASCII word', () => {
    const reference = (raw: string) => raw.normalize('NFKC').toUpperCase().toLowerCase();
    const words = ['the', 'The', 'THE', 'McDonald', "don't", 'e.g', 'U.S', 'A1b2_C3', 'x', 'Ii'];
    for (let c = 32; c < 127; c++) words.push(String.fromCharCode(c), `a${String.fromCharCode(c)}Z`);
    for (const word of words) expect(wordKey(word), word).toBe(reference(word));
  });
});
