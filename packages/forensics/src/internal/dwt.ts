import type { PixelBuffer } from '../types.js';
import { studioLumaRow } from './luma.js';
import { wasmModule } from './wasm.js';
import type { WasmModule } from './wasm.js';

/*
 * One level of a decimated wavelet analysis along one axis with half-sample symmetric extension (MATLAB 'sym',
 * PyWavelets 'symmetric'): out[o] = sum_j f[j] x[2o + 1 - j], n_out = floor((n + L - 1) / 2). Each function returns
 * the first `keep` outputs of every line.
 */

function reflect(i: number, n: number): number {
  return reflectRow(i, n);
}

function reflectRow(i: number, n: number): number {
  // Half-sample symmetric: x[-1] = x[0], x[n] = x[n-1]; repeated for filters longer than the signal.
  for (;;) {
    if (i < 0) i = -i - 1;
    else if (i >= n) i = 2 * n - 1 - i;
    else return i;
  }
}

/** Filters every row of `plane` (width x height) with `f` and keeps `keep` decimated outputs per row. */
export function analyseRows(plane: Float32Array, width: number, height: number, f: Float64Array, keep: number): Float32Array {
  const L = f.length;
  const out = new Float32Array(keep * height);
  const line = new Float64Array(width + 2 * L);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let i = -L; i < width + L; i++) line[i + L] = plane[row + reflect(i, width)]!;
    for (let o = 0; o < keep; o++) {
      const base = 2 * o + 1 + L;
      let s = 0;
      for (let j = 0; j < L; j++) s += f[j]! * line[base - j]!;
      out[y * keep + o] = s;
    }
  }
  return out;
}

/** Filters every column of `plane` (width x height) with `f` and keeps `keep` decimated outputs per column. */
export function analyseColumns(plane: Float32Array, width: number, height: number, f: Float64Array, keep: number, o0 = 0, o1 = keep, firstRow = 0): Float32Array {
  const L = f.length;
  const out = new Float32Array(width * (o1 - o0));
  const acc = new Float64Array(width);
  for (let o = o0; o < o1; o++) {
    acc.fill(0);
    for (let j = 0; j < L; j++) {
      const row = (reflect(2 * o + 1 - j, height) - firstRow) * width;
      const fj = f[j]!;
      for (let x = 0; x < width; x++) acc[x]! += fj * plane[row + x]!;
    }
    for (let x = 0; x < width; x++) out[(o - o0) * width + x] = acc[x]!;
  }
  return out;
}

/**
 * The diagonal detail (HH) of a 16-tap one-level analysis of an image's luma, row of outputs by row of outputs, with
 * only the rows in flight in memory: the row-filtered lines live in a ring of 16 (the column outputs o read input
 * rows 2o - 14 .. 2o + 1, reflected: always within 16 consecutive rows, and the window only moves down), each
 * filtered once when first needed, instead of a full plane of row outputs and one of HH. Every value equals
 * `analyseColumns16(analyseLumaRows(...))`'s: the same lines, the same sums in the same order.
 */
export class StreamedDetail16 {
  private readonly ring: Float32Array;
  private readonly ringRow = new Int32Array(16).fill(-1);
  private readonly row: Float32Array;
  private readonly line: Float64Array;
  private readonly f: Float64Array;

  /**
   * `f`: 16 taps (applied along rows and columns); `keep` outputs per row; `luma`: the luma plane (float or rounded
   * bytes) or undefined to compute each row from the pixels (`round`: rounded luma).
   */
  constructor(private readonly image: PixelBuffer, private readonly round: boolean, f: Float64Array, private readonly keep: number, private readonly luma: Float32Array | Uint8Array | undefined) {
    if (f.length !== 16) throw new RangeError(`Expected 16 taps for StreamedDetail16 but received ${f.length} of type number`);
    this.f = f;
    this.ring = new Float32Array(16 * keep);
    this.row = new Float32Array(image.width);
    this.line = new Float64Array(image.width + 32);
  }

