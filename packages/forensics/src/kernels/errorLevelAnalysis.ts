import { blockMean } from '../internal/blocks.js';
import { largestOutlierRegion } from '../internal/outlierRegion.js';
import { SortedFloat32 } from '../internal/sortedFloat32.js';
import { clamp01, concatFloat32, concatFloat64, meanStd, outlierFraction, quantile, robustCenterScale } from '../internal/stats.js';
import { align16, wasmModule, type WasmModule } from '../internal/wasm.js';
import type { KernelResult, PixelBuffer } from '../types.js';
import { expectNumberInRange, expectPixelBuffer, expectPositiveInteger, expectSameShape } from '../validate.js';

export interface ErrorLevelAnalysisOptions {
  /**
   * Multiplier of the mean absolute difference (the toolbox's ELA uses 15 on a JPEG quality-90 resave).
   * @default 15
   */
  scale?: number;
  /**
   * Side in pixels of the blocks the statistics and score are computed over.
   * @default 16
   */
  blockSize?: number;
  /**
   * Robust z-score above which a block's mean error level counts as an outlier in the score.
   * @default 3.5
   */
  outlierZ?: number;
  /**
   * Robust z-score above which a block belongs to an anomalous region in the score (largest connected region).
   * @default 2
   */
  regionZ?: number;
}

export const errorLevelAnalysisDefaults: Required<ErrorLevelAnalysisOptions> = { scale: 15, blockSize: 16, outlierZ: 3.5, regionZ: 2 };

/**
 * Error level analysis (Krawetz 2007, "A Picture's Worth"): the per-pixel mean over channels of
 * |original - recompressed| times `scale`, where `recompressed` is the original re-encoded as JPEG at a known quality
 * and decoded (see `recompressJpeg`). Regions whose compression history differs from the rest show a different error
 * level. The map is not clipped; the toolbox's uint8 map is `min(255, round(map))`.
 *
 * Score: area of the largest 4-connected region of blocks whose mean error level has robust z > `regionZ`, as a
 * fraction of all blocks (a region re-saved differently stands out as one patch; isolated outliers count little).
 * The fraction of blocks with robust z > `outlierZ` (the score of version 1) is the stat `outlierBlockFraction`.
 */
export function errorLevelAnalysis(original: PixelBuffer, recompressed: PixelBuffer, options: ErrorLevelAnalysisOptions = {}): KernelResult {
  const o = errorLevelOptions(original, recompressed, options);
  return errorLevelFromBands(original, [errorLevelBand(original, recompressed, o, 0, Math.ceil(original.height / o.blockSize))], o);
}

/** Options merged over the defaults and validated against the two images (first step of `errorLevelAnalysis`). */
export function errorLevelOptions(original: PixelBuffer, recompressed: PixelBuffer, options: ErrorLevelAnalysisOptions = {}): Required<ErrorLevelAnalysisOptions> {
  const o = { ...errorLevelAnalysisDefaults, ...options };
  expectPixelBuffer('original', original);
  expectPixelBuffer('recompressed', recompressed);
  expectSameShape(original, recompressed, 'original', 'recompressed');
  expectNumberInRange('scale', o.scale, 0, 1e6);
  expectPositiveInteger('blockSize', o.blockSize);
  expectNumberInRange('outlierZ', o.outlierZ, 0, 1e6);
  expectNumberInRange('regionZ', o.regionZ, 0, 1e6);
  return o;
}

/**
 * One band of ELA: the map of the rows of blocks [blockRowStart, blockRowEnd) and, on the 8-bit path, the histogram of
 * the channel sums and the block sums of those rows (`count` and `sums`; absent on the generic path). Bands merge
 * (`errorLevelFromBands`) to exactly the unsplit result: counts and integer sums add exactly. With `out` (the band's
 * rows of the whole map, e.g. in shared memory) the map is written there and returned as `map`.
 */
