import { JpegCoefficientsError } from '../errors.js';
import { ZIGZAG } from './blockDct.js';
import { buildHuffman } from './entropyReader.js';
import type { HuffmanTable } from './entropyReader.js';

/** What the table segments read so far define (ITU-T T.81 B.2.4): the tables a scan decodes and dequantises with. */
export interface JpegTables {
  /** Quantisation tables by id, in natural (8 u + v) order. */
  quantisation: Array<Uint16Array | undefined>;
  /** Huffman tables by class * 16 + id (class 0 DC, 1 AC). */
  huffman: Map<number, HuffmanTable>;
  /** MCUs between restart markers (DRI); 0 = none. */
  restartInterval: number;
}

/** A frame header's component (T.81 B.2.2): sampling factors and quantisation table. */
export interface FrameComponent {
  id: number;
  h: number;
  v: number;
  tq: number;
}

/** A frame header (SOFn, T.81 B.2.2). */
export interface FrameHeader {
  /** The SOF marker's second byte (0xc0 baseline, 0xc1 extended sequential, 0xc2 progressive, ...). */
  marker: number;
  precision: number;
  width: number;
  height: number;
  components: FrameComponent[];
}

/**
 * Walks a JPEG's marker segments from SOI to EOI, the one header parser of `readJpegCoefficients`' two readers:
 * fill bytes, restart markers and stray data between segments are skipped; DQT, DHT and DRI update the tables; a
 * frame header (any SOFn: not DHT, JPG or DAC) goes to `onFrame`; a scan header to `onScan` with the offsets of its
 * header and of its entropy-coded data, which decodes it and returns the offset of the marker after it. A file that
 * does not start with SOI or whose segment runs past its end throws JpegCoefficientsError. Returns the tables.
 */
export function walkJpegSegments(
  bytes: Uint8Array,
  onFrame: (frame: FrameHeader) => void,
  onScan: (sos: number, dataStart: number, tables: JpegTables) => number,
): JpegTables {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) throw new JpegCoefficientsError('Expected a JPEG (SOI marker FFD8) but received other bytes');
  const tables: JpegTables = { quantisation: [], huffman: new Map(), restartInterval: 0 };
  const u16 = (at: number) => (bytes[at]! << 8) | bytes[at + 1]!;
  let p = 2;
  while (p + 4 <= bytes.length) {
    if (bytes[p] !== 0xff) { p++; continue; }
    const marker = bytes[p + 1]!;
    if (marker === 0xff || marker === 0x00 || (marker >= 0xd0 && marker <= 0xd7)) { p++; continue; }
    if (marker === 0xd9) break;
    const length = u16(p + 2), start = p + 4, end = p + 2 + length;
    if (end > bytes.length) throw new JpegCoefficientsError(`Expected ${length} bytes of segment 0x${marker.toString(16)} but the file ends`);
    if (marker === 0xdb) {
      for (let q = start; q < end;) {
        const precision = bytes[q]! >> 4, id = bytes[q]! & 15;
        const table = new Uint16Array(64);
        for (let i = 0; i < 64; i++) table[ZIGZAG[i]!] = precision ? u16(q + 1 + 2 * i) : bytes[q + 1 + i]!;
        tables.quantisation[id] = table;
        q += 1 + 64 * (precision ? 2 : 1);
      }
    } else if (marker === 0xc4) {
      for (let q = start; q < end;) {
        const counts = bytes.subarray(q + 1, q + 17);
        const total = counts.reduce((s, v) => s + v, 0);
        tables.huffman.set((bytes[q]! >> 4) * 16 + (bytes[q]! & 15), buildHuffman(counts, bytes.subarray(q + 17, q + 17 + total)));
        q += 17 + total;
      }
    } else if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const n = bytes[start + 5]!;
      onFrame({
        marker, precision: bytes[start]!, height: u16(start + 1), width: u16(start + 3),
        components: Array.from({ length: n }, (_, i) => ({ id: bytes[start + 6 + 3 * i]!, h: bytes[start + 7 + 3 * i]! >> 4, v: bytes[start + 7 + 3 * i]! & 15, tq: bytes[start + 8 + 3 * i]! })),
      });
    } else if (marker === 0xdd) {
      tables.restartInterval = u16(start);
    } else if (marker === 0xda) {
      p = onScan(start, end, tables);
      continue;
    }
    p = end;
  }
  return tables;
}
