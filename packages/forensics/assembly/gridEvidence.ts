// Blocking-artefact evidence of jpeg-grid (gridEvidenceOfPixels in src/jpeg/jpegGrid.ts) with the JavaScript arithmetic
// operation for operation: the JPEG luma of 8-bit pixels, ((0.299 R + 0.587 G) + 0.114 B) - 128 (grey: v - 128), in
// float64 rounded to float32; the steps |a - b| of those float32 values in float64; e = step - (before + after) / 2;
// each evidence cell (float32) gets min(e, 6) where e > 0 as float64 sum rounded to float32, in the same order. A call
// does a chunk of whole rows of 8x8 cells: the caller copies their pixel rows (and the one above and two below, which
// the row steps read) into memory and the chunk's evidence out, so the memory stays a few megabytes at any size.

import { float32x4, lanes01, lanes23 } from './lib/luma';

const CAP: f64 = 6;

/** Start of the memory the caller lays out, after this module's static data. */
export function heapBase(): usize {
  return (__heap_base + 15) & ~15;
}



/**
 * Byte shuffles taking R, G and B of 4 RGB pixels (12 bytes) to the low byte of four i32 lanes, the rest zeroed (as
 * in luma.ts).
 */
const RGB_LANES: usize = memory.data<u8>([
  0, 0x80, 0x80, 0x80, 3, 0x80, 0x80, 0x80, 6, 0x80, 0x80, 0x80, 9, 0x80, 0x80, 0x80,
  1, 0x80, 0x80, 0x80, 4, 0x80, 0x80, 0x80, 7, 0x80, 0x80, 0x80, 10, 0x80, 0x80, 0x80,
  2, 0x80, 0x80, 0x80, 5, 0x80, 0x80, 0x80, 8, 0x80, 0x80, 0x80, 11, 0x80, 0x80, 0x80,
], 16);

/** ((0.299 r + 0.587 g) + 0.114 b) - 128 of two pixels' float64 lanes. */
// @ts-ignore: decorator
@inline function jpegLuma2(r: v128, g: v128, b: v128): v128 {
  return f64x2.sub(f64x2.add(f64x2.add(f64x2.mul(f64x2.splat(0.299), r), f64x2.mul(f64x2.splat(0.587), g)), f64x2.mul(f64x2.splat(0.114), b)), f64x2.splat(128));
}

/**
 * Row `y` (of the rows in memory) of luma into `out` (float32); RGB four pixels at a time (a 16-byte load of which 12
 * are used: the caller leaves room after the rows).
 */
// @ts-ignore: decorator
@inline function lumaRow(input: usize, channels: i32, width: i32, y: i32, out: usize): void {
  let p = input + <usize>(y * width * channels);
  let x = 0;
  if (channels === 3) {
    const sr = v128.load(RGB_LANES), sg = v128.load(RGB_LANES, 16), sb = v128.load(RGB_LANES, 32);
    for (; x + 4 <= width; x += 4, p += 12) {
      const v = v128.load(p);
      const r = i8x16.swizzle(v, sr), g = i8x16.swizzle(v, sg), b = i8x16.swizzle(v, sb);
      v128.store(out + (<usize>x << 2), float32x4(jpegLuma2(lanes01(r), lanes01(g), lanes01(b)), jpegLuma2(lanes23(r), lanes23(g), lanes23(b))));
    }
  }
  if (channels >= 3) {
    for (; x < width; x++, p += <usize>channels) {
      const v = 0.299 * <f64>load<u8>(p) + 0.587 * <f64>load<u8>(p, 1) + 0.114 * <f64>load<u8>(p, 2) - 128;
      store<f32>(out + (<usize>x << 2), <f32>v);
    }
  } else {
    for (; x < width; x++, p += <usize>channels) store<f32>(out + (<usize>x << 2), <f32>(<f64>load<u8>(p) - 128));
  }
}

/** min(e, CAP) where e > 0, else 0 (adding 0 leaves a non-negative float32 sum as it is). */
// @ts-ignore: decorator
@inline function capped(e: f64): f64 {
  return select<f64>(min<f64>(e, CAP), 0, e > 0);
}

/** The float32 at `at` plus `v`, the sum in float64 rounded to float32 (a Float32Array's `+=`). */
// @ts-ignore: decorator
@inline function addTo(at: usize, v: f64): void {
  store<f32>(at, <f32>(<f64>load<f32>(at) + v));
}

