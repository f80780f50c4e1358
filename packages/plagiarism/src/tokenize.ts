import { wordSpans } from '@content-analysis/credits';
import { normalizeText } from './normalizeText.js';

/** The words of a text, as parallel arrays; offsets index the ORIGINAL text. */
export interface TokenizedText {
  readonly original: string;
  /** Number of words. */
  readonly length: number;
  /** Start offset of word i in the original text. */
  readonly starts: Uint32Array;
  /** End offset (exclusive) of word i in the original text. */
  readonly ends: Uint32Array;
  /** Matching key of word i: NFKC, lower case, apostrophes unified, after removing evasions. */
  readonly keys: readonly string[];
  readonly zeroWidth: boolean;
  readonly homoglyph: boolean;
}

/** Normalises the matching key of one word. */
export function wordKey(word: string): string {
  let key = word;
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(key)) key = key.normalize('NFKC').replace(/[’‘ʼ]/g, "'");
  return key.toLowerCase();
}

/**
 * Splits `text` into words with the project's word counter (`wordSpans` of `@content-analysis/credits`), run on
 * the text cleaned of zero-width characters and homoglyphs, with every span mapped back to the original.
 */
export function tokenize(text: string): TokenizedText {
  const clean = normalizeText(text);
  const spans = wordSpans(clean.text);
  const length = spans.length / 2;
  const starts = new Uint32Array(length);
  const ends = new Uint32Array(length);
  const keys: string[] = new Array(length);
  const map = clean.toOriginal;
  for (let w = 0; w < length; w++) {
    const s = spans[2 * w]!;
    const e = spans[2 * w + 1]!;
    starts[w] = map[s]!;
    ends[w] = map[e - 1]! + 1;
    keys[w] = wordKey(clean.text.slice(s, e));
  }
  return { original: text, length, starts, ends, keys, zeroWidth: clean.zeroWidth, homoglyph: clean.homoglyph };
}
