/**
 * Compression cost of every character of a text: an LZ77 parse (as deflate's, RFC 1951) against an optional
 * reference text and everything earlier in the text, priced with deflate's fixed length and distance codes and a
 * literal code fitted to the reference's character frequencies. The cost of any range is then a difference of two
 * prefix sums, so a sentence window costs O(1) instead of a deflate call of its own (which pays ~60 µs of stream
 * set-up and dictionary loading before compressing a byte).
 *
 * This is the measurement ZipPy and deflate-with-preset-dictionary detectors make (text that repeats the reference
 * compresses well), spread over positions: a match's bits are shared evenly by the characters it covers.
 */

/** Deflate's window: how far back a match may point. */
const WINDOW = 32_768;
const MIN_MATCH = 3;
const MAX_MATCH = 258;
/**
 * Candidates examined per position (zlib level 6: 128; 16 costs 0.04 bits/char more on English prose and 30% less
 * time) and the match length at which the search stops.
 */
const MAX_CHAIN = 16;
const NICE_MATCH = 128;
/** A match at least this long is taken without looking one position ahead (zlib level 6: max_lazy 16). */
const MAX_LAZY = 16;
const HASH_BITS = 15;
/** Code units at or above this are priced as an escape plus 16 bits. */
const LITERALS = 256;

/** A reference text prepared once: its last WINDOW code units, their hash chains and the literal code. */
export class CompressionReference {
  /** The reference's code units (at most WINDOW, the end of the text). */
  readonly units: Uint16Array;
  /** Chain heads after inserting every reference position. */
  readonly head: Int32Array;
  /** Previous position with the same hash, per reference position. */
  readonly prev: Int32Array;
  /** Bits of each literal below LITERALS, and of the escape. */
  readonly literalBits: Float32Array;
  readonly escapeBits: number;

  /**
   * @param text what matches may point into (its last WINDOW code units); '' for none
   * @param literalSource the text whose character frequencies price literals
   */
  constructor(text: string, literalSource: string = text) {
    const tail = text.length > WINDOW ? text.slice(text.length - WINDOW) : text;
    this.units = new Uint16Array(tail.length);
    for (let i = 0; i < tail.length; i++) this.units[i] = tail.charCodeAt(i);
    this.head = new Int32Array(1 << HASH_BITS).fill(-1);
    this.prev = new Int32Array(this.units.length);
    for (let i = 0; i + MIN_MATCH <= this.units.length; i++) {
      const h = hash(this.units, i);
      this.prev[i] = this.head[h]!;
      this.head[h] = i;
    }
    // Literal code: -log2 of add-one smoothed frequencies (an ideal static code for the reference's characters).
    const counts = new Float64Array(LITERALS + 1).fill(1);
    for (let i = 0; i < literalSource.length; i++) counts[Math.min(LITERALS, literalSource.charCodeAt(i))]! += 1;
    let total = 0;
    for (const c of counts) total += c;
    this.literalBits = new Float32Array(LITERALS);
    for (let c = 0; c < LITERALS; c++) this.literalBits[c] = -Math.log2(counts[c]! / total);
    this.escapeBits = -Math.log2(counts[LITERALS]! / total) + 16;
  }
}

/**
 * Bits per character of `text` (length text.length): LZ77-parsed against `reference` and the text before it, greedy
 * with one step of lazy evaluation, a match taken only when it costs fewer bits than its characters as literals.
 */
