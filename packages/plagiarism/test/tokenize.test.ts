import { countWords } from '@content-analysis/credits';
import { describe, expect, it } from 'vitest';
import { tokenize } from '../src/index.js';

describe('tokenize', () => {
  it('gives offsets into the original text even under attack', () => {
    const text = 'Gut\u200Benberg d\u0435veloped   movable type.';
    const tokens = tokenize(text);
    expect(tokens.keys).toEqual(['gutenberg', 'developed', 'movable', 'type']);
    expect(text.slice(tokens.starts[0], tokens.ends[0])).toBe('Gut\u200Benberg');
    expect(text.slice(tokens.starts[1], tokens.ends[1])).toBe('d\u0435veloped');
    expect(text.slice(tokens.starts[3], tokens.ends[3])).toBe('type');
  });

  it('counts as the credit counter on clean text', () => {
    const text = "It's 3.5 km to the café, isn't it? 東京は大きい。";
    expect(tokenize(text).length).toBe(countWords(text));
  });
});
