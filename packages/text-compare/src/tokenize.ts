import { createWordScan, isSpaceCode, reserveWordScan, scanWords } from '@content-analysis/credits';
import type { WordScan } from '@content-analysis/credits';
import { codeUnits } from './codeUnits.js';
import type { Vocabulary } from './vocabulary.js';

/** One text cut into words. */
export interface TokenizedText {
  text: string;
  /** The words, as `wordSpans(text)` gives them: `[start0, end0, start1, end1, ...]`. */
  spans: Uint32Array;
  /** Id of each word's normalised key: what the alignment compares. */
  keys: Int32Array;
  /** Id of each word as written: tells an identical word from a minor change. */
  raws: Int32Array;
  /**
   * Second text of `tokenizePair` only: `copiedWithPrevious[w]` is the word of the first text that word w was taken
   * from, with word w - 1 taken from the word before it in the same line (so both words and the text between them
   * are those of the first text there); -1 otherwise.
   */
  copiedWithPrevious?: Int32Array;
}

/** Room for the words of `chars` characters of prose at first (about one word per 6; the scan grows as needed). */
function expectedWords(chars: number): number {
  return (chars >>> 2) + 16;
}

/** Scans of the last `tokenizePair`, and those handed back by `recyclePairScans` for the next one. */
let lastScans: WordScan[] = [];
let spareScans: WordScan[] = [];

/** An empty scan with room for `capacity` words: a spare one when one is large enough, else a new one. */
function takeScan(capacity: number): WordScan {
  const k = spareScans.findIndex((scan) => scan.hashes.length >= capacity);
  const scan = k === -1 ? createWordScan(capacity) : spareScans.splice(k, 1)[0]!;
  scan.count = 0;
  scan.segmented = [];
  lastScans.push(scan);
  return scan;
}

/** Id arrays of the last `tokenizePair`, and those handed back by `recyclePairScans` for the next one. */
let lastIds: Int32Array[] = [];
let spareIds: Int32Array[] = [];

/** An id array of `length` (its values left as they were): a view of a spare one when one is large enough. */
function takeIds(length: number): Int32Array {
  const k = spareIds.findIndex((ids) => ids.length >= length);
  // New arrays get some room, so that the next pair, a little longer, still fits.
  const buffer = k === -1 ? new Int32Array(length + (length >>> 4) + 16) : spareIds.splice(k, 1)[0]!;
  lastIds.push(buffer);
  return buffer.subarray(0, length);
}

/**
 * Hands the arrays of the last `tokenizePair` (the `spans`, `keys`, `raws` and `copiedWithPrevious` of both its
 * texts) to the next one: a comparison allocates some 1.1 MB of them otherwise, and collecting them was ~5% of
 * a comparison. Those texts must not be used afterwards.
 */
export function recyclePairScans(): void {
  spareScans = lastScans;
  lastScans = [];
  spareIds = lastIds;
  lastIds = [];
}

/** Lines shorter than this are cut into words even when the first text has them too: a lookup would gain little. */
const MIN_REUSED_LINE = 16;

function ids(
  text: string, scan: WordScan, vocabulary: Vocabulary, allocate: (length: number) => Int32Array,
): TokenizedText {
  const raws = allocate(scan.count);
  const keys = allocate(scan.count);
  vocabulary.readWords(text, codeUnits(text), scan.spans, scan.hashes, 0, scan.count, raws, keys);
  return { text, spans: scan.spans.subarray(0, 2 * scan.count), keys, raws };
}

/** Cuts `text` into words (`scanWords`, the same words as `wordSpans`) and reads them into `vocabulary`. */
export function tokenize(text: string, vocabulary: Vocabulary): TokenizedText {
  const scan = createWordScan(expectedWords(text.length));
  scanWords(text, scan);
  return ids(text, scan, vocabulary, (length) => new Int32Array(length));
}

/**
 * The lines of the first text (cut at '\n') whose words depend on the line alone (and, for some, on the text right
 * after it): lines with a word, at least MIN_REUSED_LINE long, where every piece given to the segmenter lies
 * inside the line. The ASCII scanner starts afresh after the '\n' before a line, and a piece starts at the white
 * space before its first non-ASCII unit, so the pieces of such a line start where they would in any text holding
 * the line. A piece ends where the next run of non-space text holds no code unit that is not ASCII (or at a length
 * limit): within the line when a run follows it there (what follows the line cannot change that), while the last
 * piece of a line (`tailPiece`) stopped on the text after the line, and the line may be taken only where a text
 * goes on the same way (`stopsTailPiece`). Lines without pieces (`plain`) hold only ASCII between their white space.
 * Line k spans `[start[k], end[k])` and holds words `[firstWord[k], endWord[k])`; lines are found by length.
 */
