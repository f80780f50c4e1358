import { gunzipSync, gzipSync } from 'node:zlib';

/** Options of a hashed character n-gram language model. */
export interface CharNgramModelOptions {
  /**
   * Longest n-gram counted (the model predicts a character from the `order - 1` before it).
   * @default 5
   */
  order?: number;
  /**
   * log2 of the number of hash buckets shared by all orders.
   * @default 20
   */
  tableBits?: number;
  /**
   * Dirichlet prior mass given to the next-lower order when interpolating.
   * @default 2
   */
  prior?: number;
}

/** Per-character surprisal (negative natural log-probability) of a text under two orders of one model. */
export interface CharSurprisal {
  /** Surprisal of each character under the full order. */
  high: Float32Array;
  /** Surprisal of each character under order 2 (one character of context). */
  low: Float32Array;
}

const MAGIC = 0x4e47524d; // 'NGRM'
const ALPHABET = 256; // base distribution: uniform over this many symbols
const QUANT = 2048; // counts are stored as round(log2(1 + count) * QUANT) in 16 bits

/**
 * A character n-gram language model with counts in one hashed table and interpolated Dirichlet smoothing
 * (MacKay & Peto 1995): p_n(c | h) = (C(h c) + prior * p_{n-1}(c | h')) / (C(h) + prior). The count of a context
 * is the count of the (n-1)-gram that ends one character earlier, so one table serves every order.
 */
export class CharNgramModel {
  readonly order: number;
  readonly tableBits: number;
  readonly prior: number;
  /** Number of characters counted. */
  total: number;
  private readonly counts: Float64Array;
  private readonly mask: number;

  constructor(options: CharNgramModelOptions = {}, counts?: Float64Array, total = 0) {
    this.order = options.order ?? 5;
    this.tableBits = options.tableBits ?? 20;
    this.prior = options.prior ?? 2;
    if (!Number.isInteger(this.order) || this.order < 2 || this.order > 8) {
      throw new RangeError(`Expected integer from 2 to 8 for order but received ${this.order}`);
    }
    if (!Number.isInteger(this.tableBits) || this.tableBits < 10 || this.tableBits > 24) {
      throw new RangeError(`Expected integer from 10 to 24 for tableBits but received ${this.tableBits}`);
    }
    this.mask = (1 << this.tableBits) - 1;
    this.counts = counts ?? new Float64Array(1 << this.tableBits);
    this.total = total;
  }

  /** Adds every n-gram (orders 1..order) of a text to the counts. */
  add(text: string): void {
    const keys = new Int32Array(this.order + 1);
    for (let i = 0; i < text.length; i++) {
      this.keysAt(text, i, keys);
      for (let n = 1; n <= this.order; n++) this.counts[keys[n]! & this.mask]! += 1;
      this.total++;
    }
  }

  /** Surprisal of each character of a text, in nats. */
  surprisal(text: string): CharSurprisal {
    const n = text.length;
    const high = new Float32Array(n);
    const low = new Float32Array(n);
    const keys = new Int32Array(this.order + 1);
    // The count of a context (the (k-1)-gram ending one character earlier) is the count the previous position read
    // for order k-1: kept from there instead of looked up again (half the random reads of the table).
    let prevCounts = new Float64Array(this.order + 1);
    let curCounts = new Float64Array(this.order + 1);
    const counts = this.counts;
    const mask = this.mask;
    const prior = this.prior;
    for (let i = 0; i < n; i++) {
      this.keysAt(text, i, keys);
      let p = 1 / ALPHABET;
      for (let k = 1; k <= this.order; k++) {
        if (k > i + 1) break; // no context that long at the start of the text
        const num = counts[keys[k]! & mask]!;
        curCounts[k] = num;
        const den = k === 1 ? this.total : prevCounts[k - 1]!;
        p = (Math.min(num, den) + prior * p) / (den + prior);
        if (k === 2) low[i] = -Math.log(p);
      }
      high[i] = -Math.log(p);
      if (i === 0) low[i] = high[i]!;
      const swap = prevCounts;
      prevCounts = curCounts;
      curCounts = swap;
    }
    return { high, low };
  }

  /** The model as bytes (gzip of a header and log-quantised 16-bit counts). */
  serialize(): Buffer {
    const header = new Uint32Array([MAGIC, this.order, this.tableBits, Math.round(this.prior * 1000), this.total]);
    const q = new Uint16Array(this.counts.length);
    for (let i = 0; i < q.length; i++) q[i] = Math.min(65535, Math.round(Math.log2(1 + this.counts[i]!) * QUANT));
    return gzipSync(Buffer.concat([Buffer.from(header.buffer), Buffer.from(q.buffer)]), { level: 9 });
  }

  /** Reads a model written by `serialize`. */
  static deserialize(bytes: Uint8Array): CharNgramModel {
    const raw = gunzipSync(bytes);
    const header = new Uint32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + 20));
    if (header[0] !== MAGIC) throw new Error('not a character n-gram model');
    const tableBits = header[2]!;
    const q = new Uint16Array(raw.buffer.slice(raw.byteOffset + 20, raw.byteOffset + 20 + (2 << tableBits)));
    if (q.length !== 1 << tableBits) throw new Error('truncated character n-gram model');
    const counts = new Float64Array(q.length);
    for (let i = 0; i < q.length; i++) counts[i] = q[i] === 0 ? 0 : 2 ** (q[i]! / QUANT) - 1;
    return new CharNgramModel({ order: header[1]!, tableBits, prior: header[3]! / 1000 }, counts, header[4]!);
  }

  // keys[k] = hash of the k characters ending at position i (k = 1..order), each order with its own seed.
  private keysAt(text: string, i: number, keys: Int32Array): void {
    let h = 0x811c9dc5;
    for (let k = 1; k <= this.order; k++) {
      const j = i - k + 1;
      const c = j >= 0 ? text.charCodeAt(j) : 2; // 2: before the start of the text
      h = Math.imul(h ^ c, 0x01000193);
      h = Math.imul(h ^ (k * 0x9e3779b1), 0x85ebca6b);
      keys[k] = h ^ (h >>> 15);
    }
  }
}