export function errorLevelBand(original: PixelBuffer, recompressed: PixelBuffer, o: Required<ErrorLevelAnalysisOptions>, blockRowStart: number, blockRowEnd: number, out?: Float32Array): ErrorLevelBand {
  const { width, height, channels } = original;
  const k = o.scale / channels;
  const y0 = blockRowStart * o.blockSize, y1 = Math.min(height, blockRowEnd * o.blockSize);
  const a = original.data, b = recompressed.data;
  const lut = errorLevelsExact(original, recompressed, o);
  if (lut && a instanceof Uint8Array && b instanceof Uint8Array) return uint8ErrorRows(a, b, width, channels, lut, o.blockSize, y0, y1, out);
  const map = out ?? new Float32Array(width * (y1 - y0));
  for (let i = 0, p = y0 * width * channels; i < map.length; i++) {
    let s = 0;
    for (let c = 0; c < channels; c++, p++) s += Math.abs(a[p]! - b[p]!);
    map[i] = s * k;
  }
  return { map };
}

/** A band's part of ELA (typed arrays only, so a worker can move it). */
export interface ErrorLevelBand {
  map: Float32Array;
  count?: Float64Array;
  sums?: Float64Array;
}

/**
 * Last step of `errorLevelAnalysis`: statistics, block map and score from the bands in order; `whole` is the whole map
 * when the bands wrote their rows into it (their `map` is then not read), else the bands' maps are joined.
 */
export function errorLevelFromBands(original: PixelBuffer, bands: Array<Omit<ErrorLevelBand, 'map'> & { map?: Float32Array }>, o: Required<ErrorLevelAnalysisOptions>, whole?: Float32Array): KernelResult {
  const { width, height, channels } = original;
  const k = o.scale / channels;
  const map = whole ?? (bands.length === 1 ? bands[0]!.map! : concatFloat32(bands.map((band) => band.map!)));
  const exact = bands.every((band) => band.count && band.sums);
  const { blocks, mean, std, p999, p99, max } = exact
    ? uint8Statistics(map, bands, width, height, channels, k, o.blockSize)
    : genericStatistics(map, width, height, o.blockSize);
  // One radix sort of the block means (non-negative) for their robust centre, outlier count and top quantile, the
  // centre shared by the outlier fraction and the region (the same values as stats.ts, test/sortedFloat32.test.ts).
  const sorted = SortedFloat32.of(blocks.data);
  const centre = sorted ? sorted.robustCenterScale() : robustCenterScale(blocks.data);
  const outliers = sorted ? sorted.outlierFraction(o.outlierZ, false, 0.5, centre) : outlierFraction(blocks.data, o.outlierZ, false, 0.5, centre);
  const region = largestOutlierRegion(blocks.data, blocks.width, blocks.height, o.regionZ, false, 0.5, centre);
  const blockTop = sorted ? sorted.quantile(0.999) : quantile(blocks.data, 0.999);
  return {
    maps: [
      { name: 'ela', data: map, width, height, cellSize: 1, displayRange: [0, Math.max(1, p999)] },
      { name: 'ela-block-mean', data: blocks.data, width: blocks.width, height: blocks.height, cellSize: o.blockSize, displayRange: [0, Math.max(1, blockTop)] },
    ],
    stats: { mean, std, p99, max, outlierBlockFraction: outliers, largestOutlierRegionFraction: region },
    score: clamp01(region),
  };
}

interface ErrorLevelStatistics {
  blocks: { data: Float32Array; width: number; height: number };
  mean: number;
  std: number;
  p999: number;
  p99: number;
  max: number;
}

function genericStatistics(map: Float32Array, width: number, height: number, block: number): ErrorLevelStatistics {
  const { mean, std } = meanStd(map);
  return { blocks: blockMean(map, width, height, block), mean, std, p999: quantile(map, 0.999), p99: quantile(map, 0.99), max: quantile(map, 1) };
}

/** The 8-bit path's table of map values (`exactLevels`) when both images are 8-bit and it applies, else undefined. */
export function errorLevelsExact(original: PixelBuffer, recompressed: PixelBuffer, o: Required<ErrorLevelAnalysisOptions>): Float32Array | undefined {
  const { width, height, channels } = original;
  return original.data instanceof Uint8Array && recompressed.data instanceof Uint8Array ? exactLevels(channels, o.scale / channels, width * height) : undefined;
}

/**
 * The map values s * k of the 8-bit path, indexed by the integer channel sum s of |a - b| (0..255 * channels), when
 * every s * k is a float32 with at most 8 fractional bits and the image's total stays below 2^53 at that resolution:
 * then the pixel-order float64 sums of the generic path are exact too, and both paths give the same maps, quantiles
 * and mean (the std may differ in the last bits, the sum of squares being exact here and rounded there).
 */
