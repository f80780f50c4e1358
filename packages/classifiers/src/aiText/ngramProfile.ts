import { lowerBound, wordSpansOf } from './words.js';

/**
 * Hashed n-gram profiles of a canonical text (version 2.0.0): every character n-gram of the orders in
 * `NGRAM_CHAR_ORDERS` and every word n-gram of `NGRAM_WORD_ORDERS` is hashed into one table of `2^NGRAM_HASH_BITS`
 * slots. A model over them is linear in the n-gram counts of a range divided by the range's length (characters for
 * character n-grams, words for word n-grams), so the score of any range is a difference of prefix sums: sentence
 * windows cost O(1) each after one pass over the text.
 */
export const NGRAM_HASH_BITS = 21;
/** Character n-gram orders. */
export const NGRAM_CHAR_ORDERS = [2, 3, 4, 5] as const;
/** Word n-gram orders. */
export const NGRAM_WORD_ORDERS = [1, 2] as const;

const MASK = (1 << NGRAM_HASH_BITS) - 1;
/** FNV-1a's 32-bit offset basis and prime (the token hashes of `wordTokens.ts` use them too). */
export const FNV_OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;
const MIN_CHAR_ORDER = NGRAM_CHAR_ORDERS[0];
const MAX_CHAR_ORDER = NGRAM_CHAR_ORDERS[NGRAM_CHAR_ORDERS.length - 1] ?? MIN_CHAR_ORDER;
const MAX_WORD_ORDER = NGRAM_WORD_ORDERS[NGRAM_WORD_ORDERS.length - 1] ?? 1;

/** MurmurHash3's finaliser: spreads FNV's weak low bits over the whole word before a mask. */
export function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Slots of a text's n-grams, by where each n-gram starts. */
export interface NgramSlots {
  /** Slots of the character n-grams starting at each character: `charSlots[i * orders + k]`, -1 past the end. */
  charSlots: Int32Array;
  /** Number of character orders per position (`NGRAM_CHAR_ORDERS.length`). */
  charOrders: number;
  /** Word spans, in character offsets of the text. */
  wordStarts: Int32Array;
  wordEnds: Int32Array;
  /** Slots of the word n-grams starting at each word: `wordSlots[w * orders + k]`, -1 past the end. */
  wordSlots: Int32Array;
  wordOrders: number;
  wordCount: number;
}

/** Hashes every n-gram of `text` (already canonical) to its slot. */
export function ngramSlots(text: string): NgramSlots {
  const n = text.length;
  const charOrders = NGRAM_CHAR_ORDERS.length;
  const charSlots = new Int32Array(n * charOrders).fill(-1);
  for (let i = 0; i < n; i++) {
    let h = FNV_OFFSET;
    const limit = Math.min(MAX_CHAR_ORDER, n - i);
    for (let k = 0; k < limit; k++) {
      h = Math.imul(h ^ text.charCodeAt(i + k), FNV_PRIME);
      const order = k + 1;
      if (order >= MIN_CHAR_ORDER) charSlots[i * charOrders + order - MIN_CHAR_ORDER] = mix(h) & MASK;
    }
  }
  const spans = wordSpansOf(text);
  const wordOrders = NGRAM_WORD_ORDERS.length;
  const wordCount = spans.count;
  const wordHash = new Int32Array(wordCount);
  for (let w = 0; w < wordCount; w++) {
    let h = FNV_OFFSET ^ 0x5bd1e995; // a different start than character n-grams: "the" as a word is not "the" as characters
    for (let i = spans.starts[w]!; i < spans.ends[w]!; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
    wordHash[w] = h;
  }
  const wordSlots = new Int32Array(wordCount * wordOrders).fill(-1);
  for (let w = 0; w < wordCount; w++) {
    let h = 0x27d4eb2f;
    for (let k = 0; k < MAX_WORD_ORDER && w + k < wordCount; k++) {
      h = Math.imul(h ^ wordHash[w + k]!, FNV_PRIME) ^ (k + 1);
      const at = (NGRAM_WORD_ORDERS as readonly number[]).indexOf(k + 1);
      if (at >= 0) wordSlots[w * wordOrders + at] = mix(h) & MASK;
    }
  }
  return {
    charSlots, charOrders, wordStarts: spans.starts, wordEnds: spans.ends, wordSlots, wordOrders, wordCount,
  };
}

/**
 * Prefix sums of a weight table over a text's n-grams: `char[i]` sums the weights of the character n-grams starting
 * before character i, `word[w]` those of the word n-grams starting before word w.
 */
export interface NgramPrefix {
  char: Float64Array;
  word: Float64Array;
  wordStarts: Int32Array;
  wordCount: number;
}

/** Prefix sums of `weights` (one value per slot) over the n-grams of `slots`. */
export function ngramPrefix(slots: NgramSlots, weights: Float32Array): NgramPrefix {
  const n = slots.charSlots.length / slots.charOrders;
  const char = new Float64Array(n + 1);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const base = i * slots.charOrders;
    for (let k = 0; k < slots.charOrders; k++) {
      const s = slots.charSlots[base + k]!;
      if (s >= 0) sum += weights[s]!;
    }
    char[i + 1] = sum;
  }
  const word = new Float64Array(slots.wordCount + 1);
  sum = 0;
  for (let w = 0; w < slots.wordCount; w++) {
    const base = w * slots.wordOrders;
    for (let k = 0; k < slots.wordOrders; k++) {
      const s = slots.wordSlots[base + k]!;
      if (s >= 0) sum += weights[s]!;
    }
    word[w + 1] = sum;
  }
  return { char, word, wordStarts: slots.wordStarts, wordCount: slots.wordCount };
}

/**
 * The two per-length means of a weight table over the characters `[start, end)`: character n-gram weights per
 * character and word n-gram weights per word (0 for a range without words). The training features are the n-gram
 * counts divided by the same lengths, so a linear model's output is `bias + sum of the two means`.
 */
export function ngramRangeMeans(prefix: NgramPrefix, start: number, end: number): [number, number] {
  const chars = end - start;
  const charMean = chars > 0 ? (prefix.char[end]! - prefix.char[start]!) / chars : 0;
  const a = lowerBound(prefix.wordStarts, prefix.wordCount, start);
  const b = lowerBound(prefix.wordStarts, prefix.wordCount, end);
  const words = b - a;
  const wordMean = words > 0 ? (prefix.word[b]! - prefix.word[a]!) / words : 0;
  return [charMean, wordMean];
}
