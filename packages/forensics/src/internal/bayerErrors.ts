import type { PixelBuffer } from '../types.js';
import { MirroredLines, MirroredPixelRows } from './mirroredLines.js';
import { align16, wasmModule } from './wasm.js';
import type { WasmModule } from './wasm.js';

/** The four Bayer layouts: [x, y] of the red and of the blue sample in the 2x2 cell; green on the other diagonal. */
export const BAYER_PATTERNS = [
  { name: 'RGGB', red: [0, 0], blue: [1, 1], greenParity: 1 },
  { name: 'GRBG', red: [1, 0], blue: [0, 1], greenParity: 0 },
  { name: 'GBRG', red: [0, 1], blue: [1, 0], greenParity: 0 },
  { name: 'BGGR', red: [1, 1], blue: [0, 0], greenParity: 1 },
] as const;

export interface BayerBlockErrors {
  blocksWide: number;
  blocksHigh: number;
  /** errors[k][b * 3 + c]: mean squared bilinear re-interpolation error of channel c in block b under layout k. */
  errors: Float64Array[];
  /** Sample standard deviation of channel c in block b, at b * 3 + c. */
  stds: Float64Array;
  /** Layout with the lowest mean error over (block, channel) pairs whose std exceeds the smoothness threshold. */
  best: number;
}

/** `BayerBlockErrors` of a band of block rows, without the layout choice (bands concatenate to the whole image's). */
export type BayerBandErrors = Pick<BayerBlockErrors, 'errors' | 'stds'>;

/**
 * Re-samples the image with each Bayer layout and measures, per block and channel, the error of bilinear
 * re-interpolation (red/blue from 2 or 4 same-colour neighbours, green from its 4 neighbours; sampled positions have
 * no error). Done in one pass over the image: per pixel parity class the squared errors of the horizontal, vertical,
 * diagonal and cross estimates are summed, and each layout's error is a sum of those sums. Mirrored borders;
 * estimates are rounded to integers as an 8-bit demosaicer (and the toolbox's uint8 re-interpolation) stores them
 * (floor(q + 0.5) from 0.5 up, where it equals Math.round and is much faster in V8).
 *
 * With `blockRowStride` k > 1 only every k-th row of blocks is measured (the others get count 0, std 0 and NaN
 * errors, so they never count as textured): a deterministic subsample for callers that only need `best`.
 */
export function bayerBlockErrors(image: PixelBuffer, block: number, smoothStd: number, blockRowStride = 1): BayerBlockErrors {
  const blocksHigh = Math.ceil(image.height / block);
  return withBestLayout(Math.ceil(image.width / block), blocksHigh, bayerBandErrors(image, block, 0, blocksHigh, blockRowStride), smoothStd);
}

/** The layout choice over the errors of every row of blocks (the bands' errors concatenated in order). */
export function withBestLayout(blocksWide: number, blocksHigh: number, { errors, stds }: BayerBandErrors, smoothStd: number): BayerBlockErrors {
  const nb = blocksWide * blocksHigh;
  if (stds.length !== nb * 3) throw new RangeError(`Expected ${nb * 3} block errors for errors but received ${stds.length} of type number`);
  if (errors.length !== BAYER_PATTERNS.length) throw new RangeError(`Expected ${BAYER_PATTERNS.length} layouts for errors but received ${errors.length} of type number`);
  // One pass over the pairs: each layout's sum takes its terms in pair order, as a pass per layout would.
  const [e0, e1, e2, e3] = errors as [Float64Array, Float64Array, Float64Array, Float64Array];
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, n = 0;
  for (let i = 0; i < stds.length; i++) {
    if (stds[i]! > smoothStd) { s0 += e0[i]!; s1 += e1[i]!; s2 += e2[i]!; s3 += e3[i]!; n++; }
  }
  let best = 0, bestMean = Infinity;
  [s0, s1, s2, s3].forEach((s, k) => {
    const mean = n ? s / n : Infinity;
    if (mean < bestMean) { bestMean = mean; best = k; }
  });
  return { blocksWide, blocksHigh, errors, stds, best };
}

/**
 * Errors and standard deviations of the rows of blocks [blockRowStart, blockRowEnd) (every `blockRowStride`-th of
 * them measured). Neighbour rows outside the band are read from the image, so a band's values equal those rows of
 * the whole image's. Sums are kept for one row of blocks at a time and turned into errors when it is complete.
 */
