/**
 * The one word counter of the project: every feature that charges per word, and every result that reports a
 * word count, uses these functions, so a count shown to a caller is the count that was charged.
 *
 * A word is a word-like segment of Unicode text segmentation (UAX #29) as `Intl.Segmenter` reports it: in CJK,
 * Thai, Lao, Khmer and Myanmar text, where words are not separated by spaces, ICU's dictionary segmentation
 * decides. `Intl.Segmenter` iterates in time quadratic in the length of the string it is given (measured on
 * Node 20: 1.5 s for 110k characters), so text is cut at white space into short pieces first; pieces of plain
 * ASCII, the bulk of most input, take a scanner that applies the same UAX #29 rules directly.
 */

import {
  ASCII_CLASS, DIGIT, isSpaceCode, isWordChar, joinsAcross, LETTER, SPACE, UNDERSCORE,
} from './wordClasses.js';

/** Longest stretch of non-ASCII text given to `Intl.Segmenter` at once; it is cut only at white space. */
const SEGMENTER_PIECE = 512;

const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

/** Growing list of spans `[start0, end0, start1, end1, ...]`, kept in a typed array. */
export class SpanList {
  data: Uint32Array;
  length = 0;

  constructor(capacity: number) {
    this.data = new Uint32Array(Math.max(16, capacity));
  }

  push(start: number, end: number): void {
    if (this.length + 2 > this.data.length) {
      const grown = new Uint32Array(2 * this.data.length);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = start;
    this.data[this.length++] = end;
  }
}

/**
 * Appends the word spans of the piece of text starting at `from` (a character that is not white space) and
 * ending at the next white space, if the piece is plain ASCII: returns the piece's end. Returns -1 as soon as it
 * meets a character that is neither ASCII nor white space; the spans it appended for the piece must then be
 * dropped (the piece goes to `Intl.Segmenter`). One pass finds the piece and its words.
 */
function scanAsciiPiece(text: string, from: number, n: number, out: SpanList): number {
  let i = from;
  while (i < n) {
    const code = text.charCodeAt(i);
    if (code >= 128) return isSpaceCode(code) ? i : -1;
    let cls = ASCII_CLASS[code]!;
    if (cls === SPACE) return i;
    if (!isWordChar(cls)) {
      i++;
      continue;
    }
    const start = i;
    let wordLike = cls !== UNDERSCORE;
    i++;
    while (i < n) {
      const nextCode = text.charCodeAt(i);
      if (nextCode >= 128) {
        if (isSpaceCode(nextCode)) break;
        return -1;
      }
      const next = ASCII_CLASS[nextCode]!;
      if (isWordChar(next)) {
        if (next !== UNDERSCORE) wordLike = true;
        cls = next;
        i++;
        continue;
      }
      if (next !== SPACE && i + 1 < n) {
        const afterCode = text.charCodeAt(i + 1);
        if (afterCode >= 128) {
          if (isSpaceCode(afterCode)) break;
          return -1;
        }
        if (joinsAcross(cls, next, ASCII_CLASS[afterCode]!)) {
          i += 1;
          continue;
        }
      }
      break;
    }
    // ICU quirk, kept for parity: a lone '_' is not word-like, a run of two or more is.
    if (wordLike || i - start > 1) out.push(start, i);
  }
  return i;
}

/**
 * Where a long run without white space (Chinese or Japanese prose) may be cut: after the last punctuation
 * mark of the window (CJK symbols and punctuation, full-width forms, or ASCII punctuation), else at the
 * window's end, never between the halves of a surrogate pair.
 */
function cutPoint(text: string, from: number, limit: number): number {
  for (let j = limit; j > from + (limit - from) / 2; j--) {
    const c = text.charCodeAt(j - 1);
    if ((c >= 0x3000 && c <= 0x303f) || (c >= 0xff01 && c <= 0xff0f) || c === 0xff1f || c === 0xff0c ||
      c === 0xff1b || c === 0xff1a || c === 0x2e || c === 0x2c || c === 0x21 || c === 0x3f) return j;
  }
  const c = text.charCodeAt(limit - 1);
  return c >= 0xd800 && c <= 0xdbff ? limit - 1 : limit;
}

function scanWithSegmenter(text: string, from: number, to: number, out: SpanList): void {
  let start = from;
  while (start < to) {
    const end = to - start > 2 * SEGMENTER_PIECE ? cutPoint(text, start, start + SEGMENTER_PIECE) : to;
    for (const s of segmenter.segment(text.slice(start, end))) {
      if (s.isWordLike) out.push(start + s.index, start + s.index + s.segment.length);
    }
    start = end;
  }
}

/**
 * The word spans of `text`: a flat array `[start0, end0, start1, end1, ...]` of UTF-16 offsets, in order.
 * `text.slice(start, end)` is the word as written.
 */
export function wordSpans(text: string): Uint32Array {
  const out = new SpanList(Math.ceil(text.length / 3));
  collectWordSpans(text, out);
  return out.data.slice(0, out.length);
}

/** Appends the word spans of `text` to `out` (see {@link wordSpans}). */
function collectWordSpans(text: string, out: SpanList): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    // Skip white space, then take the next piece: a maximal run of non-space characters. A piece of plain ASCII,
    // the bulk of most input, is scanned for words in the same pass; any other piece is extended over following
    // runs (and the space between them) while it stays non-ASCII and short enough, and given to the segmenter.
    while (i < n && isSpaceCode(text.charCodeAt(i))) i++;
    if (i >= n) break;
    const start = i;
    const mark = out.length;
    const asciiEnd = scanAsciiPiece(text, start, n, out);
    if (asciiEnd >= 0) {
      i = asciiEnd;
      continue;
    }
    out.length = mark;
    i = segmentPiece(text, start, out);
  }
}

