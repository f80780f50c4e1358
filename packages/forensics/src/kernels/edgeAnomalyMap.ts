import { finiteHypot, hypot } from '../internal/hypot.js';
import { lumaBytes, studioLuma } from '../internal/luma.js';
import { clamp01, concatFloat32, medianFloat64InPlace, medianOfNonNegativeBits, quantile, robustCenterScale, selectKth64 } from '../internal/stats.js';
import { align16, wasmModule } from '../internal/wasm.js';
import type { WasmModule } from '../internal/wasm.js';
import type { KernelResult, PixelBuffer } from '../types.js';
import { expectIntegerInRange, expectMinimumSize, expectNumberInRange, expectPixelBuffer } from '../validate.js';

export interface EdgeAnomalyMapOptions {
  /**
   * Side in pixels of the analysis blocks (a multiple of 8 keeps JPEG grid boundaries at fixed places in each block).
   * @default 16
   */
  blockSize?: number;
  /**
   * Blocks whose luma range is below this have no edge worth measuring; their sharpness is undefined.
   * @default 24
   */
  minContrast?: number;
  /**
   * Radius in blocks of the neighbourhood a block is compared with.
   * @default 2
   */
  neighbourhood?: number;
  /**
   * Robust z above which a block counts as anomalous in the score.
   * @default 3.5
   */
  outlierZ?: number;
}

export const edgeAnomalyMapDefaults: Required<EdgeAnomalyMapOptions> = { blockSize: 16, minContrast: 24, neighbourhood: 2, outlierZ: 3.5 };

/**
 * Edge anomaly heat map. Per block: edge strength (mean Sobel magnitude); edge sharpness, the steepest Sobel response
 * over 4x the block's luma range (1 for an ideal step, lower for blurred edges: pasted objects are often softened or
 * over-sharpened, Hsu and Chang 2010 use such edge profile inconsistency); and JPEG blocking, the mean absolute step
 * across the 8x8 grid over the mean step inside it (Fan and de Queiroz 2003, blocking artefact measure). Each of the
 * two is compared with the median of its neighbourhood and scaled by the image's robust spread of that difference;
 * the anomaly map is the larger of the two |z|.
 *
 * Score: fraction of blocks whose anomaly exceeds `outlierZ`.
 */
export function edgeAnomalyMap(image: PixelBuffer, options: EdgeAnomalyMapOptions = {}): KernelResult {
  return edgeAnomalyFromLuma(image, options);
}

/** `edgeAnomalyMap` on a precomputed `studioLuma(image, false)` (computed here when not given). */
export function edgeAnomalyFromLuma(image: PixelBuffer, options: EdgeAnomalyMapOptions = {}, luma?: Float32Array): KernelResult {
  const o = edgeAnomalyOptions(image, options);
  return edgeAnomalyFromBands(image, [edgeBlockFeatures(luma ?? image, image.width, image.height, o, 0, Math.floor(image.height / o.blockSize))], o);
}

/** Options merged over the defaults and validated against the image (first step of `edgeAnomalyMap`). */
export function edgeAnomalyOptions(image: PixelBuffer, options: EdgeAnomalyMapOptions = {}): Required<EdgeAnomalyMapOptions> {
  const o = { ...edgeAnomalyMapDefaults, ...options };
  expectPixelBuffer('image', image);
  expectIntegerInRange('blockSize', o.blockSize, 8, 1024);
  expectNumberInRange('minContrast', o.minContrast, 0, 255);
  expectIntegerInRange('neighbourhood', o.neighbourhood, 1, 64);
  expectNumberInRange('outlierZ', o.outlierZ, 0, 1e6);
  expectMinimumSize('image', image, 2 * o.blockSize);
  return o;
}

/** Per-block edge features of one band. */
export interface EdgeBlockFeatures {
  strength: Float32Array;
  sharpness: Float32Array;
  blocking: Float32Array;
}