export function bayerBandErrors(image: PixelBuffer, block: number, blockRowStart: number, blockRowEnd: number, blockRowStride = 1): BayerBandErrors {
  const { width, height } = image;
  const bw = Math.ceil(width / block), nb = bw * (blockRowEnd - blockRowStart);
  const out: BayerBandErrors = { errors: BAYER_PATTERNS.map(() => new Float64Array(nb * 3)), stds: new Float64Array(nb * 3) };
  const module = isUint8(image) && block % 2 === 0 && width >= 2 && height >= 2 ? wasmModule('bayerErrors') : undefined;
  if (module) {
    wasmBandErrors(module, image as PixelBuffer & { data: Uint8Array }, block, blockRowStart, blockRowEnd, blockRowStride, out);
    return out;
  }
  const sums = new BlockRowSums(bw);
  const accumulate = isUint8(image) ? integerRowSums(image, block, sums) : floatRowSums(image, block, sums);
  for (let by = blockRowStart; by < blockRowEnd; by++) {
    sums.clear();
    if (blockRowStride === 1 || by % blockRowStride === 0) {
      for (let y = by * block, yEnd = Math.min(height, (by + 1) * block); y < yEnd; y++) accumulate(y, y > 0 ? y - 1 : 1, y < height - 1 ? y + 1 : height - 2);
    }
    sums.finish(out, (by - blockRowStart) * bw);
  }
  return out;
}

function isUint8(image: PixelBuffer): image is PixelBuffer & { data: Uint8Array } {
  return image.data instanceof Uint8Array;
}

/**
 * Offsets in a block's 48 sums (channel c, parity class cls = x&1 | (y&1)<<1, estimate: 0 horizontal, 1 vertical,
 * 2 diagonal, 3 cross) that make up the error of channel c under layout k, in class order.
 */
const LAYOUT_TERMS: number[][][] = BAYER_PATTERNS.map((pattern) => [0, 1, 2].map((c) => {
  const terms: number[] = [];
  for (let cls = 0; cls < 4; cls++) {
    const ax = cls & 1, ay = cls >> 1, k = (c * 4 + cls) * 4;
    if (c === 1) {
      if (((ax + ay) & 1) !== pattern.greenParity) terms.push(k + 3);
    } else {
      const [sx, sy] = c === 0 ? pattern.red : pattern.blue;
      if (ax !== sx && ay === sy) terms.push(k);
      else if (ax === sx && ay !== sy) terms.push(k + 1);
      else if (ax !== sx && ay !== sy) terms.push(k + 2);
    }
  }
  return terms;
}));

/** `LAYOUT_TERMS` as the WebAssembly module reads them: [(k * 3 + c) * 4 + t], -1 past a list's end. */
const LAYOUT_TERM_TABLE = Int32Array.from({ length: 48 }, (_, i) => LAYOUT_TERMS[Math.floor(i / 12)]![(i >> 2) % 3]![i & 3] ?? -1);

/**
 * Pixel rows per call of the module's `accumulate`: at most 64 (its column sums of samples are int16 lanes), fewer
 * when rows are so wide that 64 of them would take more than `CHUNK_BYTES` of its memory.
 */
const CHUNK_ROWS = 64, CHUNK_BYTES = 4 << 20;

/**
 * `bayerBandErrors` of an 8-bit image in `assembly/bayerErrors.ts` (the sums of `integerRowSums` and `finish`, same
 * values): each row of blocks is streamed into the module's memory, with the rows above and below, in chunks of at
 * most `CHUNK_ROWS` rows, so the memory holds a few rows whatever the image's height.
 */
