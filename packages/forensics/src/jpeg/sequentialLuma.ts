import type { DctPlane } from './blockDct.js';
import { ZIGZAG } from './blockDct.js';
import type { HuffmanTable } from './entropyReader.js';
import { walkJpegSegments } from './jpegSegments.js';

/** Bits the Huffman lookup of `buildHuffman` covers (its LOOKUP_BITS). */
const FAST = 9;
const ZZ = Int32Array.from(ZIGZAG);

/**
 * For an AC table: by the next FAST bits of the stream, (value << 16) | (run << 8) | (code and extra bits), for the
 * symbols whose code (from the table's own lookup) and magnitude bits both fit in those FAST bits; 0 otherwise (the
 * general decode then runs). The same symbols and values as decoding the code and then receiving its bits.
 */
const acFastOf = new WeakMap<HuffmanTable, Int32Array>();
function acFast(t: HuffmanTable): Int32Array {
  let fast = acFastOf.get(t);
  if (fast) return fast;
  fast = new Int32Array(1 << FAST);
  for (let peek = 0; peek < 1 << FAST; peek++) {
    const entry = t.lookup[peek]!;
    if (entry === 0) continue;
    const length = entry >> 8, rs = entry & 255, run = rs >> 4, s = rs & 15;
    if (s === 0 || length + s > FAST) continue;
    const v = (peek >> (FAST - length - s)) & ((1 << s) - 1);
    const value = v < 1 << (s - 1) ? v - (1 << s) + 1 : v;
    fast[peek] = (value << 16) | (run << 8) | (length + s);
  }
  acFastOf.set(t, fast);
  return fast;
}

interface FastComponent { id: number; h: number; v: number; tq: number; gridX: number; pred: number }

/** Thrown inside the fast reader where only the general reader knows what to do (it then runs from the start). */
class NotSequential extends Error {}

/**
 * `readJpegCoefficients` for baseline and extended sequential Huffman JPEGs (SOF0, SOF1) whose scans each carry all
 * 64 coefficients (Ss 0, Se 63, Ah Al 0): the luma blocks inside the image are decoded straight into the output, times
 * their quantisation steps, and the other components are decoded without being kept. Undefined for any other file,
 * for a stream the general reader treats in a way this one does not follow (a Huffman table or symbol outside what a
 * valid baseline stream holds, a quantisation table redefined after its scan) and for errors, so the caller runs the
 * general reader, which gives the result or the error. Where it answers, it gives the general reader's coefficients
 * bit for bit: the same bits read in the same order (lookups of FAST bits where the general reader looks them up, the
 * code lengths above in the same order), the same Int32 wrapping of the DC sum and the same product with the step.
 * `into`, when given and large enough, receives the coefficients (it is zeroed first).
 */
export function readSequentialLuma(bytes: Uint8Array, into?: Float32Array): DctPlane | undefined {
  try {
    return read(bytes, into);
  } catch {
    return undefined;
  }
}

function read(bytes: Uint8Array, into: Float32Array | undefined): DctPlane | undefined {
  let frame: { width: number; height: number; components: FastComponent[]; mcusX: number; mcusY: number; blocksX: number; blocksY: number } | undefined;
  let out: Float32Array | undefined;
  let used: Uint16Array | undefined;
  const tables = walkJpegSegments(bytes, (header) => {
    // Progressive, lossless, hierarchical or arithmetic, a second frame, or not 8-bit: the general reader's.
    if ((header.marker !== 0xc0 && header.marker !== 0xc1) || frame || header.precision !== 8) throw new NotSequential();
    const { width, height, components: raw } = header;
    if (width === 0 || height === 0 || raw.length === 0) throw new NotSequential();
    const hmax = Math.max(...raw.map((c) => c.h)), vmax = Math.max(...raw.map((c) => c.v));
    if (raw[0]!.h !== hmax || raw[0]!.v !== vmax || raw.some((c) => c.h === 0 || c.v === 0)) throw new NotSequential();
    const mcusX = Math.ceil(width / (8 * hmax)), mcusY = Math.ceil(height / (8 * vmax));
    frame = {
      width, height, mcusX, mcusY, blocksX: Math.floor(width / 8), blocksY: Math.floor(height / 8),
      components: raw.map((c) => ({ ...c, gridX: mcusX * c.h, pred: 0 })),
    };
    const size = frame.blocksX * frame.blocksY * 64;
    out = into && into.length >= size ? into.subarray(0, size).fill(0) : new Float32Array(size);
  }, (sos, dataStart, { quantisation, huffman, restartInterval }) => {
    if (!frame) throw new NotSequential();
    const table = quantisation[frame.components[0]!.tq];
    if (!table || (used && used !== table)) throw new NotSequential();
    used = table;
    return decodeScan(bytes, sos, dataStart, frame, huffman, restartInterval, out!, table);
  });
  if (!frame || !used || tables.quantisation[frame.components[0]!.tq] !== used) return undefined;
  return { coefficients: out!, blocksX: frame.blocksX, blocksY: frame.blocksY, offsetX: 0, offsetY: 0, table: used };
}

