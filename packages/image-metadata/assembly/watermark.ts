// The block votes of the invisible-watermark decoder under its four chroma conventions (conventionVotes in
// src/watermark/conventionVotes.ts) with the JavaScript arithmetic operation for operation: OpenCV's 14-bit
// fixed-point U in i32 lanes (exact), the float U as (X - ((0.299 Y + 0.587 G) + 0.114 X)) * 0.492 + 0.5 in float64
// rounded to float32 (f64x2 lanes, demoted as Math.fround rounds), cell sums of the 2x2 pixels in float64 in the
// order o, o+1, o+w, o+w+1. The caller copies whole rows of 8x8 blocks into memory and reads the votes back.

/** Start of the memory the caller lays out, after this module's static data. */
export function heapBase(): usize {
  return (__heap_base + 15) & ~15;
}

/** Byte shuffles taking R, G and B of 4 RGB pixels (12 bytes) to the low byte of four i32 lanes (0x80 gives 0). */
const RGB_LANES: usize = memory.data<u8>([
  0, 0x80, 0x80, 0x80, 3, 0x80, 0x80, 0x80, 6, 0x80, 0x80, 0x80, 9, 0x80, 0x80, 0x80,
  1, 0x80, 0x80, 0x80, 4, 0x80, 0x80, 0x80, 7, 0x80, 0x80, 0x80, 10, 0x80, 0x80, 0x80,
  2, 0x80, 0x80, 0x80, 5, 0x80, 0x80, 0x80, 8, 0x80, 0x80, 0x80, 11, 0x80, 0x80, 0x80,
], 16);

/** OpenCV's 8-bit U of 4 pixels (blue as the conversion sees it in `blue`): luma rounded first, then saturated. */
@inline function integerU(red: v128, g9617: v128, blue: v128): v128 {
  const luma = i32x4.shr_s(i32x4.add(i32x4.add(i32x4.mul(red, i32x4.splat(4899)), g9617), i32x4.mul(blue, i32x4.splat(1868))), 14);
  const u = i32x4.shr_s(i32x4.add(i32x4.mul(i32x4.sub(blue, luma), i32x4.splat(8061)), i32x4.splat((128 << 14) + 8192)), 14);
  return i32x4.min_s(i32x4.max_s(u, i32x4.splat(0)), i32x4.splat(255));
}

/** Float U of 2 pixels (f64x2 lanes), before rounding to float32: (x - ((0.299 y + 0.587 g) + 0.114 x)) * 0.492 + 0.5. */
@inline function floatU(x: v128, y: v128, g587: v128): v128 {
  const luma = f64x2.add(f64x2.add(f64x2.mul(y, f64x2.splat(0.299)), g587), f64x2.mul(x, f64x2.splat(0.114)));
  return f64x2.add(f64x2.mul(f64x2.sub(x, luma), f64x2.splat(0.492)), f64x2.splat(0.5));
}

/**
 * For 4 pixels whose channels are the i32 lanes of r, g, b: one 16-byte record per pixel at `out`, (float32 U of
 * float32_bgr, of float32_rgb_as_bgr, int32 U of uint8_bgr, of uint8_rgb_as_bgr), the four values its cell sums need.
 */
@inline function records4(r: v128, g: v128, b: v128, out: usize): void {
  const g9617 = i32x4.add(i32x4.mul(g, i32x4.splat(9617)), i32x4.splat(8192));
  const ub = integerU(r, g9617, b), us = integerU(b, g9617, r);
  const ints01 = i32x4.shuffle(ub, us, 0, 4, 1, 5), ints23 = i32x4.shuffle(ub, us, 2, 6, 3, 7);
  const k587 = f64x2.splat(0.587);
  // Channels are 0..255: the signed conversion (one instruction, the unsigned one takes several) is exact.
  const r01 = f64x2.convert_low_i32x4_s(r), g01 = f64x2.convert_low_i32x4_s(g), b01 = f64x2.convert_low_i32x4_s(b);
  const r23 = f64x2.convert_low_i32x4_s(i32x4.shuffle(r, r, 2, 3, 2, 3));
  const g23 = f64x2.convert_low_i32x4_s(i32x4.shuffle(g, g, 2, 3, 2, 3));
  const b23 = f64x2.convert_low_i32x4_s(i32x4.shuffle(b, b, 2, 3, 2, 3));
  const gk01 = f64x2.mul(g01, k587), gk23 = f64x2.mul(g23, k587);
  // Float32 lanes (fb0, fs0, fb1, fs1) and (fb2, fs2, fb3, fs3).
  const f01 = i32x4.shuffle(f32x4.demote_f64x2_zero(floatU(b01, r01, gk01)), f32x4.demote_f64x2_zero(floatU(r01, b01, gk01)), 0, 4, 1, 5);
  const f23 = i32x4.shuffle(f32x4.demote_f64x2_zero(floatU(b23, r23, gk23)), f32x4.demote_f64x2_zero(floatU(r23, b23, gk23)), 0, 4, 1, 5);
  v128.store(out, i32x4.shuffle(f01, ints01, 0, 1, 4, 5));
  v128.store(out, i32x4.shuffle(f01, ints01, 2, 3, 6, 7), 16);
  v128.store(out, i32x4.shuffle(f23, ints23, 0, 1, 4, 5), 32);
  v128.store(out, i32x4.shuffle(f23, ints23, 2, 3, 6, 7), 48);
}

/**
 * Records of the `count` (a multiple of 4) pixels of one row at `src`, `channels` bytes apart, reading bytes 0, 1
 * and 2 of each as R, G and B as the JavaScript does (for 1 or 2 channels those run into the next pixels; the caller
 * copies 2 bytes past the rows, and the RGB loads read 4 bytes past the row's last pixel: the caller leaves room).
 */
