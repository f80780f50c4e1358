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
