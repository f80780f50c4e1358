import { JpegCoefficientsError } from '../errors.js';
import type { DctPlane } from './blockDct.js';
import { ZIGZAG } from './blockDct.js';
import { EntropyReader } from './entropyReader.js';
import type { HuffmanTable } from './entropyReader.js';
import { walkJpegSegments } from './jpegSegments.js';
import { readSequentialLuma } from './sequentialLuma.js';

/** One frame component and its quantised coefficients over its MCU-padded block grid. */
interface Component {
  id: number;
  h: number;
  v: number;
  tq: number;
  /** Blocks per line and column of the padded grid (whole MCUs). */
  gridX: number;
  gridY: number;
  /** Blocks covering the component's own samples (what a non-interleaved scan walks). */
  ownX: number;
  ownY: number;
  blocks: Int32Array;
  pred: number;
}

const fail = (m: string): never => { throw new JpegCoefficientsError(m); };

/**
 * Reads the luma DCT coefficients and quantisation table of a Huffman-coded 8-bit JPEG, baseline, extended
 * sequential or progressive (ITU-T T.81: SOF0, SOF1, SOF2), without decoding to pixels: every scan is entropy-decoded
 * into the components' coefficient arrays (annex F for sequential, G.1.2 for progressive spectral selection and
 * successive approximation), restart intervals honoured. The first component's blocks wholly inside the image come
 * back in raster order, each coefficient times its quantisation step, on the scale of `blockDct` (the values a
 * decoder's inverse DCT starts from), with the table. Lossless, hierarchical, arithmetic-coded and 12-bit files throw
 * JpegCoefficientsError. Written from the T.81 text. Sequential files take a faster path that keeps only the luma
 * blocks (`readSequentialLuma`, the same coefficients). `options.into`, when large enough, receives the coefficients
 * (a caller's reused buffer, such as shared memory of an earlier image; the plane is then a view of it).
 */
export function readJpegCoefficients(bytes: Uint8Array, options: { into?: Float32Array } = {}): DctPlane {
  return readSequentialLuma(bytes, options.into) ?? readAnyJpegCoefficients(bytes, options.into);
}

/** The reader of every supported JPEG, all components' blocks kept until the end (exported for the tests). */
export function readAnyJpegCoefficients(bytes: Uint8Array, into: Float32Array | undefined): DctPlane {
  let frame: { width: number; height: number; components: Component[]; mcusX: number; mcusY: number; hmax: number; vmax: number } | undefined;
  const { quantisation: tables } = walkJpegSegments(bytes, (header) => {
    if (header.marker > 0xc2) fail(`Expected a Huffman-coded sequential or progressive JPEG but received SOF marker 0x${header.marker.toString(16)} (lossless, hierarchical or arithmetic)`);
    if (header.precision !== 8) fail(`Expected 8-bit samples but received ${header.precision}-bit`);
    const { width, height, components: raw } = header;
    if (width === 0 || height === 0) fail(`Expected a frame with a size but received ${width}x${height}`);
    const hmax = Math.max(...raw.map((c) => c.h)), vmax = Math.max(...raw.map((c) => c.v));
    const mcusX = Math.ceil(width / (8 * hmax)), mcusY = Math.ceil(height / (8 * vmax));
    const components = raw.map((c) => {
      const gridX = mcusX * c.h, gridY = mcusY * c.v;
      const ownX = Math.ceil(Math.ceil((width * c.h) / hmax) / 8), ownY = Math.ceil(Math.ceil((height * c.v) / vmax) / 8);
      return { ...c, gridX, gridY, ownX, ownY, blocks: new Int32Array(gridX * gridY * 64), pred: 0 };
    });
    frame = { width, height, components, mcusX, mcusY, hmax, vmax };
  }, (sos, dataStart, { huffman, restartInterval }) => {
    if (!frame) fail('Expected a frame header (SOF) before the scan');
    return decodeScan(bytes, sos, dataStart, frame!, huffman, restartInterval);
  });
  if (!frame) fail('Expected a frame header (SOF) but the file has none');
  const luma = frame!.components[0]!;
  const table = tables[luma.tq] ?? fail(`Expected quantisation table ${luma.tq}`);
  const blocksX = Math.floor(frame!.width / 8), blocksY = Math.floor(frame!.height / 8);
  // The first component is full resolution in every JPEG this reads (h and v are its frame maxima) or is the only one.
  if (luma.h !== frame!.hmax || luma.v !== frame!.vmax) fail('Expected the first component at full resolution');
  const size = blocksX * blocksY * 64;
  const coefficients = into && into.length >= size ? into.subarray(0, size) : new Float32Array(size);
  for (let by = 0; by < blocksY; by++) {
    for (let bx = 0; bx < blocksX; bx++) {
      const src = (by * luma.gridX + bx) * 64, dst = (by * blocksX + bx) * 64;
      for (let k = 0; k < 64; k++) coefficients[dst + k] = luma.blocks[src + k]! * table[k]!;
    }
  }
  return { coefficients, blocksX, blocksY, offsetX: 0, offsetY: 0, table };
}

