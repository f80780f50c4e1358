import { wordSpans } from '@content-analysis/credits';
import { expect } from 'vitest';
import type { TextCompareResult } from '../src/index.js';
import { wordKey } from '../src/wordKey.js';

/** Deterministic PRNG (mulberry32), so that random inputs are the same on every run. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The words (as written) of `text.slice(start, start + length)`, checking that it starts and ends on a word. */
function wordsOfItem(text: string, spans: Uint32Array, start: number, length: number): string[] {
  const words: string[] = [];
  let first = -1;
  for (let w = 0; w < spans.length / 2; w++) {
    if (spans[2 * w] === start) first = w;
    if (first >= 0 && spans[2 * w]! < start + length) words.push(text.slice(spans[2 * w]!, spans[2 * w + 1]!));
    if (first >= 0 && spans[2 * w + 1] === start + length) return words;
  }
  throw new Error(`item [${start}, ${start + length}) does not start and end on word boundaries`);
}

/**
 * Checks what every result must satisfy: each item's slice is a run of whole words; item k of both sides has
 * the same type, word count and normalised words; identical items have the same words as written; items do
 * not overlap; the counts and percentages add up.
 */
export function expectConsistent(result: TextCompareResult, first: string, second: string): void {
  const spansA = wordSpans(first);
  const spansB = wordSpans(second);
  const a = result.first_text;
  const b = result.second_text;
  expect(a.total_word_count).toBe(spansA.length / 2);
  expect(b.total_word_count).toBe(spansB.length / 2);
  expect(a.items.length).toBe(b.items.length);
  let previousEnd = -1;
  a.items.forEach((itemA, k) => {
    const itemB = b.items[k]!;
    expect(itemB.type).toBe(itemA.type);
    expect(itemB.word_count).toBe(itemA.word_count);
    const wordsA = wordsOfItem(first, spansA, itemA.index_start, itemA.length);
    const wordsB = wordsOfItem(second, spansB, itemB.index_start, itemB.length);
    expect(wordsA.length).toBe(itemA.word_count);
    expect(wordsB.length).toBe(itemB.word_count);
    expect(wordsA.map(wordKey)).toEqual(wordsB.map(wordKey));
    if (itemA.type === 'identical') expect(wordsA).toEqual(wordsB);
    expect(itemA.index_start).toBeGreaterThan(previousEnd);
    previousEnd = itemA.index_start + itemA.length - 1;
  });
  const matching = a.items.reduce((sum, item) => sum + item.word_count, 0);
  expect(a.matching_word_count).toBe(matching);
  expect(b.matching_word_count).toBe(matching);
  expect(matching).toBeLessThanOrEqual(Math.min(a.total_word_count, b.total_word_count));
}

/** `[type, text]` of each item of one side, for readable assertions. */
export function itemTexts(text: string, items: TextCompareResult['first_text']['items']): [string, string][] {
  return items.map((item) => [item.type, text.slice(item.index_start, item.index_start + item.length)]);
}