class ReusableLines {
  start: number[] = [];
  end: number[] = [];
  firstWord: number[] = [];
  endWord: number[] = [];
  /** Whether no piece given to the segmenter touches the line. */
  plain: boolean[] = [];
  /** Whether the last piece of the line has only white space after it in the line. */
  tailPiece: boolean[] = [];
  /**
   * First line of each bucket of lengths (length & BUCKET_MASK), and the next line of the same bucket after each
   * line (-1: none): typed arrays rather than a Map from length to line, which cost about 1% of a comparison.
   */
  private byLength = new Int32Array(BUCKET_MASK + 1).fill(-1);
  private sameBucket: number[] = [];

  constructor(readonly text: string, scan: WordScan) {
    const { spans, count, segmented } = scan;
    const lastOfBucket = new Int32Array(BUCKET_MASK + 1);
    let word = 0;
    let piece = 0;
    for (let start = 0; start < text.length;) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      const firstWord = word;
      while (word < count && spans[2 * word]! < end) word++;
      while (piece < segmented.length && segmented[piece + 1]! <= start) piece += 2;
      // The pieces that overlap the line: each must lie inside it.
      let inside = true;
      let lastEnd = -1;
      for (let p = piece; inside && p < segmented.length && segmented[p]! < end; p += 2) {
        inside = segmented[p]! >= start && segmented[p + 1]! <= end;
        lastEnd = segmented[p + 1]!;
      }
      if (inside && word > firstWord && end - start >= MIN_REUSED_LINE) {
        const k = this.start.length;
        this.start.push(start);
        this.end.push(end);
        this.firstWord.push(firstWord);
        this.endWord.push(word);
        this.plain.push(lastEnd === -1);
        this.tailPiece.push(lastEnd !== -1 && !hasNonSpace(text, lastEnd, end));
        this.sameBucket.push(-1);
        const bucket = (end - start) & BUCKET_MASK;
        if (this.byLength[bucket] === -1) this.byLength[bucket] = k;
        else this.sameBucket[lastOfBucket[bucket]!] = k;
        lastOfBucket[bucket] = k;
      }
      start = end + 1;
    }
  }

  get size(): number {
    return this.start.length;
  }

  /**
   * A line equal to `other[start, end)`, trying line `guess` first (the line after the last one found, since a
   * revised text keeps most lines in order), then at most MAX_CANDIDATES lines of the same length; -1 if none.
   */
  find(other: string, start: number, end: number, guess: number): number {
    const length = end - start;
    let line: string | undefined;
    if (guess < this.start.length && this.end[guess]! - this.start[guess]! === length) {
      line = other.slice(start, end);
      if (this.text.slice(this.start[guess], this.end[guess]) === line) return guess;
    }
    let k = this.byLength[length & BUCKET_MASK]!;
    for (let tries = 0; k !== -1 && tries < MAX_CANDIDATES; k = this.sameBucket[k]!) {
      if (this.end[k]! - this.start[k]! !== length) continue;
      tries++;
      if (k === guess) continue;
      line ??= other.slice(start, end);
      if (this.text.slice(this.start[k], this.end[k]) === line) return k;
    }
    return -1;
  }
}

/** Whether `text[from, to)` holds a code unit that is not white space. */
function hasNonSpace(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpaceCode(text.charCodeAt(i))) return true;
  return false;
}

/**
 * Whether a piece given to the segmenter that ends at `at` (white space or the end of `text`) stops there: the next
 * run of non-space text after `at` holds only ASCII, or there is none (as `segmentPiece` decides, leaving out its
 * length limit, so a piece that stopped on that limit alone is not known to stop).
 */
function stopsTailPiece(text: string, at: number): boolean {
  let i = at;
  while (i < text.length && isSpaceCode(text.charCodeAt(i))) i++;
  for (; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 128) {
      if (isSpaceCode(code)) return true;
      return false;
    }
    if (isSpaceCode(code)) return true;
  }
  return true;
}

