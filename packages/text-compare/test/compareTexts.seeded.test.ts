import { wordSpans } from '@content-analysis/credits';
import { describe, expect, it } from 'vitest';
import { compareTexts } from '../src/index.js';
import type { TextCompareOptions } from '../src/index.js';
import { expectConsistent, seededRandom } from './helpers.js';

// Seeded pairs in the spirit of scripts/fuzz-compare.mjs (which also compares with an older build): lines of
// made-up prose mixed with pieces that the segmenter reads (accents, CJK, emoji, marks, joiners), numbers and
// abbreviations, edited word by word and line by line.

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'da', 'pe', 'zu', 'ho'];
const PIECES = [
  'café', 'naïve', 'e\u0301', 'a\u0308\u0301', '\u0301', '\u200d', '\u200b', '\u00ad', '中文', '日本語の文章です',
  '한국어 문장', 'ภาษาไทย', 'русский текст', '👍', '👨\u200d👩\u200d👧', '🇫🇷', '👋🏽', '1,234.5', 'U.S.', 'e.g.', 'Ph.D.',
  "don't", 'don’t', 'rock’n’roll', 'the.cat.sat', 'a_b', '“quoted”', '—', '…', '\t', '\u00a0', '\u3000', '\r',
  '\ud800', 'ＡＢＣ', 'ﬁne',
];
const CJK = '我们在这里讨论一个很长的中文句子，没有任何空格它应该被切分成很多个词语。而且这个句子还会继续写下去';

function int(random: () => number, lo: number, hi: number): number {
  return lo + Math.floor(random() * (hi - lo + 1));
}

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

function word(random: () => number): string {
  if (random() < 0.12) return pick(random, PIECES);
  let w = '';
  for (let i = int(random, 1, 3); i > 0; i--) w += pick(random, SYLLABLES);
  return random() < 0.05 ? w.toUpperCase() : w;
}

function baseText(random: () => number, words: number): string {
  let text = '';
  for (let i = 0; i < words; i++) {
    text += word(random);
    const r = random();
    text += r < 0.08 ? '\n' : r < 0.1 ? '.\n\n' : r < 0.12 ? '\r\n' : r < 0.13 ? ` ${CJK.slice(0, int(random, 1, 60))}\n` : ' ';
  }
  return random() < 0.5 ? text : text.trimEnd();
}

/** One edit: a word inserted, deleted or replaced, lines joined or split, a piece at a line's end or start. */
function edit(random: () => number, text: string): string {
  const at = int(random, 0, text.length);
  const space = text.indexOf(' ', at);
  const nl = text.indexOf('\n', at);
  switch (int(random, 0, 7)) {
    case 0: return space === -1 ? text : `${text.slice(0, space)} ${word(random)}${text.slice(space)}`;
    case 1: {
      const next = text.indexOf(' ', space + 1);
      return space === -1 || next === -1 ? text : text.slice(0, space) + text.slice(next);
    }
    case 2: return nl === -1 ? text : `${text.slice(0, nl)} ${text.slice(nl + 1)}`;
    case 3: return space === -1 ? text : `${text.slice(0, space)}\n${text.slice(space + 1)}`;
    case 4: return nl === -1 ? text : text.slice(0, nl) + pick(random, ['é', '中', 's', ' ', '👍', '\r']) + text.slice(nl);
    case 5: return nl === -1 ? text : text.slice(0, nl + 1) + pick(random, PIECES) + text.slice(nl + 1);
    case 6: return text.replace(/\r?\n/g, random() < 0.5 ? '\r\n' : '\n');
    default: return text.slice(0, at) + pick(random, PIECES) + text.slice(at);
  }
}

interface Case {
  first: string;
  second: string;
  options: TextCompareOptions | undefined;
}

function makeCase(seed: number): Case {
  const random = seededRandom(seed);
  // Mostly short texts, now and then a larger one, so that a small comparison follows a big one.
  const words = pick(random, [0, 1, 3, 10, 40, 120, 120, 300, 600]);
  const base = baseText(random, words);
  let second = base;
  const r = random();
  if (r >= 0.08) {
    for (let e = int(random, 1, 2 + (words >> 4)); e > 0; e--) second = edit(random, second);
  }
  const swap = random() < 0.5;
  const options = random() < 0.8 ? undefined
    : { minAnchorWords: int(random, 1, 5), detectMoves: random() < 0.7, minMovedWords: int(random, 1, 8) };
  return swap ? { first: second, second: base, options } : { first: base, second, options };
}

const CASES = Array.from({ length: 300 }, (_, k) => makeCase(1000 + k));

describe('compareTexts on seeded edited pairs', () => {
  it('gives consistent results, the same ones when repeated in another order after other comparisons', () => {
    const results = CASES.map((c) => compareTexts(c.first, c.second, c.options));
    CASES.forEach((c, k) => expectConsistent(results[k]!, c.first, c.second));
    const order = CASES.map((_, k) => k);
    const random = seededRandom(7);
    for (let k = order.length - 1; k > 0; k--) {
      const j = int(random, 0, k);
      [order[k], order[j]] = [order[j]!, order[k]!];
    }
    for (const k of order) {
      const c = CASES[k]!;
      expect(compareTexts(c.first, c.second, c.options), `case ${k}`).toEqual(results[k]);
    }
  });

  it('gives the same result with every line break written as a space (same words, same offsets)', () => {
    let compared = 0;
    CASES.forEach((c, k) => {
      const first = c.first.replaceAll('\n', ' ');
      const second = c.second.replaceAll('\n', ' ');
      // The segmenter joins a mark or format character to a space before it, never to a line break.
      const sameWords = (x: string, y: string) => wordSpans(x).join() === wordSpans(y).join();
      if (!sameWords(c.first, first) || !sameWords(c.second, second)) return;
      compared++;
      expect(compareTexts(first, second, c.options), `case ${k}`).toEqual(compareTexts(c.first, c.second, c.options));
    });
    expect(compared).toBeGreaterThan(250);
  });

  it('finds identical texts identical, and swapped texts give the same counts the other way round', () => {
    CASES.forEach((c, k) => {
      const same = compareTexts(c.first, c.first, c.options);
      const words = wordSpans(c.first).length / 2;
      expect(same.first_text.matching_word_count, `case ${k}`).toBe(words);
      expect(same.similarity_score).toBe(words === 0 ? 0 : 100);
      expect(same.first_text.items.every((item) => item.type === 'identical')).toBe(true);
      expect(same.second_text.items).toEqual(same.first_text.items);
      const ab = compareTexts(c.first, c.second, c.options);
      const ba = compareTexts(c.second, c.first, c.options);
      expect(ba.first_text.total_word_count).toBe(ab.second_text.total_word_count);
      expect(ba.second_text.total_word_count).toBe(ab.first_text.total_word_count);
    });
  });
});
