import { lumaBytes } from './luma.js';
import { medianResidualSweepWasm } from './medianResidualWasm.js';
import { wasmModule } from './wasm.js';
import type { PixelBuffer } from '../types.js';

/** What `medianResidualSweep` returns for one band. */
export interface ResidualSweep {
  residual: Float32Array;
  /** Block sums of the residual, additions in pixel order within each block row (as `blockMean`). */
  sums: Float64Array;
  /**
   * Histogram of `residual` bits >>> 16 (all values are non-negative: sign bit clear), complete from bin `highFrom` up
   * (the bins below may be short): `float32LargestNonNegative` reads it from the top down to the bin of the m-th
   * largest value, which is `highFrom` or above.
   */
  high: Uint32Array;
  /** The lowest bin of `high` that counts every residual of its bin (0: the whole histogram). */
  highFrom: number;
  /** False when a residual is NaN or infinite (then `high` is not used). */
  finite: boolean;
  /**
   * With `keep`: residuals in pixel order that include every one of the band's `keep` largest (and all values in
   * their lowest bin of `high`), for `float32LargestNonNegative` instead of `residual`. Absent when not collected
   * (then `highFrom` is 0).
   */
  candidates?: Float32Array;
}

/**
 * One band of the median residual |Y - median3x3(Y)| in a single sweep over its rows: each row's 3x3 median, its
 * residual, the running block sums and a histogram of the residual's upper float bits are computed while the three
 * luma rows are hot in cache, instead of separate full passes for the median plane, the block means and the display
 * quantile. The luma rows come from a plane or, without one, are computed from 8-bit pixels into a ring of three rows
 * (no full-size luma plane). Every value equals the separate passes' (`median3x3Bits`, `blockMean`,
 * `float32Largest`) bit for bit: same samples, same additions in the same order.
 *
 * The sweep covers the rows [y0, y1) (y0 a multiple of `block`), the residual written into `out` when given (width *
 * (y1 - y0) values, e.g. the band's rows of a shared map), or undefined when a luma sample the band reads is negative
 * (or -0): the bit-pattern median needs non-negative samples; the caller then takes the comparison path.
 *
 * The sweep runs in WebAssembly (`medianResidualSweepWasm`, the same values) unless the modules are off.
 */
export function medianResidualSweep(source: Float32Array | PixelBuffer, width: number, height: number, block: number, y0: number, y1: number, out?: Float32Array, keep?: number): ResidualSweep | undefined {
  const module = wasmModule('medianResidual');
  if (module) return medianResidualSweepWasm(module, source, width, height, block, y0, y1, out, keep);
  const rows = new LumaRows(source, width);
  const residual = out ?? new Float32Array(width * (y1 - y0));
  const bw = Math.ceil(width / block);
  const sums = new Float64Array(bw * Math.ceil((y1 - y0) / block));
  const high = new Uint32Array(1 << 16);
  const residualBits = new Int32Array(residual.buffer, residual.byteOffset, residual.length);
  const median = new Int32Array(width), medianFloat = new Float32Array(median.buffer);
  let signs = 0, special = 0;
  for (let y = y0; y < y1; y++) {
    const up = rows.bits(Math.max(0, y - 1)), mid = rows.bits(y), down = rows.bits(Math.min(height - 1, y + 1));
    signs |= medianRow(up, mid, down, width, median);
    special |= residualRow(rows.floats(y), medianFloat, width, residual, residualBits, (y - y0) * width, block, sums, Math.floor((y - y0) / block) * bw, high);
  }
  // Fold the two interleaved histograms (even and odd columns) into the lower half.
  for (let i = 0; i < 0x8000; i++) { high[i]! += high[i + 0x8000]!; high[i + 0x8000] = 0; }
  return signs < 0 ? undefined : { residual, sums, high, highFrom: 0, finite: special === 0 };
}

/**
 * Luma rows as float32 and as their int32 bit patterns: views into a plane, or 8-bit pixels' luma computed on demand
 * into a ring of three row buffers (the sweep asks for rows in non-decreasing order, at most one row back).
 */
class LumaRows {
  private readonly ring: Float32Array[] = [];
  private readonly ringBits: Int32Array[] = [];
  private readonly ringRow = [-1, -1, -1];

  constructor(private readonly source: Float32Array | PixelBuffer, private readonly width: number) {
    if (!(source instanceof Float32Array)) {
      if (!(source.data instanceof Uint8Array)) throw new TypeError('Expected a luma plane or 8-bit pixels for medianResidualSweep but received Float32Array pixels of type object');
      for (let i = 0; i < 3; i++) {
        this.ring.push(new Float32Array(width));
        this.ringBits.push(new Int32Array(this.ring[i]!.buffer));
      }
    }
  }

  private slot(y: number): number {
    const s = y % 3;
    if (this.ringRow[s] !== y) {
      const image = this.source as PixelBuffer;
      lumaBytes(image.data as Uint8Array, image.channels, this.ring[s]!, y * this.width, 0, this.width);
      this.ringRow[s] = y;
    }
    return s;
  }