/**
 * Where the words of `second[start, end)` (an edited line) that `first[lineStart, lineEnd)` (a plain line: ASCII
 * between white space) has too stop and start again: `prefixEnd`, the last white space inside the code units both
 * lines start with, and `suffixStart`, the first white space inside those both end with (-1: none). A word before
 * `prefixEnd` or after `suffixStart` depends on that stretch alone, as cut by the ASCII scanner, which looks one
 * code unit beyond a word, never over white space. Undefined when the shared ends are short.
 */
function sharedEnds(
  first: string, lineStart: number, lineEnd: number, second: string, start: number, end: number,
): { prefixEnd: number; suffixStart: number } | undefined {
  const most = Math.min(lineEnd - lineStart, end - start);
  let prefix = 0;
  while (prefix < most && first.charCodeAt(lineStart + prefix) === second.charCodeAt(start + prefix)) prefix++;
  let suffix = 0;
  while (suffix < most - prefix && first.charCodeAt(lineEnd - 1 - suffix) === second.charCodeAt(end - 1 - suffix)) {
    suffix++;
  }
  if (prefix + suffix < MIN_REUSED_LINE) return undefined;
  let prefixEnd = start + prefix - 1;
  while (prefixEnd >= start && !isSpaceCode(second.charCodeAt(prefixEnd))) prefixEnd--;
  if (prefixEnd < start) prefixEnd = -1;
  let suffixStart = end - suffix;
  while (suffixStart < end && !isSpaceCode(second.charCodeAt(suffixStart))) suffixStart++;
  if (suffixStart === end) suffixStart = -1;
  return prefixEnd === -1 && suffixStart === -1 ? undefined : { prefixEnd, suffixStart };
}

/** Lines are indexed by their length modulo BUCKET_MASK + 1. */
const BUCKET_MASK = 1023;

/** Lines of the same length compared with a line of the second text at most (repetitive text has many). */
const MAX_CANDIDATES = 8;

/** Lines of the second text not found in the first, beyond twice those found, after which the rest is scanned. */
const MAX_MISSES = 32;

/** Appends words `from` to `to` of `source` to `out`, their offsets moved by `shift` (their hashes are not kept). */
function appendShifted(out: WordScan, source: Uint32Array, from: number, to: number, shift: number): void {
  const needed = out.count + to - from;
  reserveWordScan(out, to - from);
  const spans = out.spans;
  let at = 2 * out.count;
  for (let k = 2 * from; k < 2 * to; k++) spans[at++] = source[k]! + shift;
  out.count = needed;
}

/**
 * Both texts of a comparison cut into words and read into `vocabulary`, as `tokenize(first)` then
 * `tokenize(second)` would give them. A revised text repeats most lines of the original as they were: a line of
 * the second text equal to a reusable line of the first (`ReusableLines`) takes that line's words and ids,
 * shifted, instead of being scanned and looked up again (every word of it already has its ids, so the ids given to
 * the new words of the second text, in order, are the same). The lines between are scanned as stretches of text
 * from a '\n' to a '\n', where `scanWords` reads exactly what a scan of the whole text reads there.
 */
