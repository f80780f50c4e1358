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
 * Rows between the sampled rows whose residuals set the candidates' starting threshold (`startBin`): about 3% of a
 * band's work, for a threshold near its final bin from the first row on.
 */
export const SAMPLE_STEP = 32;

/** The sample's threshold is that of this many times the band's share of largest values: the estimate's margin. */
const SAMPLE_MARGIN = 2;

/**
 * The fewest of the sample's largest values to estimate from: fewer (a small `keep`, where a threshold rising from 0
 * collects few candidates anyway) would often land in a bin above the band's keep-th largest.
 */
const SAMPLE_LEAST = 64;

/**
 * `medianResidualSweep` in WebAssembly (`assembly/medianResidual.ts`), same arguments, the same residuals, block sums
 * and finite flag: the band is streamed in chunks of rows; each chunk's input rows (8-bit pixels or luma, with the rows
 * above and below) are copied into the module's memory, the module computes their luma, the median, the residual,
 * its block sums and its candidates in one pass over each row, and the residual rows, the block rows they touched and
 * the candidates are copied out. Returns undefined when a luma sample is negative, as the JavaScript sweep does.
 *
 * Candidates: the residuals whose upper 16 bits (`bin`) are at least a threshold, in pixel order; the threshold starts
 * at an estimate from a sample of the band's rows (every SAMPLE_STEP-th: the bin of SAMPLE_MARGIN times their share of
 * the keep largest; 0 when that share is under SAMPLE_LEAST values or over a quarter of the sample) and rises to the
 * bin of the keep-th largest candidate so far, so it only rises from row to row. Every value in the threshold's final
 * bin or above is then a candidate (earlier thresholds were lower), and when the candidates' histogram `high` counts at
 * least keep values from that bin up (`highFrom`) the band's keep largest are among them: that histogram is all
 * `float32LargestNonNegative` reads of it, the same keep largest values as a scan of the whole map with its full
 * histogram, without counting 12 million values at 12 MP. Starting from the sample's bin rather than 0 collects about
 * SAMPLE_MARGIN times keep candidates instead of keep (1 + ln(n / keep)), most of which were compacted one vector at a
 * time past a mispredicted branch. When it counts fewer (the sample's rows unlike the rest: the estimate was above the
 * band's keep-th largest), `high` is counted over the whole residual instead and no candidates are returned, as without
 * `keep`: every residual is then a candidate (`highFrom` 0: `high` is the full histogram).
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
  const begin = module.function<(histogram: number, keep: number, from: number) => void>('begin');
  const thresholdBin = module.function<() => number>('thresholdBin');
  /** Copies input rows [a0, a1) to the module's input area. */
  const copyRows = (a0: number, a1: number): void => {
    if (plane) floats.set(plane.subarray(a0 * width, a1 * width), inputArea >> 2);
    else bytes.set(pixels!.subarray(a0 * width * channels, a1 * width * channels), inputArea);
  };

  // The starting threshold: the bin of the sample's share of the band's `keep` largest (times the margin) among the
  // residuals of every SAMPLE_STEP-th row, each swept on its own with the rows above and below (exact = 0: its block
  // sums go to the scratch sums area, which the first chunk overwrites; the columns stay zero).
  let from = 0;
  const sampled = collecting ? Math.floor((y1 - y0) / SAMPLE_STEP) : 0;
  const sampleKeep = Math.ceil((SAMPLE_MARGIN * keep! * sampled) / (y1 - y0));
  if (sampleKeep >= SAMPLE_LEAST && sampleKeep <= (sampled * width) / 4) {
    begin(histogram, sampleKeep, 0);
    for (let i = 0; i < sampled; i++) {
      const y = y0 + (SAMPLE_STEP >> 1) + i * SAMPLE_STEP;
      const a0 = Math.max(0, y - 1), a1 = Math.min(height, y + 2);
      copyRows(a0, a1);
      if (sweep(inputArea, channels, width, a1 - a0, lumaArea, stride, y - a0, 1, residualArea, 0, block, 0, sumsArea, bw, 0, columnsArea, candidateArea) < 0) return undefined;
    }
    from = thresholdBin();
  }
  begin(histogram, collecting ? keep : 0, from);
  const candidates: Float32Array[] = [];
  // The luma of 8-bit pixels is in [16, 256): sums exact in any order. A plane is checked chunk by chunk, and once a
  // chunk is not, the rest of the band adds in pixel order (the sums so far are then those of pixel order: exact).
  let exact = !plane;
  wasmSweepCalls++;
  for (let c0 = y0; c0 < y1; c0 += rows) {
    const c1 = Math.min(y1, c0 + rows);
    const a0 = Math.max(0, c0 - 1), a1 = Math.min(height, c1 + 1);
    copyRows(a0, a1);
    if (plane) {
      if (c0 === y0) exact = true;
      if (exact) exact = exactRange(inputArea, (a1 - a0) * width) !== 0;
    }
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
  const highFrom = thresholdBin();
  let counted = 0;
  for (let i = highFrom; i < BINS; i++) counted += high[i]!;
  // A starting bin above the band's keep-th largest (a sample unlike the band): the histogram of the whole residual,
  // and no candidates (`float32LargestNonNegative` then reads the residual).
  const missed = collecting && counted < keep! && from > 0;
  if (missed) residualHistogram(residual, high);
  // Residuals are non-negative, so a NaN or infinite one is one whose upper bits are 0x7f80 or more; each is a
  // candidate (its bits are at least any threshold below 0x7f80), or the threshold rose past it on other such values.
  let finite = true;
  for (let i = 0x7f80; i < BINS; i++) if (high[i] !== 0) { finite = false; break; }
  return { residual, sums, high, highFrom: missed ? 0 : highFrom, finite, ...(collecting && !missed ? { candidates: concatFloat32(candidates) } : {}) };
}

/** `high` (cleared first) as the histogram of the residuals' upper 16 bits. */
function residualHistogram(residual: Float32Array, high: Uint32Array): void {
  high.fill(0);
  const bits = new Uint32Array(residual.buffer, residual.byteOffset, residual.length);
  for (let i = 0; i < bits.length; i++) high[bits[i]! >>> 16]!++;
}