/**
 * Evidence of the cell rows [c0, c1) of an image `width` x `height`: `input` holds the pixel rows from `first` on
 * (`rows` of them, `channels` bytes a pixel: rows 8 c0 - 1 to 8 c1 + 1 where the image has them). `luma` has room for
 * 4 float32 rows and `steps` for 4 float64 rows; `columns` and `rowsOut` receive (c1 - c0) x cellsX x 8 float32 each,
 * zeroed here.
 */
export function evidence(input: usize, channels: i32, width: i32, height: i32, first: i32, rows: i32, c0: i32, c1: i32, cellsX: i32, luma: usize, steps: usize, columns: usize, rowsOut: usize): void {
  const cellBytes = <usize>((c1 - c0) * cellsX * 8 * 4);
  memory.fill(columns, 0, cellBytes);
  memory.fill(rowsOut, 0, cellBytes);
  const rowBytes = <usize>width << 2;
  // Column steps of every pixel row of the chunk (the rows of its cells).
  if (width >= 4) {
    const y1 = min<i32>(height, c1 * 8);
    for (let y = c0 * 8; y < y1; y++) {
      lumaRow(input, channels, width, y - first, luma);
      const cells = columns + <usize>(((y >> 3) - c0) * cellsX * 8 * 4);
      // Steps d[x] = |L(x + 1) - L(x)| into `steps`, then each column's capped evidence into `capped` (0 where the
      // JavaScript loop adds nothing: x = 0 and x >= width - 2).
      const d = steps, v = steps + (<usize>width << 3);
      let x = 0;
      for (; x + 2 <= width - 1; x += 2) {
        const o = <usize>x << 2;
        v128.store(d + (<usize>x << 3), f64x2.abs(f64x2.sub(f64x2.promote_low_f32x4(v128.load64_zero(luma + o + 4)), f64x2.promote_low_f32x4(v128.load64_zero(luma + o)))));
      }
      for (; x < width - 1; x++) store<f64>(d + (<usize>x << 3), abs<f64>(<f64>load<f32>(luma + (<usize>x << 2), 4) - <f64>load<f32>(luma + (<usize>x << 2))));
      store<f64>(v, 0);
      const zero = f64x2.splat(0), cap = f64x2.splat(CAP), two = f64x2.splat(2);
      x = 1;
      for (; x + 2 <= width - 2; x += 2) {
        const at = d + (<usize>x << 3);
        const e = f64x2.sub(v128.load(at), f64x2.div(f64x2.add(v128.load(at - 8), v128.load(at + 8)), two));
        v128.store(v + (<usize>x << 3), v128.bitselect(f64x2.min(e, cap), zero, f64x2.gt(e, zero)));
      }
      for (; x < width - 2; x++) {
        const at = d + (<usize>x << 3);
        store<f64>(v + (<usize>x << 3), capped(load<f64>(at) - (load<f64>(at - 8) + load<f64>(at + 8)) / 2));
      }
      for (; x < width; x++) store<f64>(v + (<usize>x << 3), 0);
      // Column x adds to phase (x + 1) & 7 of its cell: a cell's phases 0..7 take its columns 7, 0, 1, ..., 6.
      const whole = width >> 3;
      for (let c = 0; c < whole; c++) {
        const cell = cells + (<usize>c << 5), col = v + (<usize>c << 6);
        const lo = v128.load(cell), hi = v128.load(cell, 16);
        const s01 = f64x2.add(f64x2.promote_low_f32x4(lo), f64x2.replace_lane(f64x2.splat(load<f64>(col, 56)), 1, load<f64>(col)));
        const s23 = f64x2.add(f64x2.promote_low_f32x4(i32x4.shuffle(lo, lo, 2, 3, 2, 3)), v128.load(col, 8));
        const s45 = f64x2.add(f64x2.promote_low_f32x4(hi), v128.load(col, 24));
        const s67 = f64x2.add(f64x2.promote_low_f32x4(i32x4.shuffle(hi, hi, 2, 3, 2, 3)), v128.load(col, 40));
        v128.store(cell, float32x4(s01, s23));
        v128.store(cell, float32x4(s45, s67), 16);
      }
      for (let xx = whole << 3; xx < width; xx++) addTo(cells + (<usize>(((xx >> 3) << 3) + ((xx + 1) & 7)) << 2), load<f64>(v + (<usize>xx << 3)));
    }
  }
  if (height < 4) return;
  // Row steps: the boundary below row y (1 <= y <= height - 3) of each pixel row y of the chunk's cells reads the
  // steps above (y-1, y), at (y, y+1) and below (y+1, y+2) it.
  const yStart = max<i32>(1, c0 * 8), yEnd = min<i32>(height - 2, c1 * 8);
  if (yStart >= yEnd) return;
  const l0 = luma, l1 = luma + rowBytes, l2 = luma + 2 * rowBytes, l3 = luma + 3 * rowBytes;
  lumaRow(input, channels, width, yStart - 1 - first, l0);
  lumaRow(input, channels, width, yStart - first, l1);
  lumaRow(input, channels, width, yStart + 1 - first, l2);
  let above = steps, at = steps + (<usize>width << 3), below = steps + (<usize>width << 4);
  const cappedRow = steps + 3 * (<usize>width << 3);
  for (let x = 0; x < width; x++) {
    const o = <usize>x << 2;
    store<f64>(above + (<usize>x << 3), abs<f64>(<f64>load<f32>(l1 + o) - <f64>load<f32>(l0 + o)));
    store<f64>(at + (<usize>x << 3), abs<f64>(<f64>load<f32>(l2 + o) - <f64>load<f32>(l1 + o)));
  }
  let next = l2, spare = l3, mid = l1;
  for (let y = yStart; y < yEnd; y++) {
    // Luma of row y + 2 into the free row.
    lumaRow(input, channels, width, y + 2 - first, spare);
    const phase = (y + 1) & 7;
    const cells = rowsOut + <usize>(((y >> 3) - c0) * cellsX * 8 * 4) + (<usize>phase << 2);
    // Each column's capped step into `capped`, two at a time, and its step below into `below`.
    let x = 0;
    const half = f64x2.splat(0.5), zero = f64x2.splat(0), cap = f64x2.splat(CAP);
    for (; x + 2 <= width; x += 2) {
      const o = <usize>x << 2, o8 = <usize>x << 3;
      const b = f64x2.abs(f64x2.sub(f64x2.promote_low_f32x4(v128.load64_zero(spare + o)), f64x2.promote_low_f32x4(v128.load64_zero(next + o))));
      const e = f64x2.sub(v128.load(at + o8), f64x2.div(f64x2.add(v128.load(above + o8), b), f64x2.splat(2)));
      v128.store(below + o8, b);
      v128.store(cappedRow + o8, v128.bitselect(f64x2.min(e, cap), zero, f64x2.gt(e, zero)));
    }
    for (; x < width; x++) {
      const o = <usize>x << 2, o8 = <usize>x << 3;
      const b = abs<f64>(<f64>load<f32>(spare + o) - <f64>load<f32>(next + o));
      const e = load<f64>(at + o8) - (load<f64>(above + o8) + b) / 2;
      store<f64>(below + o8, b);
      store<f64>(cappedRow + o8, capped(e));
    }
    // Each cell's sum of its 8 columns in order, float32 after every addition; two cells side by side in f64x2 lanes.
    const whole = width >> 3;
    let c = 0;
    for (; c + 2 <= whole; c += 2) {
      const p = cappedRow + (<usize>c << 6);
      let sum = f64x2.promote_low_f32x4(f32x4.replace_lane(f32x4.splat(load<f32>(cells + (<usize>c << 5))), 1, load<f32>(cells + (<usize>(c + 1) << 5))));
      for (let j = 0; j < 8; j++) {
        const v = f64x2.replace_lane(f64x2.splat(load<f64>(p + (<usize>j << 3))), 1, load<f64>(p + (<usize>(j + 8) << 3)));
        sum = f64x2.promote_low_f32x4(f32x4.demote_f64x2_zero(f64x2.add(sum, v)));
      }
      store<f32>(cells + (<usize>c << 5), <f32>f64x2.extract_lane(sum, 0));
      store<f32>(cells + (<usize>(c + 1) << 5), <f32>f64x2.extract_lane(sum, 1));
    }
    for (let x0 = c << 3; x0 < width; x0 += 8) {
      const x1 = min<i32>(width, x0 + 8);
      const cell = cells + (<usize>(x0 >> 3) << 5);
      let sum = <f64>load<f32>(cell);
      for (let xx = x0; xx < x1; xx++) sum = <f64>(<f32>(sum + load<f64>(cappedRow + (<usize>xx << 3))));
      store<f32>(cell, <f32>sum);
    }
    const t = above;
    above = at;
    at = below;
    below = t;
    // Rows: the one just computed becomes `next`; the oldest is free.
    const freed = mid;
    mid = next;
    next = spare;
    spare = freed;
  }
}
