import { splitSentences } from './splitSentences.js';

const WORD = /\p{L}+(?:'\p{L}+)*/gu;
const VOWEL_GROUPS = /[aeiouy]+/g;

/** Flesch reading ease (Flesch 1948) of English text, clipped to 0..100; 0 for text without words. */
export function fleschReadingEase(text: string): number {
  const sentences = Math.max(1, splitSentences(text).length);
  let words = 0;
  let syllables = 0;
  for (const m of text.matchAll(WORD)) {
    words++;
    syllables += countSyllables(m[0].toLowerCase());
  }
  if (words === 0) return 0;
  const score = 206.835 - 1.015 * (words / sentences) - 84.6 * (syllables / words);
  return Math.round(Math.min(100, Math.max(0, score)) * 100) / 100;
}

/** Vowel groups, less a silent final e, at least one: the usual heuristic for English. */
export function countSyllables(word: string): number {
  const groups = word.match(VOWEL_GROUPS)?.length ?? 0;
  const silentE = word.length > 2 && word.endsWith('e') && !word.endsWith('le') && groups > 1 ? 1 : 0;
  return Math.max(1, groups - silentE);
}