/**
 * Edge strength, sharpness and blocking of the blocks in the rows of blocks [blockRowStart, blockRowEnd), from the
 * luma of the whole image (a block reads the pixel rows next to it): bands concatenate to the whole image's features.
 * `source` is the luma plane (`studioLuma(image, false)`) or the image: for 8-bit pixels the luma of each row of
 * blocks (and the row above and below it) is then computed into a small buffer instead of a full-size plane.
 */
export function edgeBlockFeatures(source: Float32Array | PixelBuffer, width: number, height: number, o: Required<EdgeAnomalyMapOptions>, blockRowStart: number, blockRowEnd: number): EdgeBlockFeatures {
  const B = o.blockSize;
  const bw = Math.floor(width / B), nb = bw * (blockRowEnd - blockRowStart);
  const out: EdgeBlockFeatures = { strength: new Float32Array(nb), sharpness: new Float32Array(nb), blocking: new Float32Array(nb) };
  const plane = source instanceof Float32Array ? source : source.data instanceof Uint8Array ? undefined : studioLuma(source, false);
  const wasm = wasmModule('edgeAnomaly');
  if (wasm) {
    wasmBlockFeatures(wasm, plane ?? (source as PixelBuffer), width, height, o, blockRowStart, blockRowEnd, out);
    return out;
  }
  if (plane) {
    // Luma in [16, 256) (any 8-bit image's) makes every Sobel sum and every step sum exact in float64, whatever the
    // order of the additions: the interior blocks then take a faster, reordered loop with the same results.
    const exact = lumaInExactRange(plane, Math.max(0, blockRowStart * B - 1) * width, Math.min(height, blockRowEnd * B + 1) * width);
    for (let by = blockRowStart; by < blockRowEnd; by++) blockRowFeatures(plane, 0, exact, width, height, o, by, (by - blockRowStart) * bw, out);
    return out;
  }
  // 8-bit pixels: rows [by * B - 1, by * B + B] (clamped) of luma in a buffer; the two rows shared with the next row of
  // blocks are moved to its top instead of computed again. Their luma lies in [16, 236): exact.
  const image = source as PixelBuffer;
  const rows = new Float32Array((B + 2) * width);
  let first = -1, last = -1;
  for (let by = blockRowStart; by < blockRowEnd; by++) {
    const from = Math.max(0, by * B - 1), to = Math.min(height - 1, by * B + B);
    let next = from;
    if (last >= from) {
      rows.copyWithin(0, (from - first) * width, (last - first + 1) * width);
      next = last + 1;
    }
    for (let r = next; r <= to; r++) lumaBytes(image.data as Uint8Array, image.channels, rows, r * width, (r - from) * width, width);
    first = from; last = to;
    blockRowFeatures(rows, from * width, true, width, height, o, by, (by - blockRowStart) * bw, out);
  }
  return out;
}

/**
 * The features of the blocks of row `by`, written from index `at`, from luma rows held in `y` from offset `shift` on
 * (row r at (r * width - shift)); `exact`: luma in [16, 256) (`lumaInExactRange`).
 */