function wasmBandErrors(module: WasmModule, image: PixelBuffer & { data: Uint8Array }, block: number, blockRowStart: number, blockRowEnd: number, blockRowStride: number, { errors, stds }: BayerBandErrors): void {
  const { data, width, height, channels } = image;
  const bw = Math.ceil(width / block), rowBytes = width * channels;
  const planeBytes = module.function<(width: number, channels: number) => number>('rowPlaneBytes')(width, channels);
  const chunk = Math.max(1, Math.min(block, CHUNK_ROWS, Math.floor(CHUNK_BYTES / (rowBytes + planeBytes)) - 2));
  const terms = module.heapBase(), sums = terms + 256, moments = sums + bw * 48 * 8;
  const result = moments + bw * 6 * 8, src = align16(result + bw * 15 * 8), planes = align16(src + (chunk + 2) * rowBytes);
  module.reserve(planes + (chunk + 2) * planeBytes);
  const { buffer } = module.memory;
  new Int32Array(buffer, terms, 48).set(LAYOUT_TERM_TABLE);
  new Float64Array(buffer, sums, bw * 54).fill(0);
  // Views of the results made once: a view of WebAssembly memory costs about a microsecond to make.
  const memory = new Uint8Array(buffer), stdsOut = new Float64Array(buffer, result, bw * 3);
  const errorsOut = errors.map((_, k) => new Float64Array(buffer, result + (k + 1) * bw * 3 * 8, bw * 3));
  const accumulate = module.function<(src: number, srcFirst: number, ya: number, yb: number, height: number, width: number, channels: number, block: number, planes: number, sums: number, moments: number, kept: number) => void>('accumulate');
  const finish = module.function<(sums: number, moments: number, blocks: number, width: number, block: number, rows: number, terms: number, out: number) => void>('finish');
  let start = -1, end = -1;
  for (let by = blockRowStart; by < blockRowEnd; by++) {
    const o = (by - blockRowStart) * bw * 3, y0 = by * block, y1 = Math.min(height, y0 + block);
    // A row of blocks not measured is finished with no rows, so its NaN errors are a division 0 / 0 as in
    // `BlockRowSums.finish` (the hardware's NaN, whose bits differ from those of the constant NaN).
    const measured = (blockRowStride === 1 || by % blockRowStride === 0) && y1 > y0;
    for (let ya = y0; measured && ya < y1; ya += chunk) {
      // Rows ya - 1 and ya are still in the module's planes when the previous chunk ended at ya.
      const yb = Math.min(y1, ya + chunk), kept = ya === end ? end - start : -1;
      const first = kept >= 0 ? ya + 1 : Math.max(0, ya - 1), last = Math.min(height, yb + 1);
      if (first < last) memory.set(data.subarray(first * rowBytes, last * rowBytes), src);
      accumulate(src, first, ya, yb, height, width, channels, block, planes, sums, moments, kept);
      start = ya; end = yb;
    }
    finish(sums, moments, bw, width, block, measured ? y1 - y0 : 0, terms, result);
    stds.set(stdsOut, o);
    errors.forEach((e, k) => e.set(errorsOut[k]!, o));
  }
}

/** Per block of one row of blocks: squared-error sums per channel, class and estimate, moments and pixel count. */
class BlockRowSums {
  /** [(bx * 3 + c) * 16 + cls * 4 + estimate]. */
  readonly sums: Float64Array;
  /** [(bx * 3 + c) * 2]: sum of the samples, [+ 1]: sum of their squares. */
  readonly moments: Float64Array;
  readonly count: Float64Array;

  constructor(readonly blocks: number) {
    this.sums = new Float64Array(blocks * 48);
    this.moments = new Float64Array(blocks * 6);
    this.count = new Float64Array(blocks);
  }

  clear(): void {
    this.sums.fill(0);
    this.moments.fill(0);
    this.count.fill(0);
  }

  /**
   * Standard deviations and each layout's mean error of these blocks into out at block offset `offset`: each error
   * sums its terms in class order from 0, as the whole-image computation did (NaN for a block with no pixels).
   */
  finish({ errors, stds }: BayerBandErrors, offset: number): void {
    const { sums, moments, count } = this;
    for (let bx = 0; bx < this.blocks; bx++) {
      const n = count[bx]!, o = (offset + bx) * 3;
      for (let c = 0; c < 3; c++) {
        const mi = (bx * 3 + c) * 2;
        const mean = moments[mi]! / n;
        stds[o + c] = n > 1 ? Math.sqrt(Math.max(0, (moments[mi + 1]! - n * mean * mean) / (n - 1))) : 0;
      }
      for (let k = 0; k < 4; k++) {
        const e = errors[k]!;
        for (let c = 0; c < 3; c++) {
          let s = 0;
          for (const t of LAYOUT_TERMS[k]![c]!) s += sums[bx * 48 + t]!;
          e[o + c] = s / n;
        }
      }
    }
  }
}