/** Decodes one scan from its header at `sos`; returns the offset of the marker after its entropy-coded data. */
function decodeScan(
  bytes: Uint8Array, sos: number, dataStart: number,
  frame: { components: Component[]; mcusX: number; mcusY: number },
  huffman: Map<number, HuffmanTable>, restartInterval: number,
): number {
  const ns = bytes[sos]!;
  const scan = Array.from({ length: ns }, (_, i) => {
    const id = bytes[sos + 1 + 2 * i]!, t = bytes[sos + 2 + 2 * i]!;
    const c = frame.components.find((x) => x.id === id) ?? fail(`Expected scan component ${id} in the frame`);
    return { c, dc: huffman.get(t >> 4), ac: huffman.get(16 + (t & 15)) };
  });
  const at = sos + 1 + 2 * ns;
  const ss = bytes[at]!, se = bytes[at + 1]!, ah = bytes[at + 2]! >> 4, al = bytes[at + 2]! & 15;
  if (ss > se || se > 63) fail(`Expected a spectral selection within 0..63 but received ${ss}..${se}`);
  const reader = new EntropyReader(bytes, dataStart);
  for (const s of scan) s.c.pred = 0;
  let eobrun = 0;
  const need = (t: HuffmanTable | undefined, what: string): HuffmanTable => t ?? fail(`Expected the ${what} Huffman table of the scan`);
  const decodeBlock = (comp: (typeof scan)[number], offset: number): void => {
    const b = comp.c.blocks;
    if (ss === 0) {
      // DC (with AC in a sequential scan).
      if (ah === 0) {
        const s = reader.decode(need(comp.dc, 'DC'));
        comp.c.pred += reader.extend(reader.receive(s), s);
        b[offset] = comp.c.pred * (1 << al);
      } else if (reader.bit()) b[offset]! |= 1 << al;
      if (se === 0) return;
    }
    const ac = need(comp.ac, 'AC');
    let k = ss === 0 ? 1 : ss;
    if (ah === 0) {
      if (eobrun > 0) { eobrun--; return; }
      for (; k <= se;) {
        const rs = reader.decode(ac), r = rs >> 4, s = rs & 15;
        if (s === 0) {
          if (r < 15) { eobrun = (1 << r) - 1 + (r ? reader.receive(r) : 0); break; }
          k += 16;
          continue;
        }
        k += r;
        if (k > 63) fail('Expected at most 64 coefficients in a block');
        b[offset + ZIGZAG[k]!] = reader.extend(reader.receive(s), s) * (1 << al);
        k++;
      }
      return;
    }
    // Successive approximation refinement of AC coefficients (G.1.2.3).
    const p1 = 1 << al, m1 = -1 << al;
    const refine = (z: number): void => {
      const v = b[z]!;
      if (reader.bit() && (v & p1) === 0) b[z] = v >= 0 ? v + p1 : v + m1;
    };
    if (eobrun === 0) {
      for (; k <= se; k++) {
        const rs = reader.decode(ac);
        let r = rs >> 4;
        let value = 0;
        if (rs & 15) value = reader.bit() ? p1 : m1;
        else if (r !== 15) { eobrun = (1 << r) + (r ? reader.receive(r) : 0); break; }
        while (k <= se) {
          const z = offset + ZIGZAG[k]!;
          if (b[z] !== 0) refine(z);
          else if (--r < 0) break;
          k++;
        }
        if (value !== 0 && k <= se) b[offset + ZIGZAG[k]!] = value;
      }
    }
    if (eobrun > 0) {
      for (; k <= se; k++) {
        const z = offset + ZIGZAG[k]!;
        if (b[z] !== 0) refine(z);
      }
      eobrun--;
    }
  };
  const single = ns === 1;
  const first = scan[0]!;
  const units = single ? first.c.ownX * first.c.ownY : frame.mcusX * frame.mcusY;
  for (let m = 0; m < units; m++) {
    if (restartInterval && m > 0 && m % restartInterval === 0) {
      reader.restart();
      for (const s of scan) s.c.pred = 0;
      eobrun = 0;
    }
    if (single) {
      const bx = m % first.c.ownX, by = (m - bx) / first.c.ownX;
      decodeBlock(first, (by * first.c.gridX + bx) * 64);
      continue;
    }
    const mx = m % frame.mcusX, my = (m - mx) / frame.mcusX;
    for (const comp of scan) {
      for (let v = 0; v < comp.c.v; v++) {
        for (let h = 0; h < comp.c.h; h++) decodeBlock(comp, ((my * comp.c.v + v) * comp.c.gridX + mx * comp.c.h + h) * 64);
      }
    }
  }
  return reader.nextMarker();
}