/**
 * Appends the word spans of the piece of text starting at `start` (a character that is not white space, where
 * the ASCII scanner met a character that is neither ASCII nor white space): the piece is extended over following
 * runs of non-space characters (and the space between them) while they hold a non-ASCII character and the piece
 * is short enough, and given to the segmenter. Returns the piece's end.
 */
export function segmentPiece(text: string, start: number, out: SpanList): number {
  const n = text.length;
  let i = start;
  while (i < n && !isSpaceCode(text.charCodeAt(i))) i++;
  let end = i;
  while (end - start < SEGMENTER_PIECE && end < n) {
    let j = end;
    while (j < n && isSpaceCode(text.charCodeAt(j))) j++;
    let k = j;
    let nonAscii = false;
    while (k < n && !isSpaceCode(text.charCodeAt(k))) {
      if (text.charCodeAt(k) >= 128) nonAscii = true;
      k++;
    }
    if (!nonAscii || k === j) break;
    end = k;
  }
  scanWithSegmenter(text, start, end, out);
  return end;
}

/** Characters of a word that count as one word; a longer run without a break counts one word per this many. */
export const LONG_WORD = 45;

const LETTER_OR_DIGIT = /[\p{L}\p{M}\p{N}]/u;
const DIGITS = /^\p{N}+$/u;
const APOSTROPHES = new Set(["'", '\u2019', '\u02bc', '\uff07']);
/** Right sides of English contractions of 2 letters (those of 1 letter never count as a word of their own). */
const CONTRACTIONS = new Set(['ll', 're', 've']);

/**
 * Words billed for one word of the segmentation, `word`: as many as the detector reads in it. UAX #29 keeps
 * letters joined by `.`, `:`, `_` or `'` (and other joiners such as U+00B7) in one word, but the AI-text detector
 * and the other analyses read each side, so `the.cat.sat` written without spaces would cost a third. The word is
 * cut at its joiners into parts (digit groups stay together: `1,234,567.5` is one number) and counts:
 * - one, plus one per join where both sides have at least 2 characters (across an apostrophe, the right one not
 *   `ll`, `re` or `ve`), so `e.g`, `U.S`, `Ph.D`, `don't`, `we'll`, `O'Brien` and `rock'n'roll` stay one word and
 *   `the.cat.sat` and `of'to` are three and two;
 * - at least one per three parts (`a.b.c.d.e.f` is two), and at least one per {@link LONG_WORD} characters.
 */
export function billedWords(word: string): number {
  const parts: string[] = [];
  const joiners: string[] = [];
  let start = 0;
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    const isWordChar = code < 128 ? ASCII_CLASS[code] === LETTER || ASCII_CLASS[code] === DIGIT : LETTER_OR_DIGIT.test(word[i]!) || (code >= 0xd800 && code <= 0xdfff);
    if (isWordChar) continue;
    if (i > start) {
      parts.push(word.slice(start, i));
      joiners.push(word[i]!);
    }
    start = i + 1;
  }
  if (start < word.length) parts.push(word.slice(start));
  let count = 1;
  let groups = 1;
  for (let p = 1; p < parts.length; p++) {
    const left = parts[p - 1]!;
    const right = parts[p]!;
    if (DIGITS.test(left) && DIGITS.test(right)) continue;
    groups += 1;
    // Across an apostrophe, the right side of an English contraction (`n't`, `'s`, `'re`, `'ll`, ...) is no word of
    // its own; any other part of 2 characters or more is (`of'to` is two words, as `of.to` is).
    if (left.length >= 2 && right.length >= 2 && !(APOSTROPHES.has(joiners[p - 1]!) && CONTRACTIONS.has(right.toLowerCase()))) count += 1;
  }
  return Math.max(count, Math.ceil(groups / 3), Math.ceil(word.length / LONG_WORD));
}

/**
 * Number of words in `text`, as charged and as reported everywhere: the words of {@link wordSpans}, each counted
 * as {@link billedWords} does, so that joining words with `.`, `_`, `:` or `'` instead of spaces costs what the
 * detector reads.
 */
export function countWords(text: string): number {
  const list = new SpanList(Math.ceil(text.length / 3));
  collectWordSpans(text, list);
  const spans = list.data;
  let count = 0;
  for (let i = 0; i < list.length; i += 2) {
    const start = spans[i]!;
    const end = spans[i + 1]!;
    // Most words are a single run of ASCII letters or digits: no joiner to look for, nothing to slice.
    if (end - start <= 2) count += 1;
    else if (isAsciiAlphanumeric(text, start, end)) count += Math.ceil((end - start) / LONG_WORD);
    else count += billedWords(text.slice(start, end));
  }
  return count;
}

/** Whether `text[start, end)` is ASCII letters and digits only: {@link billedWords} then counts it by its length. */
function isAsciiAlphanumeric(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code >= 128) return false;
    const cls = ASCII_CLASS[code];
    if (cls !== LETTER && cls !== DIGIT) return false;
  }
  return true;
}
