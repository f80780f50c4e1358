import { JpegCoefficientsError } from '../errors.js';

/** A canonical Huffman table (ITU-T T.81 annex C) in the form of F.2.2.3's decoder: per code length, the largest
 * code, the first code and where its values start. */
export interface HuffmanTable {
  maxCode: Int32Array;
  minCode: Int32Array;
  valPtr: Int32Array;
  values: Uint8Array;
  /** For codes of at most LOOKUP_BITS bits: (length << 8 | value) by the next LOOKUP_BITS bits of the stream; 0 = longer. */
  lookup: Int32Array;
}

const LOOKUP_BITS = 9;

export function buildHuffman(counts: Uint8Array, values: Uint8Array): HuffmanTable {
  const maxCode = new Int32Array(18).fill(-1), valPtr = new Int32Array(17), minCode = new Int32Array(17);
  let code = 0, k = 0;
  for (let l = 1; l <= 16; l++) {
    const n = counts[l - 1]!;
    valPtr[l] = k;
    minCode[l] = code;
    code += n;
    k += n;
    maxCode[l] = n ? code - 1 : -1;
    code <<= 1;
  }
  const lookup = new Int32Array(1 << LOOKUP_BITS);
  for (let l = 1; l <= LOOKUP_BITS; l++) {
    for (let c = minCode[l]!; c <= maxCode[l]!; c++) {
      const entry = (l << 8) | values[valPtr[l]! + c - minCode[l]!]!;
      lookup.fill(entry, c << (LOOKUP_BITS - l), (c + 1) << (LOOKUP_BITS - l));
    }
  }
  return { maxCode, minCode, valPtr, values: Uint8Array.from(values), lookup };
}

/**
 * Reads the entropy-coded segment, removing stuffed zero bytes (F.1.2.3), through a bit accumulator of up to 32 bits;
 * at a marker the data has ended early and zeros are read (the marker stays in place).
 */
export class EntropyReader {
  private pos: number;
  private acc = 0;
  private count = 0;
  constructor(private readonly bytes: Uint8Array, start: number) {
    this.pos = start;
  }

  /** Tops the accumulator up to more than 24 bits. */
  private fill(): void {
    const bytes = this.bytes;
    while (this.count <= 24) {
      let b = 0;
      if (this.pos < bytes.length) {
        b = bytes[this.pos]!;
        if (b === 0xff) {
          if (bytes[this.pos + 1] === 0) this.pos += 2;
          else b = 0;
        } else this.pos++;
      }
      this.acc = (this.acc << 8) | b;
      this.count += 8;
    }
  }

  bit(): number {
    if (this.count === 0) this.fill();
    this.count--;
    return (this.acc >>> this.count) & 1;
  }

  receive(n: number): number {
    if (n === 0) return 0;
    if (this.count < n) this.fill();
    this.count -= n;
    return (this.acc >>> this.count) & ((1 << n) - 1);
  }

  /** F.2.2.1 EXTEND: the signed value of an n-bit magnitude category. */
  extend(v: number, n: number): number {
    return n === 0 ? 0 : v < 1 << (n - 1) ? v - (1 << n) + 1 : v;
  }

  decode(t: HuffmanTable): number {
    if (this.count < LOOKUP_BITS) this.fill();
    const entry = t.lookup[(this.acc >>> (this.count - LOOKUP_BITS)) & ((1 << LOOKUP_BITS) - 1)]!;
    if (entry !== 0) {
      this.count -= entry >> 8;
      return entry & 255;
    }
    let code = this.bit(), l = 1;
    while (code > t.maxCode[l]!) {
      code = (code << 1) | this.bit();
      if (++l > 16) throw new JpegCoefficientsError('Expected a Huffman code of at most 16 bits');
    }
    return t.values[t.valPtr[l]! + code - t.minCode[l]!]!;
  }

  /** Skips to just after the next restart marker and drops the bits left. */
  restart(): void {
    this.count = 0;
    this.acc = 0;
    const bytes = this.bytes;
    while (this.pos + 1 < bytes.length && !(bytes[this.pos] === 0xff && bytes[this.pos + 1]! >= 0xd0 && bytes[this.pos + 1]! <= 0xd7)) this.pos++;
    this.pos += 2;
  }

  /** Offset of the first marker (FF followed by neither 00 nor a restart) from the current position. */
  nextMarker(): number {
    const bytes = this.bytes;
    let p = this.pos;
    while (p + 1 < bytes.length && !(bytes[p] === 0xff && bytes[p + 1] !== 0 && !(bytes[p + 1]! >= 0xd0 && bytes[p + 1]! <= 0xd7))) p++;
    return p;
  }
}
