import type { ResidualSweep } from './medianResidualSweep.js';
import { align16, type WasmModule } from './wasm.js';
import type { PixelBuffer } from '../types.js';

/** Output pixels per call of the module: a few milliseconds of work, and memory of a few megabytes at any size. */
const CHUNK_PIXELS = 1 << 18;

/** Entries of the module's four histograms (`assembly/medianResidual.ts`). */
const BINS = 0x8000;

/** Most candidates for the display quantile kept in the module's memory (4 MB); beyond, the caller scans the map. */
const CANDIDATES = 1 << 20;

type Sweep = (input: number, channels: number, width: number, inRows: number, lumaArea: number, stride: number, first: number, outRows: number, residual: number, bandRow: number, block: number, blockRow: number, sums: number, blocksWide: number, histogram: number) => number;

/** How often the WebAssembly sweep ran in this thread (tests check it did). */
export let wasmSweepCalls = 0;

/**
 * `medianResidualSweep` in WebAssembly (`assembly/medianResidual.ts`), same arguments and the very same result: the
 * band is streamed in chunks of rows; each chunk's input rows (8-bit pixels or luma, with the rows above and below) are
 * copied into the module's memory, the module computes their luma, the median, the residual, its histogram and block
 * sums, and the residual rows and the block rows they touched are copied out. The histograms stay in the module's
 * memory for the whole band. Returns undefined when a luma sample is negative, as the JavaScript sweep does.
 *
 * With `keep`, each chunk's residuals in the bin of the keep-th largest counted so far or above (`topBin`) are also
 * collected while the chunk is in the module's memory (`collect`): every one of the band's keep largest values is
 * among these `candidates`, so `float32LargestNonNegative` reads them instead of the whole map (a pass of 12 million
 * values at 12 MP). Left out when they would exceed CANDIDATES.
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

  // Memory layout: histograms, block sums, residual rows, luma rows (16 bytes before the first, for the vector of
  // columns -4..-1), input rows; each area 16-aligned and with room for the vectors that run past a row's end.
  const rows = Math.max(1, Math.min(y1 - y0, Math.floor(CHUNK_PIXELS / width)));
  const stride = ((width + 3) & ~3) + 8;
  const histogram = module.heapBase();
  const sumsArea = align16(histogram + 4 * 4 * BINS);
  const residualArea = align16(sumsArea + 8 * bw * (Math.floor((rows - 1) / block) + 2));
  const lumaArea = align16(residualArea + 4 * width * rows + 16);
  const inputArea = align16(lumaArea + 16 + 4 * stride * (rows + 2) + 16);
  const candidateArea = align16(inputArea + inBytes * width * (rows + 2) + 64);
  const collecting = keep !== undefined && keep > 0;
  module.reserve(collecting ? candidateArea + 4 * CANDIDATES : candidateArea);
  const buffer = module.memory.buffer;
  const bytes = new Uint8Array(buffer), floats = new Float32Array(buffer), doubles = new Float64Array(buffer), counts = new Uint32Array(buffer);
  counts.fill(0, histogram >> 2, (histogram >> 2) + 4 * BINS);

  const sweep = module.function<Sweep>('sweep');
  const topBin = module.function<(histogram: number, m: number) => number>('topBin');
  const collect = module.function<(values: number, count: number, threshold: number, dst: number, limit: number) => number>('collect');
  let candidatesEnd = collecting ? candidateArea : 0, threshold = 0;
  wasmSweepCalls++;
  for (let c0 = y0; c0 < y1; c0 += rows) {
    const c1 = Math.min(y1, c0 + rows);
    const a0 = Math.max(0, c0 - 1), a1 = Math.min(height, c1 + 1);
    if (plane) floats.set(plane.subarray(a0 * width, a1 * width), inputArea >> 2);
    else bytes.set(pixels!.subarray(a0 * width * channels, a1 * width * channels), inputArea);
    // The block rows this chunk adds to, with what earlier chunks added to the first.
    const b0 = Math.floor((c0 - y0) / block), b1 = Math.floor((c1 - 1 - y0) / block) + 1;
    doubles.set(sums.subarray(b0 * bw, b1 * bw), sumsArea >> 3);
    const signs = sweep(inputArea, channels, width, a1 - a0, lumaArea, stride, c0 - a0, c1 - c0, residualArea, c0 - y0, block, b0, sumsArea, bw, histogram);
    if (signs < 0) return undefined;
    if (candidatesEnd !== 0) {
      // The bin of the keep-th largest so far (0 until keep values were counted) only rises from chunk to chunk.
      if ((c1 - y0) * width >= keep!) threshold = Math.max(threshold, topBin(histogram, keep!));
      candidatesEnd = collect(residualArea, (c1 - c0) * width, threshold << 16, candidatesEnd, candidateArea + 4 * CANDIDATES);
    }
    sums.set(doubles.subarray(sumsArea >> 3, (sumsArea >> 3) + (b1 - b0) * bw), b0 * bw);
    residual.set(floats.subarray(residualArea >> 2, (residualArea >> 2) + (c1 - c0) * width), (c0 - y0) * width);
  }
  module.function<(histogram: number) => void>('foldHistogram')(histogram);
  const high = new Uint32Array(1 << 16);
  high.set(counts.subarray(histogram >> 2, (histogram >> 2) + BINS));
  // Residuals are non-negative, so a NaN or infinite one is one whose upper bits are 0x7f80 or more.
  let finite = true;
  for (let i = 0x7f80; i < BINS; i++) if (high[i] !== 0) { finite = false; break; }
  const candidates = candidatesEnd !== 0 ? floats.slice(candidateArea >> 2, candidatesEnd >> 2) : undefined;
  return { residual, sums, high, finite, ...(candidates ? { candidates } : {}) };
}