function exactLevels(channels: number, k: number, n: number): Float32Array | undefined {
  const top = 255 * channels;
  const lut = new Float32Array(top + 1);
  for (let s = 0; s <= top; s++) {
    lut[s] = s * k;
    if (lut[s] !== s * k || !Number.isInteger(s * k * 256)) return undefined;
  }
  if (top * k * n * 256 >= 2 ** 53) return undefined;
  return lut;
}

/**
 * 8-bit rows [y0, y1) in one pass: the map is a table lookup of s, the quantiles come from a histogram of s, and
 * block sums are integer sums of s (times k at the end).
 */
function uint8ErrorRows(a: Uint8Array, b: Uint8Array, width: number, channels: number, lut: Float32Array, block: number, y0: number, y1: number, out?: Float32Array): ErrorLevelBand {
  const top = 255 * channels;
  const map = out ?? new Float32Array(width * (y1 - y0));
  const module = wasmModule('errorLevel');
  if (module) return uint8ErrorRowsWasm(module, a, b, width, channels, lut, block, y0, y1, map);
  // Four interleaved histograms (by pixel index mod 4) so runs of equal s do not serialise on one counter.
  const hist = new Uint32Array(4 << 10);
  const bw = Math.ceil(width / block), bh = Math.ceil((y1 - y0) / block);
  const sums = new Float64Array(bw * bh);
  // RGB pixels read four at a time as three little-endian 32-bit words when both buffers allow aligned word views.
  const words = channels === 3 && LITTLE_ENDIAN && a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0;
  const a32 = words ? new Uint32Array(a.buffer, a.byteOffset, a.length >> 2) : EMPTY_WORDS;
  const b32 = words ? new Uint32Array(b.buffer, b.byteOffset, b.length >> 2) : EMPTY_WORDS;
  for (let y = y0; y < y1; y++) {
    const brow = Math.floor((y - y0) / block) * bw;
    let i = (y - y0) * width, p = y * width * channels;
    for (let bx = 0, x0 = 0; x0 < width; bx++, x0 += block) {
      const end = (y - y0) * width + Math.min(width, x0 + block);
      let acc = 0;
      if (channels === 3) {
        for (; i < end; i++, p += 3) {
          // Four pixels from a byte offset that is a multiple of 4 (12 bytes, 3 words): one call, then on.
          if (words && (p & 3) === 0 && i + 4 <= end) {
            acc += rgbQuad(a32, b32, p >> 2, map, i, lut, hist);
            i += 3; p += 9;
            continue;
          }
          const d0 = a[p]! - b[p]!, d1 = a[p + 1]! - b[p + 1]!, d2 = a[p + 2]! - b[p + 2]!;
          // |d| as (d ^ m) - m with m = d >> 31: branch-free (the signs of JPEG errors are a coin toss).
          const m0 = d0 >> 31, m1 = d1 >> 31, m2 = d2 >> 31;
          const s = ((d0 ^ m0) - m0) + ((d1 ^ m1) - m1) + ((d2 ^ m2) - m2);
          map[i] = lut[s]!;
          hist[((i & 3) << 10) | s]!++;
          acc += s;
        }
      } else {
        for (; i < end; i++) {
          let s = 0;
          for (let c = 0; c < channels; c++, p++) { const d = a[p]! - b[p]!; s += d < 0 ? -d : d; }
          map[i] = lut[s]!;
          hist[((i & 3) << 10) | s]!++;
          acc += s;
        }
      }
      sums[brow + bx]! += acc;
    }
  }
  const count = new Float64Array(top + 1);
  for (let s = 0; s <= top; s++) count[s] = hist[s]! + hist[1024 + s]! + hist[2048 + s]! + hist[3072 + s]!;
  return { map, count, sums };
}

/**
 * Pixels per call of the WebAssembly module: both images' rows and the map rows of a chunk (640 KB for RGB) stay
 * in the core's cache between the copy in, the module and the copy out.
 */
const CHUNK_PIXELS = 1 << 16;

/** How often `uint8ErrorRows` ran in WebAssembly in this thread (tests check it did). */
export let wasmErrorLevelCalls = 0;