function blockRowFeatures(y: Float32Array, shift: number, exact: boolean, width: number, height: number, o: Required<EdgeAnomalyMapOptions>, by: number, at: number, out: EdgeBlockFeatures): void {
  const B = o.blockSize;
  const bw = Math.floor(width / B);
  const { strength, sharpness, blocking } = out;
  const features = new Float64Array(FEATURES);
  for (let bx = 0; bx < bw; bx++) {
    const b = at + bx;
    if (exact && bx > 0 && by > 0 && (bx + 1) * B < width && (by + 1) * B < height) {
      exactInteriorBlock(y, width, bx * B, by * B * width - shift, B, features, by * B);
      storeBlockSums(out, b, features, 0, B, bx * B, by * B, o.minContrast);
      continue;
    }
    let sum = 0, maxMag = 0, lo = Infinity, hi = -Infinity;
    let across = 0, nAcross = 0, inside = 0, nInside = 0;
    for (let v = 0; v < B; v++) {
      const yy = by * B + v;
      const up = Math.max(0, yy - 1) * width - shift, row = yy * width - shift, down = Math.min(height - 1, yy + 1) * width - shift;
      for (let u = 0; u < B; u++) {
        const xx = bx * B + u;
        const l = Math.max(0, xx - 1), r = Math.min(width - 1, xx + 1);
        const gx = y[up + r]! + 2 * y[row + r]! + y[down + r]! - y[up + l]! - 2 * y[row + l]! - y[down + l]!;
        const gy = y[down + l]! + 2 * y[down + xx]! + y[down + r]! - y[up + l]! - 2 * y[up + xx]! - y[up + r]!;
        const mag = hypot(gx, gy);
        sum += mag;
        if (mag > maxMag) maxMag = mag;
        const val = y[row + xx]!;
        if (val < lo) lo = val;
        if (val > hi) hi = val;
        if (xx > 0) {
          const d = Math.abs(val - y[row + xx - 1]!);
          if (xx % 8 === 0) { across += d; nAcross++; } else { inside += d; nInside++; }
        }
        if (yy > 0) {
          const d = Math.abs(val - y[up + xx]!);
          if (yy % 8 === 0) { across += d; nAcross++; } else { inside += d; nInside++; }
        }
      }
    }
    strength[b] = sum / (B * B);
    sharpness[b] = hi - lo >= o.minContrast ? maxMag / (4 * (hi - lo)) : Number.NaN;
    const meanInside = nInside ? inside / nInside : 0;
    blocking[b] = meanInside > 0.25 && nAcross ? across / nAcross / meanInside : Number.NaN;
  }
}

/**
 * True when every luma sample in [from, to) lies in [16, 256): float32 values there are multiples of 2^-19 below 2^8,
 * so sums and differences of a few of them (Sobel responses, below 2^11) and block sums of up to 2^21 absolute steps
 * (below 2^29) are exact in float64. Tested on the bit patterns: [16, 256) is [0x41800000, 0x43800000).
 */
function lumaInExactRange(y: Float32Array, from: number, to: number): boolean {
  const bits = new Int32Array(y.buffer, y.byteOffset, y.length);
  let outside = 0;
  for (let i = from; i < to; i++) outside |= (bits[i]! - 0x41800000) >>> 0 >= 0x02000000 ? 1 : 0;
  return outside === 0;
}

/** Sums of a block as `exactInteriorBlock` and the WebAssembly module give them: float64s from `at` in `sums`. */
const FEATURES = 6;

/**
 * A block's features from its sums (`FEATURES` from `at` in `sums`: sum of Sobel magnitudes, largest magnitude, luma
 * min and max, sum of steps across the 8x8 grid, sum of all steps) for the block at (x0, y0), counting steps as the
 * generic loop does: none into column 0 or row 0 (in the sums those are zero), the others across the grid when they
 * end on a multiple of 8. The steps inside the grid are all steps minus those across: exact sums make it the
 * generic loop's own sum of them.
 */
function storeBlockSums(out: EdgeBlockFeatures, b: number, sums: Float64Array, at: number, B: number, x0: number, y0: number, minContrast: number): void {
  const sum = sums[at]!, maxMag = sums[at + 1]!, lo = sums[at + 2]!, hi = sums[at + 3]!, across = sums[at + 4]!, total = sums[at + 5]!;
  const columns = x0 === 0 ? B - 1 : B, rows = y0 === 0 ? B - 1 : B;
  const nAcross = B * (multiplesOf8(x0, B) - (x0 === 0 ? 1 : 0) + multiplesOf8(y0, B) - (y0 === 0 ? 1 : 0));
  const nInside = B * (columns + rows) - nAcross;
  out.strength[b] = sum / (B * B);
  out.sharpness[b] = hi - lo >= minContrast ? maxMag / (4 * (hi - lo)) : Number.NaN;
  const meanInside = nInside ? (total - across) / nInside : 0;
  out.blocking[b] = meanInside > 0.25 && nAcross ? across / nAcross / meanInside : Number.NaN;
}