  /** Column output `o` (HH row o, `keep` values) into `out` from `at`. */
  detailRow(o: number, out: Float32Array, at: number): void {
    const { height } = this.image;
    const keep = this.keep, p = this.ring;
    const r = new Int32Array(16);
    for (let j = 0; j < 16; j++) r[j] = this.filtered(reflectRow(2 * o + 1 - j, height)) * keep;
    const f = this.f;
    const f0 = f[0]!, f1 = f[1]!, f2 = f[2]!, f3 = f[3]!, f4 = f[4]!, f5 = f[5]!, f6 = f[6]!, f7 = f[7]!, f8 = f[8]!, f9 = f[9]!, f10 = f[10]!, f11 = f[11]!, f12 = f[12]!, f13 = f[13]!, f14 = f[14]!, f15 = f[15]!;
    const r0 = r[0]!, r1 = r[1]!, r2 = r[2]!, r3 = r[3]!, r4 = r[4]!, r5 = r[5]!, r6 = r[6]!, r7 = r[7]!, r8 = r[8]!, r9 = r[9]!, r10 = r[10]!, r11 = r[11]!, r12 = r[12]!, r13 = r[13]!, r14 = r[14]!, r15 = r[15]!;
    for (let x = 0; x < keep; x++) {
      out[at + x] = f0 * p[r0 + x]! + f1 * p[r1 + x]! + f2 * p[r2 + x]! + f3 * p[r3 + x]! + f4 * p[r4 + x]! + f5 * p[r5 + x]! + f6 * p[r6 + x]!
        + f7 * p[r7 + x]! + f8 * p[r8 + x]! + f9 * p[r9 + x]! + f10 * p[r10 + x]! + f11 * p[r11 + x]! + f12 * p[r12 + x]! + f13 * p[r13 + x]!
        + f14 * p[r14 + x]! + f15 * p[r15 + x]!;
    }
  }

  /** The ring slot holding input row `y` filtered along the row (filtering it into the slot first if needed). */
  private filtered(y: number): number {
    const slot = y & 15;
    if (this.ringRow[slot] === y) return slot;
    const { image, row, line, keep, f } = this;
    const { width } = image;
    if (this.luma) row.set(this.luma.subarray(y * width, (y + 1) * width));
    else studioLumaRow(image, y, this.round, row);
    for (let i = 0; i < width; i++) line[i + 16] = row[i]!;
    for (let i = -16; i < 0; i++) line[i + 16] = row[reflect(i, width)]!;
    for (let i = width; i < width + 16; i++) line[i + 16] = row[reflect(i, width)]!;
    const f0 = f[0]!, f1 = f[1]!, f2 = f[2]!, f3 = f[3]!, f4 = f[4]!, f5 = f[5]!, f6 = f[6]!, f7 = f[7]!, f8 = f[8]!, f9 = f[9]!, f10 = f[10]!, f11 = f[11]!, f12 = f[12]!, f13 = f[13]!, f14 = f[14]!, f15 = f[15]!;
    const out = this.ring, o0 = slot * keep;
    for (let o = 0, b = 17; o < keep; o++, b += 2) {
      out[o0 + o] = f0 * line[b]! + f1 * line[b - 1]! + f2 * line[b - 2]! + f3 * line[b - 3]! + f4 * line[b - 4]! + f5 * line[b - 5]!
        + f6 * line[b - 6]! + f7 * line[b - 7]! + f8 * line[b - 8]! + f9 * line[b - 9]! + f10 * line[b - 10]! + f11 * line[b - 11]!
        + f12 * line[b - 12]! + f13 * line[b - 13]! + f14 * line[b - 14]! + f15 * line[b - 15]!;
    }
    this.ringRow[slot] = y;
    return slot;
  }
}

/** Kinds of staged rows of assembly/dwt.ts: rounded luma as bytes, luma as float32, 8-bit pixels. */
const LUMA_BYTES = 0, LUMA_FLOATS = 1, PIXELS = 2;

/** Chunks of HH rows computed in WebAssembly so far (tests check that the WebAssembly path ran). */
export let wasmDetailChunks = 0;

/**
 * `StreamedDetail16` and the block medians of the wavelet noise in WebAssembly (assembly/dwt.ts), every value equal
 * to the JavaScript path's bit for bit. HH rows go in chunks of up to 8 into `detail` (rows of `stride` values, in
 * the module's memory); the input rows a chunk reads are copied into the module's ring of 32 staged rows (luma bytes
 * or floats, or 8-bit pixels whose luma the module computes), and each is row-filtered there once. The module keeps
 * one band's state: use one instance at a time per thread, from `create` to its last call.
 */