/** Bytes of the module's histograms: four of s (1024 bins of u32), four of pairs (1024), four of quadruples (4096). */
const HISTOGRAM_BYTES = 4 * 4 * (1024 + 1024 + 4096);

type Levels = (a: number, b: number, width: number, rows: number, channels: number, k: number, map: number, columns: number, hist: number) => void;
type FlushColumns = (columns: number, width: number, block: number, out: number) => void;

/**
 * `uint8ErrorRows` in WebAssembly (`assembly/errorLevel.ts`), the very same result: chunks of rows of both images are
 * copied into the module's memory; the module writes their map rows, counts s in its histograms (most by pairs or
 * quadruples of small sums) and sums it per column. The column sums are folded into block sums after every chunk (so
 * they stay small), the histograms once at the end.
 */
function uint8ErrorRowsWasm(module: WasmModule, a: Uint8Array, b: Uint8Array, width: number, channels: number, lut: Float32Array, block: number, y0: number, y1: number, map: Float32Array): ErrorLevelBand {
  const top = 255 * channels;
  const bw = Math.ceil(width / block), bh = Math.ceil((y1 - y0) / block);
  const sums = new Float64Array(bw * bh);
  // Layout: the histograms, column sums, block sums of one chunk, both images' rows, map rows (the module's vector
  // loads of RGB rows read 4 bytes past a row: the next area is there).
  const rows = Math.max(1, Math.floor(CHUNK_PIXELS / width));
  const hist = module.heapBase();
  const columns = align16(hist + HISTOGRAM_BYTES);
  const blockSums = align16(columns + 4 * width);
  const aArea = align16(blockSums + 8 * bw);
  const bArea = align16(aArea + rows * width * channels);
  const mapArea = align16(bArea + rows * width * channels);
  module.reserve(mapArea + 4 * rows * width);
  const buffer = module.memory.buffer;
  const bytes = new Uint8Array(buffer), floats = new Float32Array(buffer), doubles = new Float64Array(buffer), counts = new Uint32Array(buffer);
  counts.fill(0, hist >> 2, blockSums >> 2);
  const levels = module.function<Levels>('levels'), flushColumns = module.function<FlushColumns>('flushColumns');
  // Every level is s times the level of s = 1, exactly (exactLevels), so the module multiplies instead of looking up.
  const k = lut[1]!;
  wasmErrorLevelCalls++;
  const rowBytes = width * channels;
  for (let y = y0; y < y1;) {
    // A chunk never straddles two rows of blocks, so its column sums belong to one.
    const brow = Math.floor((y - y0) / block);
    const end = Math.min(y1, y0 + (brow + 1) * block, y + rows);
    bytes.set(a.subarray(y * rowBytes, end * rowBytes), aArea);
    bytes.set(b.subarray(y * rowBytes, end * rowBytes), bArea);
    levels(aArea, bArea, width, end - y, channels, k, mapArea, columns, hist);
    map.set(floats.subarray(mapArea >> 2, (mapArea >> 2) + (end - y) * width), (y - y0) * width);
    flushColumns(columns, width, block, blockSums);
    for (let bx = 0, q = blockSums >> 3; bx < bw; bx++, q++) sums[brow * bw + bx]! += doubles[q]!;
    y = end;
  }
  const count = new Float64Array(top + 1);
  const h = hist >> 2;
  for (let s = 0; s <= top; s++) count[s] = counts[h + s]! + counts[h + 1024 + s]! + counts[h + 2048 + s]! + counts[h + 3072 + s]!;
  // Pairs (a, b) of sums below 32 at 32 a + b, quadruples (a, b, c, d) of sums below 8 at 512 a + 64 b + 8 c + d, four
  // histograms of each: every pair or quadruple is one count of each of its sums.
  for (let p = 0; p < 1024; p++) {
    const c = counts[h + 4096 + p]! + counts[h + 5120 + p]! + counts[h + 6144 + p]! + counts[h + 7168 + p]!;
    count[p >> 5]! += c;
    count[p & 31]! += c;
  }
  for (let q = 0; q < 4096; q++) {
    const c = counts[h + 8192 + q]! + counts[h + 12288 + q]! + counts[h + 16384 + q]! + counts[h + 20480 + q]!;
    count[q >> 9]! += c;
    count[(q >> 6) & 7]! += c;
    count[(q >> 3) & 7]! += c;
    count[q & 7]! += c;
  }
  return { map, count, sums };
}

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;
const EMPTY_WORDS = new Uint32Array(0);