/** Row y's terms (rows `up` and `down` its mirrored neighbours) for any pixel type, in float64 and pixel order. */
function floatRowSums(image: PixelBuffer, block: number, { sums, moments, count }: BlockRowSums): (y: number, up: number, down: number) => void {
  const { width } = image;
  const lines = new MirroredLines(image);
  return (y, up, down) => {
    const cls = (y & 1) << 1;
    for (let c = 0; c < 3; c++) {
      const U = lines.row(c, up), R = lines.row(c, y), D = lines.row(c, down);
      // Each block's accumulators are loaded, extended over the block's span of this row and stored, so every
      // sum receives its terms in pixel order (the same floating-point result as a pixel-at-a-time loop).
      for (let bx = 0, x0 = 0; x0 < width; bx++, x0 += block) {
        const x1 = Math.min(width, x0 + block);
        const mi = (bx * 3 + c) * 2;
        let m1 = moments[mi]!, m2 = moments[mi + 1]!;
        // x0 is even (block is even), so x runs even, odd, even, ...: k0 is the even class, k1 the odd one.
        const k0 = ((bx * 3 + c) * 4 + cls) * 4, k1 = k0 + 4;
        if (c === 1) {
          let g0 = sums[k0 + 3]!, g1 = sums[k1 + 3]!;
          for (let x = x0; x < x1; x++) {
            const v = R[x + 1]!;
            m1 += v; m2 += v * v;
            const q = 0.25 * (U[x + 1]! + D[x + 1]! + R[x]! + R[x + 2]!);
            const e = v - (q >= 0.5 ? Math.floor(q + 0.5) : Math.round(q));
            if (x & 1) g1 += e * e; else g0 += e * e;
          }
          sums[k0 + 3] = g0; sums[k1 + 3] = g1;
        } else {
          let h0 = sums[k0]!, v0 = sums[k0 + 1]!, d0 = sums[k0 + 2]!, h1 = sums[k1]!, v1 = sums[k1 + 1]!, d1 = sums[k1 + 2]!;
          for (let x = x0; x < x1; x++) {
            const v = R[x + 1]!;
            m1 += v; m2 += v * v;
            const qh = 0.5 * (R[x]! + R[x + 2]!), qv = 0.5 * (U[x + 1]! + D[x + 1]!), qd = 0.25 * (U[x]! + U[x + 2]! + D[x]! + D[x + 2]!);
            const h = v - (qh >= 0.5 ? Math.floor(qh + 0.5) : Math.round(qh));
            const vv = v - (qv >= 0.5 ? Math.floor(qv + 0.5) : Math.round(qv));
            const d = v - (qd >= 0.5 ? Math.floor(qd + 0.5) : Math.round(qd));
            if (x & 1) { h1 += h * h; v1 += vv * vv; d1 += d * d; } else { h0 += h * h; v0 += vv * vv; d0 += d * d; }
          }
          sums[k0] = h0; sums[k0 + 1] = v0; sums[k0 + 2] = d0; sums[k1] = h1; sums[k1 + 1] = v1; sums[k1 + 2] = d1;
        }
        moments[mi] = m1; moments[mi + 1] = m2;
        if (c === 0) count[bx]! += x1 - x0;
      }
    }
  };
}

/**
 * `floatRowSums` for 8-bit pixels in int32 arithmetic: samples, estimates and squared errors are integers and every
 * sum stays below 2^53, so the float64 sums are exact and equal whatever the order; the rounding floor(q + 0.5) of
 * q = s / 4 (or s / 2) is (s + 2) >> 2 (or (s + 1) >> 1), also for q < 0.5 where Math.round gives the same 0. The
 * rows are read as stored (channels interleaved, `MirroredPixelRows`).
 */
function integerRowSums(image: PixelBuffer & { data: Uint8Array }, block: number, { sums, moments, count }: BlockRowSums): (y: number, up: number, down: number) => void {
  const { width, channels } = image;
  const rows = new MirroredPixelRows(image);
  return (y, up, down) => {
    const cls = (y & 1) << 1;
    const U = rows.row(up), C = rows.row(y), D = rows.row(down);
    for (let c = 0; c < 3; c++) {
      // Index of channel c of pixel x0 - 1 in the padded rows.
      const offset = Math.min(c, channels - 1);
      for (let bx = 0, x0 = 0; x0 < width; bx++, x0 += block) {
        const x1 = Math.min(width, x0 + block);
        const k0 = ((bx * 3 + c) * 4 + cls) * 4, mi = (bx * 3 + c) * 2;
        const start = x0 * channels + offset;
        if (c === 1) greenSpan(U, C, D, start, channels, x1 - x0, sums, k0, moments, mi);
        else redBlueSpan(U, C, D, start, channels, x1 - x0, sums, k0, moments, mi);
        if (c === 0) count[bx]! += x1 - x0;
      }
    }
  };
}

