// Studio-swing luma of 8-bit pixels (lumaBytes, lumaBytesRounded and studioLumaPlanesRows in src/internal/luma.ts)
// with the JavaScript arithmetic operation for operation: y = 16 + ((65.481 R + 128.553 G) + 24.966 B) * (1 / 255)
// (grey: 16 + (219 v) * (1 / 255)) in float64, two pixels per f64x2, then y rounded to float32 and floor(y + 0.5).
// The caller copies a chunk of pixels into memory and the results out; pixels are independent, so a chunk is any
// run of them.

import { BLUE, float32x4, GREEN, GREY, greyLuma, INV_255, lanes01, lanes23, pixelLuma, RED, rgbLuma } from './lib/luma';

/** Start of the memory the caller lays out, after this module's static data. */
export function heapBase(): usize {
  return (__heap_base + 15) & ~15;
}

/** floor(y + 0.5) of two f64x2. */
@inline function roundHalfUp(y: v128): v128 {
  return f64x2.floor(f64x2.add(y, f64x2.splat(0.5)));
}

/**
 * floor(y + 0.5) of two f64x2 as four i32 lanes: an integer below 2^32 plus 2^52 is exact and holds the integer in
 * the low 32 bits of its float64, which is cheaper than a saturating conversion.
 */
@inline function rounded4(a: v128, b: v128): v128 {
  const magic = f64x2.splat(4503599627370496);
  return i32x4.shuffle(f64x2.add(roundHalfUp(a), magic), f64x2.add(roundHalfUp(b), magic), 0, 2, 4, 6);
}

// What to write for 16 pixels: luma (float32), rounded luma as bytes, rounded luma as float32.
const LUMA = 1, BYTES = 2, ROUNDED = 4;

/**
 * Byte shuffles that take R, G and B of 4 RGB pixels (12 bytes) to the low byte of four i32 lanes, zeroing the rest
 * (a swizzle index of 0x80 gives 0): one pshufb each, where deinterleaving 16 pixels first takes several per channel.
 */
const RGB_LANES: usize = memory.data<u8>([
  0, 0x80, 0x80, 0x80, 3, 0x80, 0x80, 0x80, 6, 0x80, 0x80, 0x80, 9, 0x80, 0x80, 0x80,
  1, 0x80, 0x80, 0x80, 4, 0x80, 0x80, 0x80, 7, 0x80, 0x80, 0x80, 10, 0x80, 0x80, 0x80,
  2, 0x80, 0x80, 0x80, 5, 0x80, 0x80, 0x80, 8, 0x80, 0x80, 0x80, 11, 0x80, 0x80, 0x80,
], 16);

/**
 * Luma of 4 pixels whose channels are i32x4 lanes: float32 luma and float32 rounded luma stored as `what` asks,
 * rounded luma returned as i32x4 (for bytes).
 */
@inline function write4(r: v128, g: v128, b: v128, isGrey: bool, what: i32, luma: usize, rounded: usize): v128 {
  const inv = f64x2.splat(INV_255), sixteen = f64x2.splat(16), grey = f64x2.splat(GREY);
  const kr = f64x2.splat(RED), kg = f64x2.splat(GREEN), kb = f64x2.splat(BLUE);
  const y01 = isGrey ? greyLuma(lanes01(r), grey, inv, sixteen) : rgbLuma(lanes01(r), lanes01(g), lanes01(b), kr, kg, kb, inv, sixteen);
  const y23 = isGrey ? greyLuma(lanes23(r), grey, inv, sixteen) : rgbLuma(lanes23(r), lanes23(g), lanes23(b), kr, kg, kb, inv, sixteen);
  if (what & LUMA) v128.store(luma, float32x4(y01, y23));
  if (what & ROUNDED) v128.store(rounded, float32x4(roundHalfUp(y01), roundHalfUp(y23)));
  return what & BYTES ? rounded4(y01, y23) : i32x4.splat(0);
}

/** Rounded luma of 16 pixels (four i32x4, 16..235) as bytes. */
@inline function storeBytes(what: i32, bytes: usize, i0: v128, i1: v128, i2: v128, i3: v128): void {
  if (what & BYTES) v128.store(bytes, i8x16.narrow_i16x8_u(i16x8.narrow_i32x4_s(i0, i1), i16x8.narrow_i32x4_s(i2, i3)));
}

/** Channels of 4 RGB pixels at p (a 16-byte load of which 12 are used) to `write4`. */
@inline function rgb4(p: usize, what: i32, luma: usize, rounded: usize): v128 {
  const v = v128.load(p);
  return write4(i8x16.swizzle(v, v128.load(RGB_LANES)), i8x16.swizzle(v, v128.load(RGB_LANES, 16)), i8x16.swizzle(v, v128.load(RGB_LANES, 32)), false, what, luma, rounded);
}