export function compressionCosts(text: string, reference: CompressionReference): Float32Array {
  const refLength = reference.units.length;
  const total = refLength + text.length;
  const buf = new Uint16Array(total);
  buf.set(reference.units);
  for (let i = 0; i < text.length; i++) buf[refLength + i] = text.charCodeAt(i);
  const head = reference.head.slice();
  const prev = new Int32Array(total);
  prev.set(reference.prev);
  const costs = new Float32Array(text.length);
  const literal = (p: number): number => {
    const c = buf[p]!;
    return c < LITERALS ? reference.literalBits[c]! : reference.escapeBits;
  };
  const insert = (p: number): void => {
    if (p + MIN_MATCH > total) return;
    const h = hash(buf, p);
    prev[p] = head[h]!;
    head[h] = p;
  };

  let p = refLength;
  // Match found at p by the previous step's look-ahead, reused instead of searched again.
  let pending = -1;
  let pendingLength = 0;
  let pendingDistance = 0;
  while (p < total) {
    let length: number;
    let distance: number;
    if (pending === p) {
      length = pendingLength;
      distance = pendingDistance;
    } else {
      const found = longestMatch(buf, prev, head, p, total);
      length = found >>> 16;
      distance = found & 0xffff;
    }
    insert(p);
    if (length >= MIN_MATCH && length < MAX_LAZY && p + 1 < total) {
      const next = longestMatch(buf, prev, head, p + 1, total);
      if (next >>> 16 > length) {
        // A longer match starts one character later: this character goes out as a literal.
        costs[p - refLength] = literal(p);
        pending = p + 1;
        pendingLength = next >>> 16;
        pendingDistance = next & 0xffff;
        p++;
        continue;
      }
    }
    let matchBits = length >= MIN_MATCH ? lengthBits(length) + distanceBits(distance) : Infinity;
    if (matchBits < Infinity) {
      let literalBits = 0;
      for (let k = 0; k < length; k++) literalBits += literal(p + k);
      if (matchBits >= literalBits) matchBits = Infinity;
    }
    if (matchBits === Infinity) {
      costs[p - refLength] = literal(p);
      p++;
      continue;
    }
    const share = matchBits / length;
    for (let k = 0; k < length; k++) {
      costs[p + k - refLength] = share;
      if (k > 0) insert(p + k);
    }
    p += length;
  }
  return costs;
}

// Longest earlier match of the text at p, within WINDOW and MAX_CHAIN candidates: (length << 16) | distance, or 0.
function longestMatch(buf: Uint16Array, prev: Int32Array, head: Int32Array, p: number, total: number): number {
  if (p + MIN_MATCH > total) return 0;
  const limit = Math.min(MAX_MATCH, total - p);
  let candidate = head[hash(buf, p)]!;
  let best = MIN_MATCH - 1;
  let bestDistance = 0;
  for (let chain = 0; candidate >= 0 && chain < MAX_CHAIN; chain++) {
    const distance = p - candidate;
    if (distance > WINDOW) break;
    // Cheap rejection: the character that would extend the best match so far must agree.
    if (buf[candidate + best] === buf[p + best] && buf[candidate] === buf[p]) {
      let k = 0;
      while (k < limit && buf[candidate + k] === buf[p + k]) k++;
      if (k > best) {
        best = k;
        bestDistance = distance;
        if (k >= NICE_MATCH || k === limit) break;
      }
    }
    candidate = prev[candidate]!;
  }
  return best >= MIN_MATCH ? (best << 16) | bestDistance : 0;
}

function hash(buf: Uint16Array, p: number): number {
  return Math.imul((buf[p]! << 16) ^ (buf[p + 1]! << 8) ^ buf[p + 2]! ^ (buf[p]! >>> 8) ^ (buf[p + 1]! << 24), 0x9e3779b1) >>> (32 - HASH_BITS);
}

// Fixed-code bits of a match length (RFC 1951 3.2.5-3.2.6): symbols 257-279 have 7 bits, 280-285 have 8; plus extra bits.
function lengthBits(length: number): number {
  if (length <= 10) return 7;
  if (length === MAX_MATCH) return 8;
  const extra = 29 - Math.clz32(length - 3); // floor(log2(length - 3)) - 2
  const symbolBits = length >= 115 ? 8 : 7;
  return symbolBits + extra;
}

// Fixed-code bits of a match distance: 5-bit symbol plus extra bits (0 for distances 1-4, then one more per doubling).
function distanceBits(distance: number): number {
  return distance <= 4 ? 5 : 35 - Math.clz32(distance - 1); // 5 + floor(log2(distance - 1)) - 1
}