/**
 * Green's cross-estimate errors over a block's span of a row: `pixels` samples of one channel in the padded row C
 * (rows U, D above and below), the first (an even x) at start + stride, its left neighbour at start; two pixels (even, odd class) per step with the row's samples rolling
 * through locals; sums at k0 + 3 (even class) and k0 + 7 (odd class).
 */
function greenSpan(U: Uint8Array, C: Uint8Array, D: Uint8Array, start: number, stride: number, pixels: number, sums: Float64Array, k0: number, moments: Float64Array, mi: number): void {
  let m1 = 0, m2 = 0, g0 = 0, g1 = 0;
  let p = start;
  let cL = C[p]!, cM = C[p + stride]!;
  const s2 = 2 * stride, s3 = 3 * stride, end = start + (pixels & ~1) * stride;
  for (; p < end; p += s2) {
    const cR = C[p + s2]!, cRR = C[p + s3]!;
    const a = cM - ((U[p + stride]! + D[p + stride]! + cL + cR + 2) >> 2);
    const b = cR - ((U[p + s2]! + D[p + s2]! + cM + cRR + 2) >> 2);
    m1 += cM + cR; m2 += cM * cM + cR * cR;
    g0 += a * a; g1 += b * b;
    cL = cR; cM = cRR;
  }
  if (pixels & 1) {
    const a = cM - ((U[p + stride]! + D[p + stride]! + cL + C[p + s2]! + 2) >> 2);
    m1 += cM; m2 += cM * cM; g0 += a * a;
  }
  sums[k0 + 3]! += g0; sums[k0 + 7]! += g1;
  moments[mi]! += m1; moments[mi + 1]! += m2;
}

/**
 * Red or blue: horizontal, vertical and diagonal estimate errors over a span, as `greenSpan`, with U + D of each
 * column rolling through locals; sums at k0 + 0..2 (even class) and k0 + 4..6 (odd class).
 */
function redBlueSpan(U: Uint8Array, C: Uint8Array, D: Uint8Array, start: number, stride: number, pixels: number, sums: Float64Array, k0: number, moments: Float64Array, mi: number): void {
  let m1 = 0, m2 = 0, h0 = 0, v0 = 0, d0 = 0, h1 = 0, v1 = 0, d1 = 0;
  let p = start;
  let cL = C[p]!, cM = C[p + stride]!, sL = U[p]! + D[p]!, sM = U[p + stride]! + D[p + stride]!;
  const s2 = 2 * stride, s3 = 3 * stride, end = start + (pixels & ~1) * stride;
  for (; p < end; p += s2) {
    const cR = C[p + s2]!, cRR = C[p + s3]!, sR = U[p + s2]! + D[p + s2]!, sRR = U[p + s3]! + D[p + s3]!;
    const ha = cM - ((cL + cR + 1) >> 1), va = cM - ((sM + 1) >> 1), da = cM - ((sL + sR + 2) >> 2);
    const hb = cR - ((cM + cRR + 1) >> 1), vb = cR - ((sR + 1) >> 1), db = cR - ((sM + sRR + 2) >> 2);
    m1 += cM + cR; m2 += cM * cM + cR * cR;
    h0 += ha * ha; v0 += va * va; d0 += da * da;
    h1 += hb * hb; v1 += vb * vb; d1 += db * db;
    cL = cR; cM = cRR; sL = sR; sM = sRR;
  }
  if (pixels & 1) {
    const cR = C[p + s2]!, sR = U[p + s2]! + D[p + s2]!;
    const ha = cM - ((cL + cR + 1) >> 1), va = cM - ((sM + 1) >> 1), da = cM - ((sL + sR + 2) >> 2);
    m1 += cM; m2 += cM * cM; h0 += ha * ha; v0 += va * va; d0 += da * da;
  }
  sums[k0]! += h0; sums[k0 + 1]! += v0; sums[k0 + 2]! += d0; sums[k0 + 4]! += h1; sums[k0 + 5]! += v1; sums[k0 + 6]! += d1;
  moments[mi]! += m1; moments[mi + 1]! += m2;
}