/** Calls of the WebAssembly module that did their chunk in this thread (tests check that it ran). */
export let wasmEdgeCalls = 0;

/** Pixels per call of the WebAssembly module: a few milliseconds of work, about a megabyte of memory at 8 bits. */
const CHUNK_PIXELS = 1 << 18;

/**
 * `edgeBlockFeatures` by the WebAssembly module (assembly/edgeAnomaly.ts), every block, border ones included, from
 * 8-bit pixels or a luma plane: per chunk of rows of blocks the rows it reads are copied into the module's memory and
 * it returns each block's sums (`storeBlockSums`). A chunk of a plane whose luma leaves [16, 256), where sums might
 * round, takes the generic JavaScript loop instead, whose results the exact sums equal elsewhere.
 */
function wasmBlockFeatures(wasm: WasmModule, source: Float32Array | PixelBuffer, width: number, height: number, o: Required<EdgeAnomalyMapOptions>, blockRowStart: number, blockRowEnd: number, out: EdgeBlockFeatures): void {
  const B = o.blockSize;
  const bw = Math.floor(width / B);
  const plane = source instanceof Float32Array ? source : undefined;
  const pixels = plane ? new Uint8Array(plane.buffer, plane.byteOffset, plane.byteLength) : (source as PixelBuffer).data as Uint8Array;
  const channels = plane ? 0 : (source as PixelBuffer).channels, rowBytes = width * (plane ? 4 : channels);
  const chunk = Math.max(1, Math.floor(CHUNK_PIXELS / (B * width)));
  const scratch = wasm.heapBase();
  const sumsAt = scratch + align16(wasm.function<(w: number, b: number) => number>('scratchBytes')(width, B));
  const input = sumsAt + align16(chunk * bw * FEATURES * 8);
  // 16 bytes of slack: the module reads a whole vector from the last pixel of a row.
  wasm.reserve(input + (chunk * B + 2) * rowBytes + 16);
  const memory = new Uint8Array(wasm.memory.buffer);
  const sums = new Float64Array(wasm.memory.buffer, sumsAt, chunk * bw * FEATURES);
  const blockFeatures = wasm.function<(src: number, channels: number, width: number, height: number, B: number, byStart: number, byEnd: number, firstRow: number, scratch: number, out: number) => number>('blockFeatures');
  for (let by = blockRowStart; by < blockRowEnd; by += chunk) {
    const end = Math.min(blockRowEnd, by + chunk);
    const first = Math.max(0, by * B - 1), last = Math.min(height - 1, end * B);
    memory.set(pixels.subarray(first * rowBytes, (last + 1) * rowBytes), input);
    if (blockFeatures(input, channels, width, height, B, by, end, first, scratch, sumsAt)) {
      wasmEdgeCalls++;
      for (let r = by; r < end; r++) {
        for (let bx = 0; bx < bw; bx++) storeBlockSums(out, (r - blockRowStart) * bw + bx, sums, ((r - by) * bw + bx) * FEATURES, B, bx * B, r * B, o.minContrast);
      }
    } else {
      for (let r = by; r < end; r++) blockRowFeatures(plane!, 0, false, width, height, o, r, (r - blockRowStart) * bw, out);
    }
  }
}

/** How many of the `n` integers from `start` are multiples of 8. */
function multiplesOf8(start: number, n: number): number {
  return Math.floor((start + n - 1) / 8) - Math.floor((start - 1) / 8);
}

/**
 * Sums of one block clear of the image border (first row `top`, at `topOffset` in `y`) on exact luma
 * (`lumaInExactRange`), into `out`: [sum of Sobel
 * magnitudes, largest magnitude, luma min, luma max, sum of steps across the 8x8 grid, sum of all steps]. The
 * magnitudes are added in the same order as the generic loop (their sum rounds); the Sobel responses come from
 * sliding column sums (3 loads per pixel instead of 12) and the steps inside the grid are the total minus those
 * across, which only exactness makes equal to the generic loop's.
 */
