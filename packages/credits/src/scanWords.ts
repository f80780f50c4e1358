import {
  ASCII_CLASS, isSpaceCode, isWordChar, joinsAcross, SPACE, UNDERSCORE,
} from './wordClasses.js';
import { segmentPiece, SpanList } from './words.js';

/**
 * The words of `wordSpans`, each with a hash of its code units, for callers that go on to look every word up
 * (text compare gives each word an id). One pass over the code units of plain ASCII text cuts the words and
 * hashes them without a branch that depends on the text, except at the rare characters that are neither ASCII
 * nor white space, whose pieces go to `Intl.Segmenter` as in `wordSpans`: a scanner that branches per
 * character was measured at 5-6 ns per character on real prose, most of it in mispredicted branches at word
 * boundaries (one or two per word).
 */

/** Class of a code unit that is neither ASCII nor white space: its piece goes to the segmenter. */
const NON_ASCII = 8;

/** Class of every UTF-16 code unit: ASCII ones as `wordSpans` sees them, white space, or NON_ASCII. */
const UNIT_CLASS = new Uint8Array(0x10000).fill(NON_ASCII);
UNIT_CLASS.set(ASCII_CLASS);
for (let code = 128; code < 0x10000; code++) if (isSpaceCode(code)) UNIT_CLASS[code] = SPACE;

/**
 * `IN_WORD[previous << 8 | current << 4 | next]` (classes) is 1 when a code unit of class `current` belongs to a
 * word: a letter, digit or '_', or a joiner between two letters (':', '.', "'") or two digits (',', ';', '.').
 * UAX #29 looks no further than one code unit on each side in ASCII, so a word is a maximal run of such units.
 */
const IN_WORD = new Uint8Array(1 << 12);
for (let previous = 0; previous <= NON_ASCII; previous++) {
  for (let current = 0; current <= NON_ASCII; current++) {
    for (let next = 0; next <= NON_ASCII; next++) {
      const inWord = isWordChar(current) || joinsAcross(previous, current, next);
      IN_WORD[(previous << 8) | (current << 4) | next] = inWord ? 1 : 0;
    }
  }
}

const HASH_PRIME = 0x01000193;

/**
 * Hash of the code units of `text[start, end)` that {@link scanWords} gives each word: h = 0, then
 * h = (h xor unit) · 16777619 (mod 2^32) for each unit (FNV-1a's step from zero).
 */
export function wordCodeHash(text: string, start: number, end: number): number {
  let hash = 0;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), HASH_PRIME);
  return hash;
}

/** Words found by {@link scanWords}. */
export interface WordScan {
  /** `[start0, end0, start1, end1, ...]`: UTF-16 offsets as `wordSpans` gives them; the first `2 · count` are used. */
  spans: Uint32Array;
  /** {@link wordCodeHash} of each word; the first `count` are used. */
  hashes: Int32Array;
  /** Number of words. */
  count: number;
  /**
   * `[start0, end0, ...]`: the pieces whose words came from `Intl.Segmenter` (each holds a code unit that is
   * neither ASCII nor white space). Outside them, the words of a stretch of text between two white spaces depend
   * on that stretch alone.
   */
  segmented: number[];
}

/** An empty {@link WordScan} with room for `capacity` words (it grows as needed). */
export function createWordScan(capacity = 16): WordScan {
  const words = Math.max(16, capacity);
  return { spans: new Uint32Array(2 * words), hashes: new Int32Array(words), count: 0, segmented: [] };
}

/** Grows `out`'s arrays, when needed, so that `words` more words fit after its `count` (the words kept). */
export function reserveWordScan(out: WordScan, words: number): void {
  const needed = out.count + words;
  if (needed <= out.hashes.length) return;
  const capacity = Math.max(needed, 2 * out.hashes.length);
  const spans = new Uint32Array(2 * capacity);
  spans.set(out.spans.subarray(0, 2 * out.count));
  const hashes = new Int32Array(capacity);
  hashes.set(out.hashes.subarray(0, out.count));
  out.spans = spans;
  out.hashes = hashes;
}

/** Code units read between two checks of the output's room (a chunk ends at the next white space after it). */
const CHUNK = 8192;