export function tokenizePair(first: string, second: string, vocabulary: Vocabulary): [TokenizedText, TokenizedText] {
  // Scans of an earlier pair that was not recycled stay with their texts.
  lastScans = [];
  lastIds = [];
  const scanA = takeScan(expectedWords(first.length));
  scanWords(first, scanA);
  const a = ids(first, scanA, vocabulary, takeIds);
  const lines = new ReusableLines(first, scanA);

  const scanB = takeScan(expectedWords(second.length));
  // Triples [first word in b, first word in a, words] of the lines taken from the first text (pushed one value at
  // a time: a push of three values goes through a builtin call).
  const taken: number[] = [];
  // Text before `pending` has its words; text up to `scanned` has been read (-1: nothing yet).
  let pending = 0;
  let scanned = -1;
  let guess = 0;
  // Lines looked for in vain, and found: two unrelated texts stop the search early.
  let misses = 0;
  let hits = 0;
  for (let start = 0; start < second.length && lines.size > 0 && misses <= 2 * hits + MAX_MISSES;) {
    let end = second.indexOf('\n', start);
    if (end === -1) end = second.length;
    if (end - start < MIN_REUSED_LINE) {
      start = end + 1;
      continue;
    }
    let k = start > scanned ? lines.find(second, start, end, guess) : -1;
    // The line's last piece must stop where it stopped in the first text.
    if (k !== -1 && lines.tailPiece[k] && !stopsTailPiece(second, end)) k = -1;
    if (k !== -1) {
      hits++;
      // The text before the line ends with the '\n' at start - 1.
      if (pending < start - 1) scanned = scanWords(second, scanB, pending, start - 1);
      if (scanned < start) {
        const firstWord = lines.firstWord[k]!;
        const endWord = lines.endWord[k]!;
        taken.push(scanB.count);
        taken.push(firstWord);
        taken.push(endWord - firstWord);
        appendShifted(scanB, a.spans, firstWord, endWord, start - lines.start[k]!);
        pending = end;
        scanned = end;
        guess = k + 1;
      } else {
        // A piece given to the segmenter reached into the line from the text before it; go on after it.
        pending = scanned;
      }
      start = end + 1;
      continue;
    }
    // An edited line: the words of its start and end that the line expected here (`guess`) has too.
    const ends = start > scanned && guess < lines.size && lines.plain[guess]
      ? sharedEnds(first, lines.start[guess]!, lines.end[guess]!, second, start, end)
      : undefined;
    if (ends === undefined) {
      misses++;
      start = end + 1;
      continue;
    }
    hits++;
    if (pending < start - 1) {
      scanned = scanWords(second, scanB, pending, start - 1);
      pending = scanned;
    }
    if (scanned < start) {
      const lineStart = lines.start[guess]!;
      const firstWord = lines.firstWord[guess]!;
      const endWord = lines.endWord[guess]!;
      if (ends.prefixEnd !== -1) {
        // The words of the first line that end before the white space at prefixEnd (shifted to the first text).
        const limit = ends.prefixEnd - start + lineStart;
        let w = firstWord;
        while (w < endWord && a.spans[2 * w + 1]! <= limit) w++;
        if (w > firstWord) {
          taken.push(scanB.count);
          taken.push(firstWord);
          taken.push(w - firstWord);
          appendShifted(scanB, a.spans, firstWord, w, start - lineStart);
        }
        pending = ends.prefixEnd;
      } else if (pending < start) pending = start;
      scanned = pending;
      if (ends.suffixStart !== -1) {
        scanned = scanWords(second, scanB, pending, ends.suffixStart);
        pending = scanned;
        if (scanned === ends.suffixStart) {
          // The words of the first line that start after the white space at suffixStart (shifted likewise).
          const shift = end - lines.end[guess]!;
          const limit = ends.suffixStart - shift;
          let w = endWord;
          while (w > firstWord && a.spans[2 * (w - 1)]! > limit) w--;
          if (w < endWord) {
            taken.push(scanB.count);
            taken.push(w);
            taken.push(endWord - w);
            appendShifted(scanB, a.spans, w, endWord, shift);
          }
          pending = end;
          scanned = end;
        }
      }
      guess++;
    } else {
      pending = scanned;
    }
    start = end + 1;
  }
  if (pending < second.length) scanWords(second, scanB, pending, second.length);

  const count = scanB.count;
  const units = codeUnits(second);
  const raws = takeIds(count);
  const keys = takeIds(count);
  const copiedWithPrevious = takeIds(count);
  let word = 0;
  for (let t = 0; t < taken.length; t += 3) {
    const at = taken[t]!;
    const from = taken[t + 1]!;
    const length = taken[t + 2]!;
    vocabulary.readWords(second, units, scanB.spans, scanB.hashes, word, at, raws, keys);
    copiedWithPrevious.fill(-1, word, at + 1);
    // A loop, not set(subarray(...)): two views per line cost more than copying a line's few words.
    for (let i = 0; i < length; i++) {
      raws[at + i] = a.raws[from + i]!;
      keys[at + i] = a.keys[from + i]!;
    }
    for (let i = 1; i < length; i++) copiedWithPrevious[at + i] = from + i;
    word = at + length;
  }
  vocabulary.readWords(second, units, scanB.spans, scanB.hashes, word, count, raws, keys);
  copiedWithPrevious.fill(-1, word, count);
  return [a, { text: second, spans: scanB.spans.subarray(0, 2 * count), keys, raws, copiedWithPrevious }];
}
