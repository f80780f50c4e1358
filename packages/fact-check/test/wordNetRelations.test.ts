import { describe, expect, it } from 'vitest';
import { wordNetRelations } from '../src/wordNetRelations.js';

describe('wordNetRelations', () => {
  const wordNet = wordNetRelations();

  it('finds antonyms, through inflections and irregular forms', () => {
    expect(wordNet.antonyms('increasing', 'decreasing')).toBe(true);
    expect(wordNet.antonyms('thin', 'thick')).toBe(true);
    expect(wordNet.antonyms('rose', 'fell')).toBe(true);
    expect(wordNet.antonyms('thin', 'tall')).toBe(false);
  });

  it('finds hypernyms in one direction only', () => {
    expect(wordNet.hypernymOf('tree', 'oak')).toBe(true);
    expect(wordNet.hypernymOf('oak', 'tree')).toBe(false);
  });

  it('finds synonyms among the frequent senses', () => {
    expect(wordNet.synonyms('car', 'automobile')).toBe(true);
    expect(wordNet.synonyms('car', 'ocean')).toBe(false);
  });
});