/**
 * Appends to `out` the words of `text[from, to)` with their hashes, exactly as `wordSpans(text)` cuts them there:
 * `from` must be 0 or follow white space and `to` must be the text's end or at white space, so that no piece of
 * text crosses either; `scanWords(text, out)` reads the whole text. Returns the offset where reading stopped:
 * `to`, or further when a piece given to the segmenter (non-ASCII text, which is extended over white space up to
 * 512 code units, as in `wordSpans`) reached past `to`.
 */
export function scanWords(text: string, out: WordScan, from = 0, to = text.length): number {
  const first = out.count;
  let i = from;
  while (i < to) {
    let chunkEnd = Math.min(to, i + CHUNK);
    while (chunkEnd < to && UNIT_CLASS[text.charCodeAt(chunkEnd)] !== SPACE) chunkEnd++;
    // A chunk of n code units holds at most ⌈n / 2⌉ words.
    reserveWordScan(out, ((chunkEnd - i + 1) >>> 1) + 1);
    const stop = scanAsciiRun(text, i, chunkEnd, out);
    if (stop === chunkEnd) {
      i = chunkEnd;
      continue;
    }
    // A code unit neither ASCII nor white space: its piece (from the last white space) goes to the segmenter,
    // and the words already taken from the piece are dropped.
    let pieceStart = stop;
    while (pieceStart > i && !isSpaceCode(text.charCodeAt(pieceStart - 1))) pieceStart--;
    while (out.count > first && out.spans[2 * (out.count - 1)]! >= pieceStart) out.count--;
    const pieceSpans = new SpanList(16);
    i = segmentPiece(text, pieceStart, pieceSpans);
    out.segmented.push(pieceStart, i);
    reserveWordScan(out, pieceSpans.length >>> 1);
    for (let s = 0; s < pieceSpans.length; s += 2) {
      const start = pieceSpans.data[s]!;
      const end = pieceSpans.data[s + 1]!;
      out.spans[2 * out.count] = start;
      out.spans[2 * out.count + 1] = end;
      out.hashes[out.count++] = wordCodeHash(text, start, end);
    }
  }
  return Math.max(i, to);
}

/**
 * The words of `text[from, to)` (`from` < `to`, `text[to]` white space or the end; room for ⌈(to - from) / 2⌉ + 1
 * more words in `out`), until the first code unit that is neither ASCII nor white space: returns its offset, or
 * `to`. Each code unit costs a few table reads and unconditional stores: a word starts where the previous unit
 * is outside a word and this one inside, and is stored (the counter moves on) where it ends.
 */
function scanAsciiRun(text: string, from: number, to: number, out: WordScan): number {
  const spans = out.spans;
  const hashes = out.hashes;
  let count = out.count;
  let previousIn = 0;
  let hash = 0;
  let start = from;
  let unit = text.charCodeAt(from);
  // The classes of the previous, this and the next code unit, 4 bits each; the unit at `to` reads as a space.
  let window = (SPACE << 4) | UNIT_CLASS[unit]!;
  for (let i = from; i < to; i++) {
    const nextUnit = i + 1 < to ? text.charCodeAt(i + 1) : 32;
    window = ((window << 4) & 0xff0) | UNIT_CLASS[nextUnit]!;
    if ((window & 0xf0) === NON_ASCII << 4) {
      out.count = count;
      return i;
    }
    const inWord = IN_WORD[window]!;
    start += (i - start) & -(inWord & ~previousIn);
    spans[2 * count] = start;
    spans[2 * count + 1] = i;
    hashes[count] = hash;
    const ended = previousIn & ~inWord;
    count += ended;
    // ICU quirk, kept as in wordSpans: a lone '_' is not word-like (a run of two or more is).
    if ((window & 0xf00) === UNDERSCORE << 8 && ended === 1 && i - start === 1) count--;
    hash = Math.imul((hash & -previousIn) ^ unit, HASH_PRIME);
    previousIn = inWord;
    unit = nextUnit;
  }
  // The last unit's class is now in the middle of the window.
  if (previousIn === 1 && !((window & 0xf0) === UNDERSCORE << 4 && to - start === 1)) {
    spans[2 * count] = start;
    spans[2 * count + 1] = to;
    hashes[count++] = hash;
  }
  out.count = count;
  return to;
}
