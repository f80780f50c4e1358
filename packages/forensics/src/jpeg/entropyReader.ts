import { JpegCoefficientsError } from '../errors.js';

/** A canonical Huffman table (ITU-T T.81 annex C) in the form of F.2.2.3's decoder: per code length, the largest
 * code, the first code and where its values start. */
export interface HuffmanTable {
  maxCode: Int32Array;
  minCode: Int32Array;
  valPtr: Int32Array;
  values: Uint8Array;
}

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
  return { maxCode, minCode, valPtr, values: Uint8Array.from(values) };
}

/** Reads the entropy-coded segment bit by bit, removing stuffed zero bytes (F.1.2.3); past a marker it reads 0s. */
export class EntropyReader {
  private pos: number;
  private buffer = 0;
  private count = 0;
  constructor(private readonly bytes: Uint8Array, start: number) {
    this.pos = start;
  }

  bit(): number {
    if (this.count === 0) {
      const bytes = this.bytes;
      let b = 0;
      if (this.pos < bytes.length) {
        b = bytes[this.pos]!;
        if (b === 0xff) {
          const next = bytes[this.pos + 1];
          if (next === 0) this.pos += 2;
          else b = 0; // a marker: the data ended early; feed zeros and leave the marker in place
        } else this.pos++;
      }
      this.buffer = b;
      this.count = 8;
    }
    this.count--;
    return (this.buffer >> this.count) & 1;
  }

  receive(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) v = (v << 1) | this.bit();
    return v;
  }

  /** F.2.2.1 EXTEND: the signed value of an n-bit magnitude category. */
  extend(v: number, n: number): number {
    return n === 0 ? 0 : v < 1 << (n - 1) ? v - (1 << n) + 1 : v;
  }

  decode(t: HuffmanTable): number {
    let code = this.bit(), l = 1;
    while (code > t.maxCode[l]!) {
      code = (code << 1) | this.bit();
      if (++l > 16) throw new JpegCoefficientsError('Expected a Huffman code of at most 16 bits');
    }
    return t.values[t.valPtr[l]! + code - t.minCode[l]!]!;
  }

  /** Skips to just after the next restart marker and drops the bits left in the byte. */
  restart(): void {
    this.count = 0;
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