  floats(y: number): Float32Array {
    if (this.source instanceof Float32Array) return this.source.subarray(y * this.width, (y + 1) * this.width);
    return this.ring[this.slot(y)]!;
  }

  bits(y: number): Int32Array {
    if (this.source instanceof Float32Array) return new Int32Array(this.source.buffer, this.source.byteOffset + 4 * y * this.width, this.width);
    return this.ringBits[this.slot(y)]!;
  }
}

/**
 * 3x3 median of one row (replicated borders) on int32 bit patterns of non-negative floats, which order like the
 * values: each column of three sorted once, then per output max of the column minima, median of the column medians
 * and min of the column maxima, and the median of those three (Paeth 1990), all branch-free (d = a - b, m = d >> 31,
 * min = b + (d & m), max = a - (d & m); V8 compiles Math.min/max and ternaries to branches, which mispredict on
 * noise). The sorted columns of the window slide along in locals instead of going through arrays. Returns the OR of
 * every sample read: negative when one had its sign bit set (the result is then unusable).
 */
function medianRow(up: Int32Array, row: Int32Array, down: Int32Array, width: number, out: Int32Array): number {
  let signs = 0;
  // Column 0 sorted (lo, mi, hi); the column left of it is itself (replicated border).
  let a = up[0]!, b = row[0]!, c = down[0]!;
  signs |= a | b | c;
  let d = a - b, m = d >> 31;
  let ab = b + (d & m), AB = a - (d & m);
  d = ab - c; m = d >> 31;
  let lo1 = c + (d & m);
  d = AB - c; m = d >> 31;
  let hi1 = AB - (d & m);
  let u = c + (d & m);
  d = ab - u; m = d >> 31;
  let mi1 = ab - (d & m);
  let lo0 = lo1, mi0 = mi1, hi0 = hi1;
  for (let x = 0; x < width; x++) {
    // Column x + 1 (the last column again at the right border).
    const n = x + 1 < width ? x + 1 : width - 1;
    a = up[n]!; b = row[n]!; c = down[n]!;
    signs |= a | b | c;
    d = a - b; m = d >> 31;
    ab = b + (d & m); AB = a - (d & m);
    d = ab - c; m = d >> 31;
    const lo2 = c + (d & m);
    d = AB - c; m = d >> 31;
    const hi2 = AB - (d & m);
    u = c + (d & m);
    d = ab - u; m = d >> 31;
    const mi2 = ab - (d & m);
    // max(lo0, lo1, lo2)
    d = lo0 - lo1; m = d >> 31;
    let e = lo0 - (d & m);
    d = e - lo2; m = d >> 31;
    const maxLo = e - (d & m);
    // min(hi0, hi1, hi2)
    d = hi0 - hi1; m = d >> 31;
    e = hi1 + (d & m);
    d = e - hi2; m = d >> 31;
    const minHi = hi2 + (d & m);
    // median(mi0, mi1, mi2)
    d = mi0 - mi1; m = d >> 31;
    let l = mi1 + (d & m), h = mi0 - (d & m);
    d = h - mi2; m = d >> 31;
    h = mi2 + (d & m);
    d = l - h; m = d >> 31;
    const medMid = l - (d & m);
    // median(maxLo, medMid, minHi)
    d = maxLo - medMid; m = d >> 31;
    l = medMid + (d & m); h = maxLo - (d & m);
    d = h - minHi; m = d >> 31;
    h = minHi + (d & m);
    d = l - h; m = d >> 31;
    out[x] = l - (d & m);
    lo0 = lo1; mi0 = mi1; hi0 = hi1;
    lo1 = lo2; mi1 = mi2; hi1 = hi2;
  }
  return signs;
}

/**
 * The residual |y - median| of one row from its medians (float32), written at `at`, its bits counted in `high` (the
 * upper 16 bits, sign clear: below 0x8000; even and odd columns in two halves, so runs of equal values, common here,
 * do not wait on one counter's previous increment) and
 * added to the running sums of its blocks, each block's span in pixel order (as `blockMean`). Returns 1 when a
 * residual is NaN or infinite, else 0.
 */
function residualRow(luma: Float32Array, median: Float32Array, width: number, residual: Float32Array, residualBits: Int32Array, at: number, block: number, sums: Float64Array, blockRow: number, high: Uint32Array): number {
  let special = 0;
  for (let bx = 0, x0 = 0; x0 < width; bx++, x0 += block) {
    const end = x0 + block < width ? x0 + block : width;
    let sum = sums[blockRow + bx]!;
    for (let x = x0, i = at + x0; x < end; x++, i++) {
      const r = Math.abs(luma[x]! - median[x]!);
      residual[i] = r;
      const u = residualBits[i]!;
      if ((u & 0x7f800000) === 0x7f800000) special = 1;
      high[((x & 1) << 15) | (u >>> 16)]!++;
      sum += residual[i]!;
    }
    sums[blockRow + bx] = sum;
  }
  return special;
}