function exactInteriorBlock(y: Float32Array, width: number, x0: number, topOffset: number, B: number, out: Float64Array, top: number): void {
  let sum = 0, maxMag = 0, lo = Infinity, hi = -Infinity, across = 0, total = 0;
  for (let v = 0; v < B; v++) {
    const row = topOffset + v * width, up = row - width, down = row + width;
    const rowAcross = ((top + v) & 7) === 0;
    const l = x0 - 1;
    let upC = y[up + l]!, downC = y[down + l]!;
    let vL = upC + 2 * y[row + l]! + downC, dL = downC - upC;
    let rowL = y[row + l]!;
    upC = y[up + x0]!; downC = y[down + x0]!;
    let rowC = y[row + x0]!;
    let vC = upC + 2 * rowC + downC, dC = downC - upC;
    for (let xx = x0, end = x0 + B; xx < end; xx++) {
      const upR = y[up + xx + 1]!, rowR = y[row + xx + 1]!, downR = y[down + xx + 1]!;
      const vR = upR + 2 * rowR + downR, dR = downR - upR;
      const mag = finiteHypot(vR - vL, dL + 2 * dC + dR);
      sum += mag;
      if (mag > maxMag) maxMag = mag;
      if (rowC < lo) lo = rowC;
      if (rowC > hi) hi = rowC;
      const dx = Math.abs(rowC - rowL), dy = Math.abs(rowC - upC);
      total += dx + dy;
      if ((xx & 7) === 0) across += dx;
      if (rowAcross) across += dy;
      vL = vC; dL = dC; vC = vR; dC = dR;
      rowL = rowC; rowC = rowR; upC = upR;
    }
  }
  out[0] = sum; out[1] = maxMag; out[2] = lo; out[3] = hi; out[4] = across; out[5] = total;
}

/** One band's features with the differences from their neighbourhood medians (`localDifference`) of its rows. */
export interface EdgeBlockBand extends EdgeBlockFeatures {
  sharpDiff: Float32Array;
  blockDiff: Float32Array;
}

/**
 * The features of the rows of blocks [blockRowStart, blockRowEnd) and their differences from the neighbourhood
 * medians, from the features of those rows and `neighbourhood` rows of blocks either side (computed again, the same
 * values): a pool's worker does the medians of its band, leaving only the image-wide scale to the merge.
 */
export function edgeBlockBand(source: Float32Array | PixelBuffer, width: number, height: number, o: Required<EdgeAnomalyMapOptions>, blockRowStart: number, blockRowEnd: number): EdgeBlockBand {
  const B = o.blockSize, r = o.neighbourhood;
  const bw = Math.floor(width / B), bh = Math.floor(height / B);
  const from = Math.max(0, blockRowStart - r), to = Math.min(bh, blockRowEnd + r);
  const f = edgeBlockFeatures(source, width, height, o, from, to);
  const own = (a: Float32Array): Float32Array => a.slice((blockRowStart - from) * bw, (blockRowEnd - from) * bw);
  return {
    strength: own(f.strength), sharpness: own(f.sharpness), blocking: own(f.blocking),
    sharpDiff: localDifference(f.sharpness, bw, from, bh, r, blockRowStart, blockRowEnd),
    blockDiff: localDifference(f.blocking, bw, from, bh, r, blockRowStart, blockRowEnd),
  };
}

/**
 * Last step of `edgeAnomalyMap`: local deviations, maps, stats and score from the bands' features in order (bands
 * from `edgeBlockBand` bring their differences from the neighbourhood medians; for the others they are computed here).
 */
