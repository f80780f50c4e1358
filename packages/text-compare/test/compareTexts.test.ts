import { countWords } from '@content-analysis/credits';
import { describe, expect, it } from 'vitest';
import { compareTexts } from '../src/index.js';
import { expectConsistent, itemTexts } from './helpers.js';

function compare(first: string, second: string, options?: Parameters<typeof compareTexts>[2]) {
  const result = compareTexts(first, second, options);
  expectConsistent(result, first, second);
  return result;
}

const FOX = 'The quick brown fox jumps over the lazy dog.';

describe('compareTexts', () => {
  it('reports identical texts as 100 with one identical item per side covering the words', () => {
    const result = compare(FOX, FOX);
    expect(result.similarity_score).toBe(100);
    for (const side of [result.first_text, result.second_text]) {
      expect(side).toEqual({
        total_word_count: 9,
        matching_word_count: 9,
        similarity_percentage: 100,
        items: [{ type: 'identical', word_count: 9, index_start: 0, length: 43 }],
      });
    }
  });

  it('reports texts without a common word as 0 with no items', () => {
    const result = compare('Alpha beta gamma delta.', 'Uno dos tres cuatro cinco.');
    expect(result.similarity_score).toBe(0);
    expect(result.first_text).toEqual({ total_word_count: 4, matching_word_count: 0, similarity_percentage: 0, items: [] });
    expect(result.second_text).toEqual({ total_word_count: 5, matching_word_count: 0, similarity_percentage: 0, items: [] });
  });

  it('does not match a lone common word between unrelated sentences', () => {
    const result = compare('The cat sat on the mat.', 'A dog lay under the rug.');
    expect(result.similarity_score).toBe(0);
    expect(result.first_text.items).toEqual([]);
  });

  it('matches the words around one replaced word with exact counts and offsets', () => {
    const second = 'The quick red fox jumps over the lazy dog.';
    const result = compare(FOX, second);
    expect(result.first_text.items).toEqual([
      { type: 'identical', word_count: 2, index_start: 0, length: 9 },
      { type: 'identical', word_count: 6, index_start: 16, length: 27 },
    ]);
    expect(result.second_text.items).toEqual([
      { type: 'identical', word_count: 2, index_start: 0, length: 9 },
      { type: 'identical', word_count: 6, index_start: 14, length: 27 },
    ]);
    expect(result.first_text.matching_word_count).toBe(8);
    expect(result.first_text.similarity_percentage).toBe(88.89);
    expect(result.similarity_score).toBe(88.89);
  });

  it('matches the unchanged words between edits that are one word apart', () => {
    const first = 'alpha bravo charlie delta echo';
    const second = 'alpha xray charlie yankee echo';
    const result = compare(first, second);
    expect(itemTexts(first, result.first_text.items)).toEqual([
      ['identical', 'alpha'], ['identical', 'charlie'], ['identical', 'echo'],
    ]);
    expect(result.similarity_score).toBe(60);
  });

  it('reports a word that differs only in case as minor_changes', () => {
    const first = 'The Quick brown fox';
    const second = 'The quick brown fox';
    const result = compare(first, second);
    const expected = [
      { type: 'identical', word_count: 1, index_start: 0, length: 3 },
      { type: 'minor_changes', word_count: 1, index_start: 4, length: 5 },
      { type: 'identical', word_count: 2, index_start: 10, length: 9 },
    ];
    expect(result.first_text.items).toEqual(expected);
    expect(result.second_text.items).toEqual(expected);
    expect(result.similarity_score).toBe(100);
  });

  it('reports differing punctuation between words as minor_changes on the words beside it', () => {
    const first = 'It was the end. The story goes on.';
    const second = 'It was the end, the story goes on.';
    const result = compare(first, second);
    const expected = [
      { type: 'identical', word_count: 3, index_start: 0, length: 10 },
      { type: 'minor_changes', word_count: 2, index_start: 11, length: 8 },
      { type: 'identical', word_count: 3, index_start: 20, length: 13 },
    ];
    expect(result.first_text.items).toEqual(expected);
    expect(result.second_text.items).toEqual(expected);
    expect(itemTexts(second, result.second_text.items)[1]).toEqual(['minor_changes', 'end, the']);
  });

  it('reports differing final punctuation as minor_changes on the last word', () => {
    const result = compare('Hello world.', 'Hello world!');
    expect(itemTexts('Hello world.', result.first_text.items)).toEqual([['identical', 'Hello'], ['minor_changes', 'world']]);
  });

  it('treats differences in white space alone as identical', () => {
    const first = 'one two three four';
    const second = '  one\ntwo   three\n\nfour ';
    const result = compare(first, second);
    expect(result.first_text.items).toEqual([{ type: 'identical', word_count: 4, index_start: 0, length: 18 }]);
    expect(result.second_text.items).toEqual([{ type: 'identical', word_count: 4, index_start: 2, length: 21 }]);
  });

  it('reports curly and straight apostrophes as minor_changes of the same word', () => {
    const first = 'we don’t know yet';
    const second = "we don't know yet";
    const result = compare(first, second);
    expect(itemTexts(first, result.first_text.items)).toEqual([
      ['identical', 'we'], ['minor_changes', 'don’t'], ['identical', 'know yet'],
    ]);
  });

  it('reports full-width letters as minor_changes of their ASCII form', () => {
    const result = compare('model ＧＰＴ output', 'model GPT output');
    expect(result.first_text.items.map((item) => item.type)).toEqual(['identical', 'minor_changes', 'identical']);
    expect(result.similarity_score).toBe(100);
  });

  it('finds both of two reordered paragraphs, the second as a moved block', () => {
    const p1 = 'The first paragraph talks about cats and dogs living together in one small house.';
    const p2 = 'Another paragraph, much longer, describes the weather in the mountains during a cold and snowy winter.';
    const first = `${p1}\n\n${p2}`;
    const second = `${p2}\n\n${p1}`;
    const result = compare(first, second);
    expect(result.similarity_score).toBe(100);
    expect(itemTexts(second, result.second_text.items).map(([, text]) => text)).toEqual([
      p1.slice(0, -1), p2.slice(0, -1),
    ]);
  });

  it('finds the longer of two reordered paragraphs when moves are not detected', () => {
    const p1 = 'The first paragraph talks about cats and dogs living together.';
    const p2 = 'Another paragraph, much longer, describes the weather in the mountains during a cold and snowy winter.';
    const first = `${p1}\n\n${p2}`;
    const second = `${p2}\n\n${p1}`;
    const result = compare(first, second, { detectMoves: false });
    expect(itemTexts(first, result.first_text.items).map(([, text]) => text).join(' ')).toBe(
      'Another paragraph, much longer, describes the weather in the mountains during a cold and snowy winter',
    );
  });

  it('counts Chinese words as wordSpans does and matches the unchanged ones', () => {
    const first = '我们今天去公园散步。天气很好，孩子们在草地上玩耍。';
    const second = '我们今天去公园散步。天气不好，孩子们在家里看书。';
    const result = compare(first, second);
    expect(result.first_text.total_word_count).toBe(countWords(first));
    expect(result.second_text.total_word_count).toBe(countWords(second));
    expect(result.first_text.items[0]).toMatchObject({ type: 'identical', index_start: 0 });
    expect(result.first_text.matching_word_count).toBeGreaterThanOrEqual(6);
    expect(result.first_text.matching_word_count).toBeLessThan(result.first_text.total_word_count);
  });

  it('counts Thai words as wordSpans does and matches identical Thai text fully', () => {
    const thai = 'ฉันชอบกินข้าวผัดกับเพื่อนที่ร้านอาหารใกล้บ้าน';
    const result = compare(thai, thai);
    expect(result.first_text.total_word_count).toBe(countWords(thai));
    expect(result.first_text.total_word_count).toBeGreaterThan(5);
    expect(result.similarity_score).toBe(100);
  });

  it('matches the unchanged Thai words around an edit', () => {
    const first = 'ฉันชอบกินข้าวผัดกับเพื่อนที่ร้านอาหารใกล้บ้าน';
    const second = 'ฉันชอบกินก๋วยเตี๋ยวกับเพื่อนที่ร้านอาหารใกล้บ้าน';
    const result = compare(first, second);
    expect(result.first_text.matching_word_count).toBeGreaterThanOrEqual(result.first_text.total_word_count - 2);
    expect(result.first_text.matching_word_count).toBeLessThan(result.first_text.total_word_count);
  });

  it('pairs item k of both sides as the same run, with the same type and word count', () => {
    const first = 'Alpha beta gamma delta. Epsilon zeta eta theta iota kappa.';
    const second = 'alpha beta gamma delta, epsilon zeta ETA theta lambda kappa.';
    const result = compare(first, second);
    expect(itemTexts(first, result.first_text.items)).toEqual([
      ['minor_changes', 'Alpha'], ['identical', 'beta gamma'], ['minor_changes', 'delta. Epsilon'],
      ['identical', 'zeta'], ['minor_changes', 'eta'], ['identical', 'theta'], ['identical', 'kappa'],
    ]);
    expect(itemTexts(second, result.second_text.items)).toEqual([
      ['minor_changes', 'alpha'], ['identical', 'beta gamma'], ['minor_changes', 'delta, epsilon'],
      ['identical', 'zeta'], ['minor_changes', 'ETA'], ['identical', 'theta'], ['identical', 'kappa'],
    ]);
  });

  it('gives symmetric counts when the texts are swapped', () => {
    const first = 'A rather long sentence about rivers, with a few words changed here and there.';
    const second = 'A rather short sentence about rivers, with some words changed there.';
    const forward = compare(first, second);
    const backward = compare(second, first);
    expect(backward.similarity_score).toBe(forward.similarity_score);
    expect(backward.first_text.total_word_count).toBe(forward.second_text.total_word_count);
    expect(backward.first_text.matching_word_count).toBe(forward.second_text.matching_word_count);
    expect(backward.second_text.similarity_percentage).toBe(forward.first_text.similarity_percentage);
  });

  it('reports 0 for a text without words', () => {
    const result = compare('', FOX);
    expect(result.similarity_score).toBe(0);
    expect(result.first_text).toEqual({ total_word_count: 0, matching_word_count: 0, similarity_percentage: 0, items: [] });
    expect(result.second_text.total_word_count).toBe(9);
  });

  it('computes the score over both texts and the percentages per side', () => {
    const result = compare('one two three four', 'one two three four five six seven eight');
    expect(result.first_text.similarity_percentage).toBe(100);
    expect(result.second_text.similarity_percentage).toBe(50);
    expect(result.similarity_score).toBe(66.67);
  });
});
