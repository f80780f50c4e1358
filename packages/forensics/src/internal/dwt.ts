import type { PixelBuffer } from '../types.js';
import { studioLumaRow } from './luma.js';

/*
 * One level of a decimated wavelet analysis along one axis with half-sample symmetric extension (MATLAB 'sym',
 * PyWavelets 'symmetric'): out[o] = sum_j f[j] x[2o + 1 - j], n_out = floor((n + L - 1) / 2). Each function returns
 * the first `keep` outputs of every line.
 */

function reflect(i: number, n: number): number {
  return reflectRow(i, n);
}

/** The input rows (first, last) that the column outputs [o0, o1) of a `length`-tap analysis read (a band's rows). */
export function rowsReadByColumns(o0: number, o1: number, height: number, length: number): [number, number] {
  let first = height, last = -1;
  for (let i = 2 * o0 + 2 - length; i <= 2 * (o1 - 1) + 1; i++) {
    const r = reflectRow(i, height);
    if (r < first) first = r;
    if (r > last) last = r;
  }
  return [first, last];
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
 * `analyseRows(studioLuma(image, round), ...)` without the luma plane: each row's luma is computed into the
 * reflected line buffer (as float32, the plane's type) and filtered at once; or read from `luma`, that plane computed
 * beforehand (`studioLumaPlanes`). Only the rows [y0, y1) when given (a band). 16-tap filters (db8) take an unrolled
 * loop that adds the products in the same order as the generic one.
 */
export function analyseLumaRows(image: PixelBuffer, round: boolean, f: Float64Array, keep: number, luma?: Float32Array | Uint8Array, y0 = 0, y1 = image.height): Float32Array {
  const { width } = image;
  const L = f.length;
  const out = new Float32Array(keep * (y1 - y0));
  const row = new Float32Array(width);
  const line = new Float64Array(width + 2 * L);
  const [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15] = L === 16 ? Array.from(f) : new Array<number>(16).fill(0);
  for (let y = y0; y < y1; y++) {
    if (luma) row.set(luma.subarray(y * width, (y + 1) * width));
    else studioLumaRow(image, y, round, row);
    for (let i = 0; i < width; i++) line[i + L] = row[i]!;
    for (let i = -L; i < 0; i++) line[i + L] = row[reflect(i, width)]!;
    for (let i = width; i < width + L; i++) line[i + L] = row[reflect(i, width)]!;
    const o0 = (y - y0) * keep;
    if (L === 16) {
      for (let o = 0, b = 1 + L; o < keep; o++, b += 2) {
        out[o0 + o] = f0! * line[b]! + f1! * line[b - 1]! + f2! * line[b - 2]! + f3! * line[b - 3]! + f4! * line[b - 4]! + f5! * line[b - 5]!
          + f6! * line[b - 6]! + f7! * line[b - 7]! + f8! * line[b - 8]! + f9! * line[b - 9]! + f10! * line[b - 10]! + f11! * line[b - 11]!
          + f12! * line[b - 12]! + f13! * line[b - 13]! + f14! * line[b - 14]! + f15! * line[b - 15]!;
      }
    } else {
      for (let o = 0; o < keep; o++) {
        const base = 2 * o + 1 + L;
        let s = 0;
        for (let j = 0; j < L; j++) s += f[j]! * line[base - j]!;
        out[o0 + o] = s;
      }
    }
  }
  return out;
}

/**
 * `analyseColumns` with the 16-tap loop unrolled (same order of additions); other lengths take the generic loop. Only
 * the outputs [o0, o1) when given, from `plane` holding the rows from `firstRow` on (those the outputs read).
 */
export function analyseColumns16(plane: Float32Array, width: number, height: number, f: Float64Array, keep: number, o0 = 0, o1 = keep, firstRow = 0): Float32Array {
  if (f.length !== 16) return analyseColumns(plane, width, height, f, keep, o0, o1, firstRow);
  const [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15] = Array.from(f) as [number, number, number, number, number, number, number, number, number, number, number, number, number, number, number, number];
  const out = new Float32Array(width * (o1 - o0));
  const p = plane;
  const reflect = (i: number, n: number): number => reflectRow(i, n) - firstRow;
  for (let o = o0; o < o1; o++) {
    const r0 = reflect(2 * o + 1, height) * width, r1 = reflect(2 * o, height) * width, r2 = reflect(2 * o - 1, height) * width;
    const r3 = reflect(2 * o - 2, height) * width, r4 = reflect(2 * o - 3, height) * width, r5 = reflect(2 * o - 4, height) * width;
    const r6 = reflect(2 * o - 5, height) * width, r7 = reflect(2 * o - 6, height) * width, r8 = reflect(2 * o - 7, height) * width;
    const r9 = reflect(2 * o - 8, height) * width, r10 = reflect(2 * o - 9, height) * width, r11 = reflect(2 * o - 10, height) * width;
    const r12 = reflect(2 * o - 11, height) * width, r13 = reflect(2 * o - 12, height) * width, r14 = reflect(2 * o - 13, height) * width;
    const r15 = reflect(2 * o - 14, height) * width;
    const d = (o - o0) * width;
    for (let x = 0; x < width; x++) {
      out[d + x] = f0 * p[r0 + x]! + f1 * p[r1 + x]! + f2 * p[r2 + x]! + f3 * p[r3 + x]! + f4 * p[r4 + x]! + f5 * p[r5 + x]! + f6 * p[r6 + x]!
        + f7 * p[r7 + x]! + f8 * p[r8 + x]! + f9 * p[r9 + x]! + f10 * p[r10 + x]! + f11 * p[r11 + x]! + f12 * p[r12 + x]! + f13 * p[r13 + x]!
        + f14 * p[r14 + x]! + f15 * p[r15 + x]!;
    }
  }
  return out;
}