export function edgeAnomalyFromBands(image: PixelBuffer, bands: Array<EdgeBlockFeatures & Partial<EdgeBlockBand>>, o: Required<EdgeAnomalyMapOptions>): KernelResult {
  const B = o.blockSize;
  const bw = Math.floor(image.width / B), bh = Math.floor(image.height / B), nb = bw * bh;
  const join = (key: keyof EdgeBlockBand): Float32Array => (bands.length === 1 ? bands[0]![key]! : concatFloat32(bands.map((b) => b[key]!)));
  const strength = join('strength'), sharpness = join('sharpness'), blocking = join('blocking');
  const withDiffs = bands.every((b) => b.sharpDiff && b.blockDiff);
  const sharpZ = scaleDeviation(withDiffs ? join('sharpDiff') : localDifference(sharpness, bw, 0, bh, o.neighbourhood, 0, bh));
  const blockZ = scaleDeviation(withDiffs ? join('blockDiff') : localDifference(blocking, bw, 0, bh, o.neighbourhood, 0, bh));
  const anomaly = new Float32Array(nb);
  let flagged = 0;
  for (let i = 0; i < nb; i++) {
    const a = Math.max(Number.isFinite(sharpZ[i]!) ? sharpZ[i]! : 0, Number.isFinite(blockZ[i]!) ? blockZ[i]! : 0);
    anomaly[i] = a;
    if (a > o.outlierZ) flagged++;
  }
  const fraction = nb ? flagged / nb : 0;
  return {
    maps: [
      { name: 'edge-anomaly', data: anomaly, width: bw, height: bh, cellSize: B, displayRange: [0, Math.max(o.outlierZ * 2, blockQuantile(anomaly, 0.99))] },
      { name: 'edge-strength', data: strength, width: bw, height: bh, cellSize: B, displayRange: [0, Math.max(1, blockQuantile(strength, 0.99))] },
      { name: 'sharpness-inconsistency', data: sharpZ, width: bw, height: bh, cellSize: B, displayRange: [0, o.outlierZ * 2] },
      { name: 'blocking-inconsistency', data: blockZ, width: bw, height: bh, cellSize: B, displayRange: [0, o.outlierZ * 2] },
    ],
    stats: {
      medianEdgeStrength: blockQuantile(strength, 0.5), medianSharpness: blockQuantile(sharpness, 0.5), medianBlocking: blockQuantile(blocking, 0.5),
      anomalousBlockFraction: fraction,
    },
    score: clamp01(fraction),
  };
}

/**
 * value - median of its (2r+1)^2 neighbourhood (clipped to the bh rows of blocks; NaN stays NaN, fewer than 3 finite
 * neighbours give NaN) for the rows of blocks [rowFrom, rowTo), from `values` holding the rows from `firstRow` on
 * (all those the neighbourhoods reach).
 */
export function localDifference(values: Float32Array, bw: number, firstRow: number, bh: number, r: number, rowFrom: number, rowTo: number): Float32Array {
  const wasm = r <= 2 ? wasmModule('edgeAnomaly') : undefined;
  const fromWasm = wasm && wasmLocalDifference(wasm, values, bw, firstRow, r, rowFrom, rowTo);
  if (fromWasm) return fromWasm;
  const diff = new Float32Array((rowTo - rowFrom) * bw);
  const scratch = new Float64Array((2 * r + 1) ** 2);
  // The neighbours' float32 bit patterns too: when all are non-negative (sharpness and blocking are), their median
  // comes from the branch-free selection on the bits (the same value; compares on noise mispredict).
  const valueBits = new Int32Array(values.buffer, values.byteOffset, values.length);
  const bits = new Int32Array(scratch.length), floats = new Float32Array(bits.buffer);
  for (let by = rowFrom; by < rowTo; by++) {
    for (let bx = 0; bx < bw; bx++) {
      const at = (by - rowFrom) * bw + bx;
      const v = values[(by - firstRow) * bw + bx]!;
      if (!Number.isFinite(v)) { diff[at] = Number.NaN; continue; }
      let n = 0, signs = 0;
      for (let dy = -r; dy <= r; dy++) {
        const yy = by + dy;
        if (yy < 0 || yy >= bh) continue;
        for (let dx = -r; dx <= r; dx++) {
          const xx = bx + dx;
          if (xx < 0 || xx >= bw || (dx === 0 && dy === 0)) continue;
          const i = (yy - firstRow) * bw + xx;
          const w = values[i]!;
          if (!Number.isFinite(w)) continue;
          scratch[n] = w;
          signs |= bits[n++] = valueBits[i]!;
        }
      }
      if (n < 3) { diff[at] = Number.NaN; continue; }
      diff[at] = v - (signs >= 0 ? medianOfNonNegativeBits(bits, floats, n) : medianFloat64InPlace(scratch, n));
    }
  }
  return diff;
}