/** One sequential scan (all 64 coefficients of its components); returns the offset of the marker after its data. */
function decodeScan(
  bytes: Uint8Array, sos: number, dataStart: number,
  frame: { components: FastComponent[]; mcusX: number; mcusY: number; blocksX: number; blocksY: number; width: number; height: number },
  huffman: Map<number, HuffmanTable>, restartInterval: number, out: Float32Array, table: Uint16Array,
): number {
  const ns = bytes[sos]!;
  const at = sos + 1 + 2 * ns;
  if (ns === 0 || bytes[at] !== 0 || bytes[at + 1] !== 63 || bytes[at + 2] !== 0) throw new NotSequential();
  const luma = frame.components[0]!;
  const comps: FastComponent[] = [], dcs: HuffmanTable[] = [], acs: HuffmanTable[] = [], fasts: Int32Array[] = [];
  for (let i = 0; i < ns; i++) {
    const id = bytes[sos + 1 + 2 * i]!, t = bytes[sos + 2 + 2 * i]!;
    const c = frame.components.find((x) => x.id === id);
    const dc = huffman.get(t >> 4), ac = huffman.get(16 + (t & 15));
    if (!c || !dc || !ac) throw new NotSequential();
    // A DC symbol above 16 bits of magnitude is no baseline stream's (the general reader's receive would misread it).
    if (dc.values.some((v) => v > 16)) throw new NotSequential();
    comps.push(c);
    dcs.push(dc);
    acs.push(ac);
    fasts.push(acFast(ac));
    c.pred = 0;
  }
  // The steps in zig-zag order, so a coefficient's product needs no second lookup.
  const qz = new Float64Array(64);
  for (let k = 0; k < 64; k++) qz[k] = table[ZZ[k]!]!;
  const { blocksX, blocksY } = frame;
  const single = ns === 1;
  const first = comps[0]!;
  // A non-interleaved scan walks the blocks covering the component's own samples.
  const hmax = Math.max(...frame.components.map((c) => c.h)), vmax = Math.max(...frame.components.map((c) => c.v));
  const ownX = Math.ceil(Math.ceil((frame.width * first.h) / hmax) / 8), ownY = Math.ceil(Math.ceil((frame.height * first.v) / vmax) / 8);
  const units = single ? ownX * ownY : frame.mcusX * frame.mcusY;
  let pos = dataStart, acc = 0, cnt = 0, eobrun = 0;
  const length = bytes.length;
  for (let m = 0; m < units; m++) {
    if (restartInterval && m > 0 && m % restartInterval === 0) {
      cnt = 0;
      acc = 0;
      while (pos + 1 < length && !(bytes[pos] === 0xff && bytes[pos + 1]! >= 0xd0 && bytes[pos + 1]! <= 0xd7)) pos++;
      pos += 2;
      for (const c of comps) c.pred = 0;
      eobrun = 0;
    }
    let mx = 0, my = 0;
    if (single) { mx = m % ownX; my = (m - mx) / ownX; } else { mx = m % frame.mcusX; my = (m - mx) / frame.mcusX; }
    for (let ci = 0; ci < ns; ci++) {
      const comp = comps[ci]!, dc = dcs[ci]!, ac = acs[ci]!, fast = fasts[ci]!;
      const bh = single ? 1 : comp.h, bv = single ? 1 : comp.v;
      for (let v = 0; v < bv; v++) {
        for (let h = 0; h < bh; h++) {
          const gx = single ? mx : mx * comp.h + h, gy = single ? my : my * comp.v + v;
          // Where this block's coefficients go: -1 for blocks not kept (other components, the padding of the grid).
          const o = comp === luma && gx < blocksX && gy < blocksY ? (gy * blocksX + gx) * 64 : -1;
          // DC: its category, then that many bits.
          while (cnt <= 24) {
            let b = 0;
            if (pos < length) {
              b = bytes[pos]!;
              if (b === 0xff) { if (bytes[pos + 1] === 0) pos += 2; else b = 0; } else pos++;
            }
            acc = (acc << 8) | b;
            cnt += 8;
          }
          let s = huffmanSymbol(dc, acc, cnt);
          cnt -= s >> 8;
          s &= 255;
          let diff = 0;
          if (s !== 0) {
            if (cnt < s) {
              while (cnt <= 24) {
                let b = 0;
                if (pos < length) {
                  b = bytes[pos]!;
                  if (b === 0xff) { if (bytes[pos + 1] === 0) pos += 2; else b = 0; } else pos++;
                }
                acc = (acc << 8) | b;
                cnt += 8;
              }
            }
            cnt -= s;
            const r = (acc >>> cnt) & ((1 << s) - 1);
            diff = r < 1 << (s - 1) ? r - (1 << s) + 1 : r;
          }
          comp.pred += diff;
          if (o >= 0) out[o] = (comp.pred | 0) * qz[0]!;
          if (eobrun > 0) { eobrun--; continue; }
          for (let k = 1; k <= 63;) {
            if (cnt < 16) {
              while (cnt <= 24) {
                let b = 0;
                if (pos < length) {
                  b = bytes[pos]!;
                  if (b === 0xff) { if (bytes[pos + 1] === 0) pos += 2; else b = 0; } else pos++;
                }
                acc = (acc << 8) | b;
                cnt += 8;
              }
            }
            const f = fast[(acc >>> (cnt - FAST)) & ((1 << FAST) - 1)]!;
            if (f !== 0) {
              cnt -= f & 255;
              k += (f >> 8) & 255;
              if (k > 63) throw new NotSequential();
              if (o >= 0) out[o + ZZ[k]!] = (f >> 16) * qz[k]!;
              k++;
              continue;
            }
            let rs = huffmanSymbol(ac, acc, cnt);
            cnt -= rs >> 8;
            rs &= 255;
            const r = rs >> 4, sz = rs & 15;
            if (sz === 0) {
              if (r < 15) {
                let extra = 0;
                if (r) {
                  if (cnt < r) {
                    while (cnt <= 24) {
                      let b = 0;
                      if (pos < length) {
                        b = bytes[pos]!;
                        if (b === 0xff) { if (bytes[pos + 1] === 0) pos += 2; else b = 0; } else pos++;
                      }
                      acc = (acc << 8) | b;
                      cnt += 8;
                    }
                  }
                  cnt -= r;
                  extra = (acc >>> cnt) & ((1 << r) - 1);
                }
                eobrun = (1 << r) - 1 + extra;
                break;
              }
              k += 16;
              continue;
            }
            k += r;
            if (k > 63) throw new NotSequential();
            if (cnt < sz) {
              while (cnt <= 24) {
                let b = 0;
                if (pos < length) {
                  b = bytes[pos]!;
                  if (b === 0xff) { if (bytes[pos + 1] === 0) pos += 2; else b = 0; } else pos++;
                }
                acc = (acc << 8) | b;
                cnt += 8;
              }
            }
            cnt -= sz;
            const e = (acc >>> cnt) & ((1 << sz) - 1);
            if (o >= 0) out[o + ZZ[k]!] = (e < 1 << (sz - 1) ? e - (1 << sz) + 1 : e) * qz[k]!;
            k++;
          }
        }
      }
    }
  }
  let q = pos;
  while (q + 1 < length && !(bytes[q] === 0xff && bytes[q + 1] !== 0 && !(bytes[q + 1]! >= 0xd0 && bytes[q + 1]! <= 0xd7))) q++;
  return q;
}

/**
 * The next Huffman symbol from the top `cnt` bits of `acc` (at least 16 there): (code length << 8) | symbol. Codes of
 * up to FAST bits by the table's lookup, longer ones as F.2.2.3 reads them, length by length.
 */
function huffmanSymbol(t: HuffmanTable, acc: number, cnt: number): number {
  const entry = t.lookup[(acc >>> (cnt - FAST)) & ((1 << FAST) - 1)]!;
  if (entry !== 0) return entry;
  for (let l = 1; l <= 16; l++) {
    const code = (acc >>> (cnt - l)) & ((1 << l) - 1);
    if (code <= t.maxCode[l]!) {
      const symbol = t.values[t.valPtr[l]! + code - t.minCode[l]!];
      if (symbol === undefined) throw new NotSequential();
      return (l << 8) | symbol;
    }
  }
  throw new NotSequential();
}
