import type { ResidualSweep } from './medianResidualSweep.js';
import { concatFloat32 } from './stats.js';
import { align16, type WasmModule } from './wasm.js';
import type { PixelBuffer } from '../types.js';

/** Output pixels per call of the module: a few milliseconds of work, and memory of a few megabytes at any size. */
const CHUNK_PIXELS = 1 << 18;

/** Entries of the module's histogram of the candidates (`assembly/medianResidual.ts`). */
const BINS = 0x8000;

type Sweep = (input: number, channels: number, width: number, inRows: number, lumaArea: number, stride: number, first: number, outRows: number, residual: number, bandRow: number, block: number, blockRow: number, sums: number, blocksWide: number, exact: number, columns: number, candidates: number) => number;

/** How often the WebAssembly sweep ran in this thread (tests check it did). */
export let wasmSweepCalls = 0;

/**
 * `medianResidualSweep` in WebAssembly (`assembly/medianResidual.ts`), same arguments, the same residuals, block sums
 * and finite flag: the band is streamed in chunks of rows; each chunk's input rows (8-bit pixels or luma, with the rows
 * above and below) are copied into the module's memory, the module computes their luma, the median, the residual,
 * its block sums and its candidates in one pass over each row, and the residual rows, the block rows they touched and
 * the candidates are copied out. Returns undefined when a luma sample is negative, as the JavaScript sweep does.
 *
 * Candidates: the residuals whose upper 16 bits (`bin`) are at least a threshold, in pixel order; the threshold is
 * the bin of the keep-th largest candidate so far (0 until keep were collected), which only rises from row to row
 * and never passes the bin of the band's keep-th largest value. So every value in the threshold's final bin or above
 * is a candidate, and the histogram `high` of the candidates, whose counts are those of the whole band from that bin
 * up (`highFrom`), is all `float32LargestNonNegative` reads of it: the same keep largest values as a scan of the whole
 * map with its full histogram, without counting 12 million values at 12 MP. Without `keep` every residual is a
 * candidate (`highFrom` 0: `high` is the full histogram) and no candidates are returned.
 */
export function medianResidualSweepWasm(module: WasmModule, source: Float32Array | PixelBuffer, width: number, height: number, block: number, y0: number, y1: number, out?: Float32Array, keep?: number): ResidualSweep | undefined {
  const plane = source instanceof Float32Array ? source : undefined;
  const pixels = plane ? undefined : (source as PixelBuffer).data;
  if (pixels && !(pixels instanceof Uint8Array)) throw new TypeError('Expected a luma plane or 8-bit pixels for medianResidualSweep but received Float32Array pixels of type object');
  const channels = plane ? 0 : (source as PixelBuffer).channels;
  const inBytes = plane ? 4 : channels;
  const residual = out ?? new Float32Array(width * (y1 - y0));
  const bw = Math.ceil(width / block);
  const sums = new Float64Array(bw * Math.ceil((y1 - y0) / block));

  // Memory layout: histogram, block sums, column totals, residual rows, luma rows (16 bytes before the first, for the
  // vector of columns -4..-1), input rows, the chunk's candidates; each area 16-aligned and with room for the vectors
  // that run past a row's end.
  const rows = Math.max(1, Math.min(y1 - y0, Math.floor(CHUNK_PIXELS / width)));
  const stride = ((width + 3) & ~3) + 8;
  const histogram = module.heapBase();
  const sumsArea = align16(histogram + 4 * BINS);
  const columnsArea = align16(sumsArea + 8 * bw * (Math.floor((rows - 1) / block) + 2));
  const residualArea = align16(columnsArea + 4 * (width + 4));
  const lumaArea = align16(residualArea + 4 * width * rows + 16);
  const inputArea = align16(lumaArea + 16 + 4 * stride * (rows + 2) + 16);
  const candidateArea = align16(inputArea + inBytes * width * (rows + 2) + 64);
  module.reserve(candidateArea + 4 * width * rows + 32);
  const buffer = module.memory.buffer;
  const bytes = new Uint8Array(buffer), floats = new Float32Array(buffer), doubles = new Float64Array(buffer), counts = new Uint32Array(buffer);
  counts.fill(0, columnsArea >> 2, (columnsArea >> 2) + width + 4);

  const sweep = module.function<Sweep>('sweep');
  const exactRange = module.function<(values: number, count: number) => number>('exactRange');
  const candidatesAt = module.function<() => number>('candidatesAt');
  const collecting = keep !== undefined && keep > 0;
  module.function<(histogram: number, keep: number) => void>('begin')(histogram, collecting ? keep : 0);
  const candidates: Float32Array[] = [];
  // The luma of 8-bit pixels is in [16, 256): sums exact in any order. A plane is checked chunk by chunk, and once a
  // chunk is not, the rest of the band adds in pixel order (the sums so far are then those of pixel order: exact).
  let exact = !plane;
  wasmSweepCalls++;
  for (let c0 = y0; c0 < y1; c0 += rows) {
    const c1 = Math.min(y1, c0 + rows);
    const a0 = Math.max(0, c0 - 1), a1 = Math.min(height, c1 + 1);
    if (plane) {
      floats.set(plane.subarray(a0 * width, a1 * width), inputArea >> 2);
      if (c0 === y0) exact = true;
      if (exact) exact = exactRange(inputArea, (a1 - a0) * width) !== 0;
    } else bytes.set(pixels!.subarray(a0 * width * channels, a1 * width * channels), inputArea);
    // The block rows this chunk adds to, with what earlier chunks added to the first.
    const b0 = Math.floor((c0 - y0) / block), b1 = Math.floor((c1 - 1 - y0) / block) + 1;
    doubles.set(sums.subarray(b0 * bw, b1 * bw), sumsArea >> 3);
    const signs = sweep(inputArea, channels, width, a1 - a0, lumaArea, stride, c0 - a0, c1 - c0, residualArea, c0 - y0, block, b0, sumsArea, bw, exact ? 1 : 0, columnsArea, candidateArea);
    if (signs < 0) return undefined;
    const end = candidatesAt();
    if (collecting && end > candidateArea) candidates.push(floats.slice(candidateArea >> 2, end >> 2));
    sums.set(doubles.subarray(sumsArea >> 3, (sumsArea >> 3) + (b1 - b0) * bw), b0 * bw);
    residual.set(floats.subarray(residualArea >> 2, (residualArea >> 2) + (c1 - c0) * width), (c0 - y0) * width);
  }
  const high = new Uint32Array(1 << 16);
  high.set(counts.subarray(histogram >> 2, (histogram >> 2) + BINS));
  // Residuals are non-negative, so a NaN or infinite one is one whose upper bits are 0x7f80 or more; each is a
  // candidate (its bits are at least any threshold below 0x7f80), or the threshold rose past it on other such values.
  let finite = true;
  for (let i = 0x7f80; i < BINS; i++) if (high[i] !== 0) { finite = false; break; }
  return { residual, sums, high, highFrom: module.function<() => number>('thresholdBin')(), finite, ...(collecting ? { candidates: concatFloat32(candidates) } : {}) };
}