/** Rows of blocks per call of the WebAssembly medians (a millisecond or so at 250 blocks a row). */
const MEDIAN_ROWS = 16;

/**
 * `localDifference` by the WebAssembly module for radius 1 or 2 (ranks of the neighbours' bit patterns, the same
 * medians); undefined when a finite value is negative, which the ranks do not order (sharpness and blocking never are).
 */
function wasmLocalDifference(wasm: WasmModule, values: Float32Array, bw: number, firstRow: number, r: number, rowFrom: number, rowTo: number): Float32Array | undefined {
  const rows = values.length / bw;
  const valuesAt = wasm.heapBase();
  const gridAt = valuesAt + align16(values.byteLength), outAt = gridAt + align16((rows + 2 * r) * (bw + 2 * r) * 4);
  wasm.reserve(outAt + (rowTo - rowFrom) * bw * 4);
  new Float32Array(wasm.memory.buffer, valuesAt, values.length).set(values);
  if (!wasm.function<(values: number, bw: number, rows: number, r: number, grid: number) => number>('neighbourGrid')(valuesAt, bw, rows, r, gridAt)) return undefined;
  const differences = wasm.function<(values: number, bw: number, r: number, grid: number, yFrom: number, yTo: number, out: number) => void>('localDifferences');
  for (let y = rowFrom; y < rowTo; y += MEDIAN_ROWS) {
    const end = Math.min(rowTo, y + MEDIAN_ROWS);
    differences(valuesAt, bw, r, gridAt, y - firstRow, end - firstRow, outAt + (y - rowFrom) * bw * 4);
    wasmEdgeCalls++;
  }
  return new Float32Array(wasm.memory.buffer, outAt, (rowTo - rowFrom) * bw).slice();
}

/** Below this many blocks the statistics copy the finite values to float64 here (one loop for one array type). */
const SHARED_STATS_MIN = 1 << 16;

/** The finite values of a block map as float64s (the shared `finiteValues` reads any array type, several times slower). */
function finiteFloat64(values: Float32Array): Float64Array {
  const out = new Float64Array(values.length);
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v - v === 0) out[n++] = v;
  }
  return out.subarray(0, n);
}

/** `quantile(values, q)`, the same value (the k-th smallest finite value is one number, however it is selected). */
function blockQuantile(values: Float32Array, q: number): number {
  if (values.length >= SHARED_STATS_MIN) return quantile(values, q);
  const v = finiteFloat64(values);
  if (v.length === 0) return Number.NaN;
  return selectKth64(v, v.length, Math.min(v.length - 1, Math.max(0, Math.round(q * (v.length - 1)))));
}

/** `robustCenterScale(values).scale`, the same value (medians of the same float64 values and deviations). */
function robustScale(values: Float32Array): number {
  if (values.length >= SHARED_STATS_MIN) return robustCenterScale(values).scale;
  const v = finiteFloat64(values);
  if (v.length === 0) return Number.NaN;
  const median = medianFloat64InPlace(v, v.length);
  for (let i = 0; i < v.length; i++) v[i] = Math.abs(v[i]! - median);
  return 1.4826 * medianFloat64InPlace(v, v.length);
}

/** |difference| over the image's robust spread of the differences (`localDifference` of every row), in place. */
function scaleDeviation(diff: Float32Array): Float32Array {
  const scale = robustScale(diff);
  const s = Math.max(scale, 1e-6);
  for (let i = 0; i < diff.length; i++) diff[i] = Math.abs(diff[i]!) / s;
  return diff;
}