function rowRecords(src: usize, channels: i32, count: i32, out: usize): void {
  if (channels == 3) {
    const mr = v128.load(RGB_LANES), mg = v128.load(RGB_LANES, 16), mb = v128.load(RGB_LANES, 32);
    for (let i = 0; i < count; i += 4, src += 12, out += 64) {
      const v = v128.load(src);
      records4(i8x16.swizzle(v, mr), i8x16.swizzle(v, mg), i8x16.swizzle(v, mb), out);
    }
  } else if (channels == 4) {
    const byte = i32x4.splat(255);
    for (let i = 0; i < count; i += 4, src += 16, out += 64) {
      const v = v128.load(src);
      records4(v128.and(v, byte), v128.and(i32x4.shr_u(v, 8), byte), v128.and(i32x4.shr_u(v, 16), byte), out);
    }
  } else {
    const step = <usize>channels;
    for (let i = 0; i < count; i += 4, out += 64) {
      let r = i32x4.splat(0), g = i32x4.splat(0), b = i32x4.splat(0);
      r = i32x4.replace_lane(r, 0, load<u8>(src)); g = i32x4.replace_lane(g, 0, load<u8>(src, 1)); b = i32x4.replace_lane(b, 0, load<u8>(src, 2)); src += step;
      r = i32x4.replace_lane(r, 1, load<u8>(src)); g = i32x4.replace_lane(g, 1, load<u8>(src, 1)); b = i32x4.replace_lane(b, 1, load<u8>(src, 2)); src += step;
      r = i32x4.replace_lane(r, 2, load<u8>(src)); g = i32x4.replace_lane(g, 2, load<u8>(src, 1)); b = i32x4.replace_lane(b, 2, load<u8>(src, 2)); src += step;
      r = i32x4.replace_lane(r, 3, load<u8>(src)); g = i32x4.replace_lane(g, 3, load<u8>(src, 1)); b = i32x4.replace_lane(b, 3, load<u8>(src, 2)); src += step;
      records4(r, g, b, out);
    }
  }
}

/**
 * best % scale > half. The remainder is exact in both languages (fmod; `%` on floats would ask the host's Math, which
 * has none), so the vote is the JavaScript's.
 */
@inline function vote(best: f64, scale: f64, half: f64): bool {
  return NativeMath.mod(best, scale) > half;
}

/**
 * Votes of `blockRows` rows of `blocksWide` 8x8 blocks whose pixel rows start at `src`, `rowStride` bytes apart:
 * one byte per block and convention at out + convention * blockRows * blocksWide + block (conventions in the order
 * uint8_bgr, uint8_rgb_as_bgr, float32_bgr, float32_rgb_as_bgr). `records` holds 8 rows of 16-byte records
 * (blocksWide * 1024 bytes).
 */
export function votes(src: usize, rowStride: i32, channels: i32, blockRows: i32, blocksWide: i32, scale: f64, records: usize, out: usize): void {
  const width = blocksWide << 3;
  const recordRow = <usize>width << 4;
  const plane = <usize>(blockRows * blocksWide);
  const half = scale / 2;
  for (let by = 0; by < blockRows; by++) {
    for (let y = 0; y < 8; y++) rowRecords(src + <usize>((by * 8 + y) * rowStride), channels, width, records + <usize>y * recordRow);
    for (let bx = 0; bx < blocksWide; bx++) {
      const block = records + (<usize>bx << 7);
      let bestFloat = f64x2.splat(0), bestInt = i32x4.splat(0);
      for (let k = 1; k < 16; k++) {
        // Cell k: the 2x2 pixels at row 2 (k >> 2), column 2 (k & 3) of the block, summed as the JavaScript does.
        const a = block + <usize>(k >> 2) * (recordRow << 1) + (<usize>(k & 3) << 5);
        const p0 = v128.load(a), p1 = v128.load(a, 16), p2 = v128.load(a + recordRow), p3 = v128.load(a + recordRow, 16);
        // 0 + f is f for the float U (never -0), so the JavaScript's sum from 0 starts at the first value here.
        let s = f64x2.promote_low_f32x4(p0);
        s = f64x2.add(s, f64x2.promote_low_f32x4(p1));
        s = f64x2.add(s, f64x2.promote_low_f32x4(p2));
        s = f64x2.add(s, f64x2.promote_low_f32x4(p3));
        // |s / 2| (a halving is exact, as in the JavaScript); the maximum, as the first strictly greater one, is the max.
        bestFloat = f64x2.max(bestFloat, f64x2.abs(f64x2.mul(s, f64x2.splat(0.5))));
        // Integer U is 0..255, so its sums are non-negative and |s / 2| is largest where s is.
        bestInt = i32x4.max_s(bestInt, i32x4.add(i32x4.add(i32x4.add(p0, p1), p2), p3));
      }
      const i = <usize>(by * blocksWide + bx);
      store<u8>(out + i, vote(<f64>i32x4.extract_lane(bestInt, 2) / 2, scale, half) ? 1 : 0);
      store<u8>(out + plane + i, vote(<f64>i32x4.extract_lane(bestInt, 3) / 2, scale, half) ? 1 : 0);
      store<u8>(out + 2 * plane + i, vote(f64x2.extract_lane(bestFloat, 0), scale, half) ? 1 : 0);
      store<u8>(out + 3 * plane + i, vote(f64x2.extract_lane(bestFloat, 1), scale, half) ? 1 : 0);
    }
  }
}