/** Channels of 4 RGBA pixels (16 bytes at p; alpha not used) to `write4`: the channels are bytes of i32 lanes. */
@inline function rgba4(p: usize, what: i32, luma: usize, rounded: usize): v128 {
  const v = v128.load(p), byte = i32x4.splat(255);
  return write4(v128.and(v, byte), v128.and(i32x4.shr_u(v, 8), byte), v128.and(i32x4.shr_u(v, 16), byte), false, what, luma, rounded);
}

/** 16 grey values (bytes) to `write4` four at a time. */
@inline function grey16(v: v128, what: i32, luma: usize, bytes: usize, rounded: usize): void {
  const lo = i16x8.extend_low_i8x16_u(v), hi = i16x8.extend_high_i8x16_u(v);
  const i0 = write4(i32x4.extend_low_i16x8_u(lo), v, v, true, what, luma, rounded);
  const i1 = write4(i32x4.extend_high_i16x8_u(lo), v, v, true, what, luma + 16, rounded + 16);
  const i2 = write4(i32x4.extend_low_i16x8_u(hi), v, v, true, what, luma + 32, rounded + 32);
  const i3 = write4(i32x4.extend_high_i16x8_u(hi), v, v, true, what, luma + 48, rounded + 48);
  storeBytes(what, bytes, i0, i1, i2, i3);
}

/**
 * Luma of `count` pixels of `channels` (1..4) 8-bit samples at `src`: float32 luma to `luma` (when `what` has LUMA),
 * floor(y + 0.5) as bytes to `bytes` (BYTES) and as float32 to `rounded` (ROUNDED). Sixteen pixels per step, the
 * last count % 16 one by one (the RGB loads read 4 bytes past a run's last pixel: the caller leaves room). Inlined into each export, so `what` is a constant there and the unused outputs vanish.
 */
@inline function lumaRun(src: usize, channels: i32, count: i32, what: i32, luma: usize, bytes: usize, rounded: usize): void {
  const vectorEnd = count & ~15;
  const step = <usize>channels << 4;
  let i = 0, p = src;
  if (channels === 3) {
    for (; i < vectorEnd; i += 16, p += step) {
      const l = luma + (<usize>i << 2), r = rounded + (<usize>i << 2);
      storeBytes(what, bytes + <usize>i, rgb4(p, what, l, r), rgb4(p + 12, what, l + 16, r + 16), rgb4(p + 24, what, l + 32, r + 32), rgb4(p + 36, what, l + 48, r + 48));
    }
  } else if (channels === 4) {
    for (; i < vectorEnd; i += 16, p += step) {
      const l = luma + (<usize>i << 2), r = rounded + (<usize>i << 2);
      storeBytes(what, bytes + <usize>i, rgba4(p, what, l, r), rgba4(p + 16, what, l + 16, r + 16), rgba4(p + 32, what, l + 32, r + 32), rgba4(p + 48, what, l + 48, r + 48));
    }
  } else if (channels === 1) {
    for (; i < vectorEnd; i += 16, p += step) grey16(v128.load(p), what, luma + (<usize>i << 2), bytes + <usize>i, rounded + (<usize>i << 2));
  } else {
    for (; i < vectorEnd; i += 16, p += step) {
      const v = i8x16.shuffle(v128.load(p), v128.load(p, 16), 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
      grey16(v, what, luma + (<usize>i << 2), bytes + <usize>i, rounded + (<usize>i << 2));
    }
  }
  for (; i < count; i++, p += <usize>channels) {
    const y = pixelLuma(p, channels);
    if (what & LUMA) store<f32>(luma + (<usize>i << 2), <f32>y);
    if (what & BYTES) store<u8>(bytes + <usize>i, <u8>floor<f64>(y + 0.5));
    if (what & ROUNDED) store<f32>(rounded + (<usize>i << 2), <f32>floor<f64>(y + 0.5));
  }
}

/** lumaBytes: float32 luma of `count` pixels at `src` to `luma`. */
export function lumaFloats(src: usize, channels: i32, count: i32, luma: usize): void {
  lumaRun(src, channels, count, LUMA, luma, 0, 0);
}

/** lumaBytesRounded: floor(y + 0.5) as float32 of `count` pixels at `src` to `rounded`. */
export function roundedFloats(src: usize, channels: i32, count: i32, rounded: usize): void {
  lumaRun(src, channels, count, ROUNDED, 0, 0, rounded);
}

/** studioLumaPlanesRows: float32 luma to `luma` and floor(y + 0.5) as bytes to `bytes`. */
export function planes(src: usize, channels: i32, count: i32, luma: usize, bytes: usize): void {
  lumaRun(src, channels, count, LUMA | BYTES, luma, bytes, 0);
}
