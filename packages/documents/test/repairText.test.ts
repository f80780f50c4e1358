import { describe, expect, it } from 'vitest';
import { joinLines, repairLigatures } from '../src/repairText.js';

describe('repairLigatures', () => {
  it('spells out the presentation-form ligatures', () => {
    expect(repairLigatures('\ufb01nal \ufb02ow o\ufb00er e\ufb03cient ba\ufb04e')).toBe('final flow offer efficient baffle');
  });
});

describe('joinLines', () => {
  it('rejoins a word broken before a lowercase letter', () => {
    expect(joinLines('a replacement for engin-', 'eered structures')).toBe('a replacement for engineered structures');
  });
  it('keeps the hyphen before an uppercase letter or a digit', () => {
    expect(joinLines('the pre-', 'Raphaelite painters')).toBe('the pre-Raphaelite painters');
    expect(joinLines('during COVID-', '19 lockdowns')).toBe('during COVID-19 lockdowns');
  });
  it('drops a soft hyphen and joins other lines with a space', () => {
    expect(joinLines('hy\u00ad', 'phen')).toBe('hyphen');
    expect(joinLines('two', 'lines')).toBe('two lines');
  });
});