export class WasmDetail16 {
  /** Detail (HH) rows: row r, coefficient x at r * stride + x (x < keep; the rest is padding). */
  readonly detail: Float32Array;
  readonly stride: number;
  /** Sigma of the blocks of the last `blockMedians` call, and -1 for those holding a NaN (0 otherwise). */
  readonly medians: Float32Array;
  readonly flags: Int32Array;
  private readonly staged = new Int32Array(32).fill(-1);
  private readonly stage: number;
  private readonly stageStride: number;
  private readonly bytes: Uint8Array;
  private readonly floats: Float32Array;
  private readonly detailRows: (o0: number, count: number, at: number) => void;
  private readonly medianBlocks: (blocks: number) => number;

  /**
   * The module set up for `image` (arguments as `StreamedDetail16`'s, plus `blockSize`), or undefined when the
   * WebAssembly modules are off: then use `StreamedDetail16`.
   */
  static create(image: PixelBuffer, round: boolean, f: Float64Array, keep: number, luma: Float32Array | Uint8Array | undefined, blockSize: number): WasmDetail16 | undefined {
    if (f.length !== 16) throw new RangeError(`Expected 16 taps for WasmDetail16 but received ${f.length} of type number`);
    const m = wasmModule('dwt');
    return m && new WasmDetail16(m, image, round, f, keep, luma, blockSize);
  }

  private constructor(m: WasmModule, private readonly image: PixelBuffer, private readonly round: boolean, f: Float64Array, keep: number, private readonly luma: Float32Array | Uint8Array | undefined, blockSize: number) {
    const { width, height, channels, data } = image;
    const kind = luma instanceof Uint8Array ? LUMA_BYTES : luma || !(data instanceof Uint8Array) ? LUMA_FLOATS : PIXELS;
    const layout = m.function<(w: number, h: number, keep: number, block: number, kind: number, channels: number, round: boolean) => number>('layout');
    m.reserve(layout(width, height, keep, blockSize, kind, channels, round));
    m.function<() => void>('reset')();
    const pointer = m.function<(part: number) => number>('pointer');
    const buffer = m.memory.buffer;
    new Float64Array(buffer, pointer(0), 16).set(f);
    this.stage = pointer(1);
    this.stageStride = pointer(2);
    this.stride = pointer(6);
    this.detail = new Float32Array(buffer, pointer(3), blockSize * this.stride);
    this.medians = new Float32Array(buffer, pointer(4), this.stride);
    this.flags = new Int32Array(buffer, pointer(5), this.stride);
    this.bytes = new Uint8Array(buffer);
    this.floats = new Float32Array(buffer);
    this.detailRows = m.function('detailRows');
    this.medianBlocks = m.function('blockMedians');
  }

  /** HH rows o0 .. o0 + count - 1 (count <= 8) into detail rows at .. at + count - 1. */
  rows(o0: number, count: number, at: number): void {
    const { image, staged, luma } = this;
    const { width, height, channels, data } = image;
    // The input rows these outputs read (2o + 1 - j, reflected) span at most 30 rows: each keeps its slot y & 31
    // while the chunk runs, and rows staged for the previous chunk stay.
    for (let i = 2 * o0 - 14; i <= 2 * (o0 + count) - 1; i++) {
      const y = reflectRow(i, height), slot = y & 31;
      if (staged[slot] === y) continue;
      staged[slot] = y;
      const to = this.stage + slot * this.stageStride;
      if (luma instanceof Uint8Array) this.bytes.set(luma.subarray(y * width, (y + 1) * width), to);
      else if (luma) this.floats.set(luma.subarray(y * width, (y + 1) * width), to >> 2);
      else if (data instanceof Uint8Array) this.bytes.set(data.subarray(y * width * channels, (y + 1) * width * channels), to);
      else studioLumaRow(image, y, this.round, this.floats.subarray(to >> 2, (to >> 2) + width));
    }
    this.detailRows(o0, count, at);
    wasmDetailChunks++;
  }

  /**
   * Sigma (median(|HH|) / 0.6745) of the first `blocks` blocks of the detail rows into `medians`; returns how many
   * hold a NaN (flagged in `flags`, their sigma left to the caller).
   */
  blockMedians(blocks: number): number {
    return this.medianBlocks(blocks);
  }
}