/** |x - y| of two bytes (0..255), branch-free. */
function byteDistance(x: number, y: number): number {
  const d = x - y, m = d >> 31;
  return (d ^ m) - m;
}

/**
 * Four RGB pixels from word `q` of both images (bytes R0 G0 B0 R1 | G1 B1 R2 G2 | B2 R3 G3 B3, little-endian): their
 * channel sums of |a - b| into `map` (as levels) and the four histograms (one per pixel of the four, so equal sums in a
 * row do not wait on one counter). Three word loads per image instead of twelve byte loads. Returns the four sums' sum.
 */
function rgbQuad(a: Uint32Array, b: Uint32Array, q: number, map: Float32Array, i: number, lut: Float32Array, hist: Uint32Array): number {
  const a0 = a[q]!, a1 = a[q + 1]!, a2 = a[q + 2]!, b0 = b[q]!, b1 = b[q + 1]!, b2 = b[q + 2]!;
  const s0 = byteDistance(a0 & 255, b0 & 255) + byteDistance((a0 >>> 8) & 255, (b0 >>> 8) & 255) + byteDistance((a0 >>> 16) & 255, (b0 >>> 16) & 255);
  const s1 = byteDistance(a0 >>> 24, b0 >>> 24) + byteDistance(a1 & 255, b1 & 255) + byteDistance((a1 >>> 8) & 255, (b1 >>> 8) & 255);
  const s2 = byteDistance((a1 >>> 16) & 255, (b1 >>> 16) & 255) + byteDistance(a1 >>> 24, b1 >>> 24) + byteDistance(a2 & 255, b2 & 255);
  const s3 = byteDistance((a2 >>> 8) & 255, (b2 >>> 8) & 255) + byteDistance((a2 >>> 16) & 255, (b2 >>> 16) & 255) + byteDistance(a2 >>> 24, b2 >>> 24);
  map[i] = lut[s0]!; map[i + 1] = lut[s1]!; map[i + 2] = lut[s2]!; map[i + 3] = lut[s3]!;
  hist[s0]!++; hist[1024 | s1]!++; hist[2048 | s2]!++; hist[3072 | s3]!++;
  return s0 + s1 + s2 + s3;
}

/** Mean, std, quantiles and block means of the 8-bit path from the bands' histograms and block sums. */
function uint8Statistics(map: Float32Array, bands: Array<{ count?: Float64Array; sums?: Float64Array }>, width: number, height: number, channels: number, k: number, block: number): ErrorLevelStatistics {
  const n = width * height, top = 255 * channels;
  const lut = exactLevels(channels, k, n)!;
  const count = new Float64Array(top + 1);
  for (const band of bands) for (let s = 0; s <= top; s++) count[s]! += band.count![s]!;
  const sums = bands.length === 1 ? bands[0]!.sums! : concatFloat64(bands.map((band) => band.sums!));
  let total = 0, squares = 0;
  for (let s = 0; s <= top; s++) {
    total += count[s]! * s;
    squares += count[s]! * lut[s]! * lut[s]!;
  }
  const mean = (total * k) / n;
  const rank = (q: number): number => {
    let r = Math.min(n - 1, Math.max(0, Math.round(q * (n - 1))));
    let s = 0;
    while (r >= count[s]!) r -= count[s++]!;
    return lut[s]!;
  };
  const bw = Math.ceil(width / block), bh = Math.ceil(height / block);
  const data = new Float32Array(bw * bh);
  for (let by = 0; by < bh; by++) {
    const rows = Math.min(block, height - by * block);
    for (let bx = 0; bx < bw; bx++) data[by * bw + bx] = (sums[by * bw + bx]! * k) / (rows * Math.min(block, width - bx * block));
  }
  return {
    blocks: { data, width: bw, height: bh }, mean, std: Math.sqrt(Math.max(0, squares / n - mean * mean)),
    p999: rank(0.999), p99: rank(0.99), max: rank(1),
  };
}
