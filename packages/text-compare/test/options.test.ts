import { describe, expect, it } from 'vitest';
import { expectConsistent } from './helpers.js';
import { compareTexts, DEFAULT_TEXT_COMPARE_OPTIONS, InvalidArgumentError, TextTooLongError } from '../src/index.js';

describe('options', () => {
  it('has the documented defaults', () => {
    expect(DEFAULT_TEXT_COMPARE_OPTIONS).toEqual({ maxChars: 120_000, minAnchorWords: 3, detectMoves: true, minMovedWords: 6 });
  });

  it('accepts a text of exactly maxChars characters', () => {
    expect(compareTexts('a'.repeat(120_000), 'b').first_text.total_word_count).toBe(1);
  });

  it('throws TextTooLongError naming the first text when it exceeds maxChars', () => {
    const call = () => compareTexts('eleven char', 'short', { maxChars: 10 });
    expect(call).toThrow(TextTooLongError);
    expect(call).toThrow(expect.objectContaining({ code: 'TEXT_TOO_LONG', text: 'first_text', length: 11, maxChars: 10 }));
  });

  it('throws TextTooLongError naming the second text when it exceeds the default limit', () => {
    expect(() => compareTexts('short', 'x'.repeat(120_001))).toThrow(
      expect.objectContaining({ code: 'TEXT_TOO_LONG', text: 'second_text', message: 'Expected second_text of at most 120000 characters but received 120001' }),
    );
  });

  it('throws InvalidArgumentError for a text that is not a string', () => {
    expect(() => compareTexts(42 as unknown as string, 'x')).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'Expected string for first_text but received 42 of type number' }),
    );
  });

  it('throws InvalidArgumentError for a non-positive maxChars', () => {
    const call = () => compareTexts('a', 'b', { maxChars: 0 });
    expect(call).toThrow(InvalidArgumentError);
    expect(call).toThrow('Expected positive integer for maxChars but received 0 of type number');
  });

  it('throws InvalidArgumentError for a fractional minAnchorWords', () => {
    expect(() => compareTexts('a', 'b', { minAnchorWords: 2.5 })).toThrow(expect.objectContaining({ argument: 'minAnchorWords' }));
  });

  it('matches a short common phrase in dissimilar text only when minAnchorWords allows it', () => {
    const first = 'Yesterday morning my neighbour bought one red apple at the market near the station before work.';
    const second = 'Painters often choose some red apple varieties as subjects because its colour contrasts with pale backgrounds.';
    const phrase = (options?: { minAnchorWords: number }) => {
      const result = compareTexts(first, second, options);
      expectConsistent(result, first, second);
      return result.first_text.items.map((it) => first.slice(it.index_start, it.index_start + it.length));
    };
    expect(phrase()).toEqual([]);
    expect(phrase({ minAnchorWords: 2 })).toEqual(['red apple']);
  });

  it('reports a moved block only from minMovedWords words on', () => {
    const moved = 'seven words that moved to the end';
    const rest = 'and here is a long stretch of other text that stays where it was in both versions';
    const first = `${moved}. ${rest}.`;
    const second = `${rest}. ${moved}.`;
    const matching = (minMovedWords: number) => {
      const result = compareTexts(first, second, { minMovedWords });
      expectConsistent(result, first, second);
      return result.first_text.matching_word_count;
    };
    expect(matching(7)).toBe(24);
    expect(matching(8)).toBe(17);
  });
});
