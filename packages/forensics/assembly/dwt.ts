// One level of the db8 analysis behind the wavelet noise map (NOI1), HH1 only, and its block medians: the work of
// `StreamedDetail16` (src/internal/dwt.ts) and of the block loop of `waveletNoiseBand` (src/kernels/waveletNoiseMap.ts)
// over chunks of rows. The caller copies the input rows a chunk reads into a ring of 32 staged rows and reads the
// medians (or, for a block holding a NaN, the coefficients) back; every value equals the JavaScript path's bit for
// bit (test/wasmDwt.test.ts): the same float64 products and sums in the same order, rounded to float32 where the
// JavaScript code stores into a Float32Array.

import { AT_BLUE, AT_GREEN, AT_GREY, AT_HALF, AT_INV_255, AT_RED, AT_SIXTEEN, AT_ZERO, lanes01, lanes23, lumaWeights, pixelLuma, rgbLuma } from './lib/luma';

// Vector constants (these and `lumaWeights()`) are loaded into locals before the loops that use them: V8 rebuilds a
// v128.const at every use inside a loop (several instructions each), while a loaded value stays in a register or is
// one load.

/** Byte shuffles: channel 0 of pixels x, x + 2, x + 1, x + 3 to int32 lanes for 1, 2, 3 and 4 channels (-1: zero). */
const SPREAD = memory.data<i8>([
  0, -1, -1, -1, 2, -1, -1, -1, 1, -1, -1, -1, 3, -1, -1, -1,
  0, -1, -1, -1, 4, -1, -1, -1, 2, -1, -1, -1, 6, -1, -1, -1,
  0, -1, -1, -1, 6, -1, -1, -1, 3, -1, -1, -1, 9, -1, -1, -1,
  0, -1, -1, -1, 8, -1, -1, -1, 4, -1, -1, -1, 12, -1, -1, -1,
], 16);
/** The medians: |x| of float32 bit patterns and +Infinity's bits (int32x4), then 2 and 0.6745 (float64x2). */
const MEDIAN = memory.data<i32>([0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7f800000, 0x7f800000, 0x7f800000, 0x7f800000], 16);
const SIGMA = memory.data<f64>([2, 2, 0.6745, 0.6745], 16);
/**
 * The rounded luma of RGB pixels from integers (`roundedRgb4`): byte shuffles of R and G, and of G and B, of pixels
 * x, x + 2, x + 1, x + 3 into the int16 pairs of their int32 lanes, for 3 channels (offsets 0 and 16) and 4 (32 and
 * 48); their weights (int16x8, offsets 64 and 80); then 1 / 85000, 16.5, 0.5 and 0.499999 (float64x2, `ROUNDED_F64`).
 */
const ROUNDED = memory.data<i8>([
  0, -1, 1, -1, 6, -1, 7, -1, 3, -1, 4, -1, 9, -1, 10, -1,
  1, -1, 2, -1, 7, -1, 8, -1, 4, -1, 5, -1, 10, -1, 11, -1,
  0, -1, 1, -1, 8, -1, 9, -1, 4, -1, 5, -1, 12, -1, 13, -1,
  1, -1, 2, -1, 9, -1, 10, -1, 5, -1, 6, -1, 13, -1, 14, -1,
], 16);
const WEIGHTS16 = memory.data<i16>([21827, 21426, 21827, 21426, 21827, 21426, 21827, 21426, 21425, 8322, 21425, 8322, 21425, 8322, 21425, 8322], 16);
const ROUNDED_F64 = memory.data<f64>([1.0 / 85000.0, 1.0 / 85000.0, 16.5, 16.5, 0.5, 0.5, 0.499999, 0.499999], 16);

/** Staged input rows, keyed by row & 31: a chunk of at most 8 HH rows reads input rows within a span of 30. */
const STAGED: i32 = 32;

// The layout of one band (set by `layout`; one band at a time per thread, so module globals are enough).
let width = 0, height = 0, stride = 0, kind = 0, channels = 0, roundLuma = false, blockSize = 0;
let taps: usize = 0, ringRows: usize = 0, evens: usize = 0, odds: usize = 0, ring: usize = 0, detail: usize = 0;
let stage: usize = 0, stageStride: usize = 0, medians: usize = 0, flags: usize = 0, scratch: usize = 0;

/** Kinds of staged rows: rounded luma as bytes, luma as float32, or 8-bit pixels of `channels` samples. */
const LUMA_BYTES = 0, LUMA_FLOATS = 1, PIXELS = 2;

/**
 * Lays out the memory for a band of an image `w` x `h` whose HH rows keep `keep` coefficients, blocks of `block`
 * coefficients, staged rows of kind `rowKind` (`LUMA_BYTES`, `LUMA_FLOATS` or `PIXELS` of `pixelChannels`, luma
 * rounded when `round`), and returns the bytes of memory it needs (the caller grows the memory, then calls `reset`).
 * Rows of the ring and of the detail have `stride` coefficients: `keep` rounded up to 32 (four blocks of 8), the
 * outputs past `keep` computed from reflected samples and ignored.
 */
export function layout(w: i32, h: i32, keep: i32, block: i32, rowKind: i32, pixelChannels: i32, round: bool): usize {
  width = w; height = h; kind = rowKind; channels = pixelChannels; roundLuma = round; blockSize = block;
  stride = (keep + 31) & ~31;
  const line = <usize>(stride + 16) << 3;
  const sample = rowKind == LUMA_BYTES ? 1 : rowKind == LUMA_FLOATS ? 4 : pixelChannels;
  let at = (__heap_base + 15) & ~(<usize>15);
  taps = at; at += 16 << 3;
  ringRows = at; at += 16 << 2;
  evens = at; at += line;
  odds = at; at += line;
  ring = at; at += <usize>(16 * stride) << 3;
  detail = at; at += <usize>(block * stride) << 2;
  // 16 bytes of slack after every staged row: the vector loads of the last pixels read past it.
  stageStride = (<usize>(w * sample) + 31) & ~(<usize>15);
  stage = at; at += <usize>STAGED * stageStride;
  medians = at; at += <usize>stride << 2;
  flags = at; at += <usize>stride << 2;
  scratch = at; at += block == 8 ? 64 << 4 : <usize>(block * block) << 2;
  return at;
}

/** Forgets the filtered rows of a previous band (after `layout` and growing the memory). */
export function reset(): void {
  for (let s = 0; s < 16; s++) store<i32>(ringRows + (<usize>s << 2), -1);
}

/**
 * Where the caller writes or reads: 0 taps (16 float64), 1 staged rows, 2 their stride in bytes, 3 HH rows, 4 medians,
 * 5 NaN flags; 6 is the stride of the HH rows in coefficients.
 */
export function pointer(part: i32): usize {
  switch (part) {
    case 0: return taps;
    case 1: return stage;
    case 2: return stageStride;
    case 3: return detail;
    case 4: return medians;
    case 5: return flags;
    default: return stride;
  }
}

/** Row or column `i` of a line of `n` samples with half-sample symmetric extension, as `reflectRow`. */
function reflect(i: i32, n: i32): i32 {
  while (i < 0 || i >= n) i = i < 0 ? -i - 1 : 2 * n - 1 - i;
  return i;
}

/** Sample `x` (0 <= x < width) of the staged row at `src` as the float64 the JavaScript line holds. */
function sampleAt(src: usize, x: i32): f64 {
  if (kind == LUMA_BYTES) return <f64>load<u8>(src + <usize>x);
  if (kind == LUMA_FLOATS) return <f64>load<f32>(src + (<usize>x << 2));
  // lumaBytes / lumaBytesRounded.
  const y = pixelLuma(src + <usize>(x * channels), channels);
  return roundLuma ? floor<f64>(y + 0.5) : <f64><f32>y;
}

/**
 * Luma of the pixels of a `PIXELS` row (1 to 4 channels) at `src`, four at a time while whole, into the line (see
 * `buildLine`); returns the first pixel left.
 */
function pixelRun(src: usize): i32 {
  const c = channels;
  // Byte shuffles (`SPREAD`) and weights for RGB, or for grey pixels, whose G and B weigh 0: one loop for every
  // channel count (16 + ((219 v + 0) + 0) * INV_255 is the grey luma).
  const r = v128.load(SPREAD + (<usize>(c - 1) << 4)), g = i32x4.add(r, i32x4.splat(1)), b = i32x4.add(r, i32x4.splat(2));
  const weights = lumaWeights();
  const kr = v128.load(weights + (c >= 3 ? AT_RED : AT_GREY)), kg = v128.load(weights + (c >= 3 ? AT_GREEN : AT_ZERO)), kb = v128.load(weights + (c >= 3 ? AT_BLUE : AT_ZERO));
  const inv = v128.load(weights, AT_INV_255), sixteen = v128.load(weights, AT_SIXTEEN), half = v128.load(weights, AT_HALF);
  const step = <usize>(c << 2);
  let x = 0, p = src, e = evens + 64, o = odds + 64;
  // Rounded luma: floor(y + 0.5); otherwise y rounded to float32 (a Float32Array store).
  if (roundLuma && c >= 3) {
    const rg = v128.load(ROUNDED + (c == 3 ? 0 : 32)), gb = v128.load(ROUNDED + (c == 3 ? 16 : 48));
    const w1 = v128.load(WEIGHTS16), w2 = v128.load(WEIGHTS16, 16);
    const k = v128.load(ROUNDED_F64), offset = v128.load(ROUNDED_F64, 16), mid = v128.load(ROUNDED_F64, 32), near = v128.load(ROUNDED_F64, 48);
    for (; x + 4 <= width; x += 4, p += step, e += 16, o += 16) {
      const v = v128.load(p);
      if (!roundedRgb4(v, rg, gb, w1, w2, k, offset, mid, near, e, o)) {
        const R = i8x16.swizzle(v, r), G = i8x16.swizzle(v, g), B = i8x16.swizzle(v, b);
        v128.store(e, f64x2.floor(f64x2.add(rgbLuma(lanes01(R), lanes01(G), lanes01(B), kr, kg, kb, inv, sixteen), half)));
        v128.store(o, f64x2.floor(f64x2.add(rgbLuma(lanes23(R), lanes23(G), lanes23(B), kr, kg, kb, inv, sixteen), half)));
      }
    }
  } else if (roundLuma) {
    for (; x + 4 <= width; x += 4, p += step, e += 16, o += 16) {
      const v = v128.load(p);
      const R = i8x16.swizzle(v, r), G = i8x16.swizzle(v, g), B = i8x16.swizzle(v, b);
      v128.store(e, f64x2.floor(f64x2.add(rgbLuma(lanes01(R), lanes01(G), lanes01(B), kr, kg, kb, inv, sixteen), half)));
      v128.store(o, f64x2.floor(f64x2.add(rgbLuma(lanes23(R), lanes23(G), lanes23(B), kr, kg, kb, inv, sixteen), half)));
    }
  } else {
    for (; x + 4 <= width; x += 4, p += step, e += 16, o += 16) {
      const v = v128.load(p);
      const R = i8x16.swizzle(v, r), G = i8x16.swizzle(v, g), B = i8x16.swizzle(v, b);
      v128.store(e, f64x2.promote_low_f32x4(f32x4.demote_f64x2_zero(rgbLuma(lanes01(R), lanes01(G), lanes01(B), kr, kg, kb, inv, sixteen))));
      v128.store(o, f64x2.promote_low_f32x4(f32x4.demote_f64x2_zero(rgbLuma(lanes23(R), lanes23(G), lanes23(B), kr, kg, kb, inv, sixteen))));
    }
  }
  return x;
}

/**
 * The rounded luma floor(16 + ((65.481 R + 128.553 G) + 24.966 B) * INV_255 + 0.5) of the four RGB pixels of the 16
 * bytes `v` (shuffled by `rg` and `gb`, see `ROUNDED`), pixels x and x + 2 stored at `e` and x + 1 and x + 3 at `o` as
 * float64, from the exact integer n / 3 = m = 21827 R + 42851 G + 8322 B (two int16 dot products: 42851 G as
 * 21426 G + 21425 G): floor(m * (1 / 85000) + 16.5). The two differ only where y + 0.5 is an integer or within float64
 * rounding of one (m + 42500 a multiple of 85000: the float64 sums then round either way); anywhere else y + 0.5 is
 * at least 1 / 255000 from an integer. Returns false, storing nothing, when a pixel's m * (1 / 85000) + 16.5 is
 * within 1e-6 of an integer (194 of the 2^24 colours): the caller then takes the float64 sums. Checked against
 * `lumaBytesRounded` for every one of the 2^24 colours (test/wasmDwt.test.ts, through `roundedLumaRgb`).
 */
// @ts-ignore: decorator
@inline function roundedRgb4(v: v128, rg: v128, gb: v128, w1: v128, w2: v128, k: v128, offset: v128, mid: v128, near: v128, e: usize, o: usize): bool {
  const n = i32x4.add(i32x4.dot_i16x8_s(i8x16.swizzle(v, rg), w1), i32x4.dot_i16x8_s(i8x16.swizzle(v, gb), w2));
  const te = f64x2.add(f64x2.mul(f64x2.convert_low_i32x4_s(n), k), offset);
  const to = f64x2.add(f64x2.mul(f64x2.convert_low_i32x4_s(i32x4.shuffle(n, n, 2, 3, 2, 3)), k), offset);
  const fe = f64x2.floor(te), fo = f64x2.floor(to);
  // |frac - 0.5| > 0.499999: within 1e-6 of an integer.
  const tie = v128.or(f64x2.gt(f64x2.abs(f64x2.sub(f64x2.sub(te, fe), mid)), near), f64x2.gt(f64x2.abs(f64x2.sub(f64x2.sub(to, fo), mid)), near));
  if (v128.any_true(tie)) return false;
  v128.store(e, fe);
  v128.store(o, fo);
  return true;
}

/**
 * Rounded luma of `count` RGB pixels (`channels` 3 or 4, count a multiple of 4) at `src` as `pixelRun` computes it,
 * into float64 at `dst`: per four pixels x .. x + 3, those of x and x + 2, then x + 1 and x + 3 (a test hook: the
 * module's rounded luma against `lumaBytesRounded` for every colour).
 */
export function roundedLumaRgb(src: usize, channels: i32, count: i32, dst: usize): void {
  const r = v128.load(SPREAD + (<usize>(channels - 1) << 4)), g = i32x4.add(r, i32x4.splat(1)), b = i32x4.add(r, i32x4.splat(2));
  const weights = lumaWeights();
  const kr = v128.load(weights, AT_RED), kg = v128.load(weights, AT_GREEN), kb = v128.load(weights, AT_BLUE);
  const inv = v128.load(weights, AT_INV_255), sixteen = v128.load(weights, AT_SIXTEEN), half = v128.load(weights, AT_HALF);
  const rg = v128.load(ROUNDED + (channels == 3 ? 0 : 32)), gb = v128.load(ROUNDED + (channels == 3 ? 16 : 48));
  const w1 = v128.load(WEIGHTS16), w2 = v128.load(WEIGHTS16, 16);
  const k = v128.load(ROUNDED_F64), offset = v128.load(ROUNDED_F64, 16), mid = v128.load(ROUNDED_F64, 32), near = v128.load(ROUNDED_F64, 48);
  for (let x = 0, p = src, q = dst; x < count; x += 4, p += <usize>(channels << 2), q += 32) {
    const v = v128.load(p);
    if (!roundedRgb4(v, rg, gb, w1, w2, k, offset, mid, near, q, q + 16)) {
      const R = i8x16.swizzle(v, r), G = i8x16.swizzle(v, g), B = i8x16.swizzle(v, b);
      v128.store(q, f64x2.floor(f64x2.add(rgbLuma(lanes01(R), lanes01(G), lanes01(B), kr, kg, kb, inv, sixteen), half)));
      v128.store(q + 16, f64x2.floor(f64x2.add(rgbLuma(lanes23(R), lanes23(G), lanes23(B), kr, kg, kb, inv, sixteen), half)));
    }
  }
}

/**
 * The row of `StreamedDetail16.filtered` split by parity: evens[k] = line[2k] and odds[k] = line[2k + 1], where
 * line[i] is sample i - 16 of the staged row at `src` reflected, for k < stride + 8. Output o of the row filter then
 * reads evens and odds at o + 1 .. o + 8, and two adjacent outputs read adjacent pairs.
 */
function buildLine(src: usize): void {
  let x = 0;
  // Pixels x .. x + 3 go to evens[x / 2 + 8 ..] (x, x + 2) and odds[x / 2 + 8 ..] (x + 1, x + 3).
  if (kind == LUMA_BYTES) {
    const m = v128.load(SPREAD);
    for (; x + 4 <= width; x += 4) {
      const v = i8x16.swizzle(v128.load32_zero(src + <usize>x), m);
      const k = <usize>((x >> 1) + 8) << 3;
      v128.store(evens + k, f64x2.convert_low_i32x4_s(v));
      v128.store(odds + k, f64x2.convert_low_i32x4_s(i32x4.shuffle(v, v, 2, 3, 2, 3)));
    }
  } else if (kind == LUMA_FLOATS) {
    for (; x + 4 <= width; x += 4) {
      const v = v128.load(src + (<usize>x << 2));
      const k = <usize>((x >> 1) + 8) << 3;
      v128.store(evens + k, f64x2.promote_low_f32x4(i32x4.shuffle(v, v, 0, 2, 0, 2)));
      v128.store(odds + k, f64x2.promote_low_f32x4(i32x4.shuffle(v, v, 1, 3, 1, 3)));
    }
  } else if (channels <= 4) {
    x = pixelRun(src);
  }
  for (; x < width; x++) store<f64>((x & 1 ? odds : evens) + (<usize>((x >> 1) + 8) << 3), sampleAt(src, x));
  // The reflected samples outside the row, from the samples inside.
  const end = stride + 8;
  for (let k = 0; k < end; k = k == 7 ? max(8, (width + 14) >> 1) : k + 1) {
    const e = 2 * k - 16, o = e + 1;
    if (e < 0 || e >= width) store<f64>(evens + (<usize>k << 3), lineAt(reflect(e, width)));
    if (o < 0 || o >= width) store<f64>(odds + (<usize>k << 3), lineAt(reflect(o, width)));
  }
}

/** Sample x (inside the row) of the line built by `buildLine`. */
@inline function lineAt(x: i32): f64 {
  return load<f64>((x & 1 ? odds : evens) + (<usize>((x >> 1) + 8) << 3));
}

/**
 * `StreamedDetail16.filtered`: the staged input row `y` filtered along the row into ring slot `slot`, `stride`
 * outputs: out[o] = f0 line[2o + 17] + f1 line[2o + 16] + ... + f15 line[2o + 2], summed in float64 from the left and
 * rounded to float32 (the JavaScript ring is a Float32Array), kept as float64 for the column pass.
 */
function filterRow(y: i32, slot: i32): void {
  buildLine(stage + <usize>(y & (STAGED - 1)) * stageStride);
  const f0 = f64x2.splat(load<f64>(taps, 0)), f1 = f64x2.splat(load<f64>(taps, 8)), f2 = f64x2.splat(load<f64>(taps, 16)), f3 = f64x2.splat(load<f64>(taps, 24));
  const f4 = f64x2.splat(load<f64>(taps, 32)), f5 = f64x2.splat(load<f64>(taps, 40)), f6 = f64x2.splat(load<f64>(taps, 48)), f7 = f64x2.splat(load<f64>(taps, 56));
  const f8 = f64x2.splat(load<f64>(taps, 64)), f9 = f64x2.splat(load<f64>(taps, 72)), f10 = f64x2.splat(load<f64>(taps, 80)), f11 = f64x2.splat(load<f64>(taps, 88));
  const f12 = f64x2.splat(load<f64>(taps, 96)), f13 = f64x2.splat(load<f64>(taps, 104)), f14 = f64x2.splat(load<f64>(taps, 112)), f15 = f64x2.splat(load<f64>(taps, 120));
  let out = ring + (<usize>(slot * stride) << 3);
  // line[2o + 17 - 2m] = odds[o + 8 - m], line[2o + 16 - 2m] = evens[o + 8 - m] (vectors dk, ek at o + k).
  // Outputs o, o + 1 (s) and o + 2, o + 3 (t): t reads at tap 2m + 2 what s reads at tap 2m, loaded once.
  for (let o = 0, d = odds, e = evens; o < stride; o += 4, d += 32, e += 32, out += 32) {
    const d10 = v128.load(d, 80), e10 = v128.load(e, 80), d9 = v128.load(d, 72), e9 = v128.load(e, 72);
    const d8 = v128.load(d, 64), e8 = v128.load(e, 64);
    let s = f64x2.mul(f0, d8), t = f64x2.mul(f0, d10);
    s = f64x2.add(s, f64x2.mul(f1, e8)); t = f64x2.add(t, f64x2.mul(f1, e10));
    const d7 = v128.load(d, 56), e7 = v128.load(e, 56);
    s = f64x2.add(s, f64x2.mul(f2, d7)); t = f64x2.add(t, f64x2.mul(f2, d9));
    s = f64x2.add(s, f64x2.mul(f3, e7)); t = f64x2.add(t, f64x2.mul(f3, e9));
    const d6 = v128.load(d, 48), e6 = v128.load(e, 48);
    s = f64x2.add(s, f64x2.mul(f4, d6)); t = f64x2.add(t, f64x2.mul(f4, d8));
    s = f64x2.add(s, f64x2.mul(f5, e6)); t = f64x2.add(t, f64x2.mul(f5, e8));
    const d5 = v128.load(d, 40), e5 = v128.load(e, 40);
    s = f64x2.add(s, f64x2.mul(f6, d5)); t = f64x2.add(t, f64x2.mul(f6, d7));
    s = f64x2.add(s, f64x2.mul(f7, e5)); t = f64x2.add(t, f64x2.mul(f7, e7));
    const d4 = v128.load(d, 32), e4 = v128.load(e, 32);
    s = f64x2.add(s, f64x2.mul(f8, d4)); t = f64x2.add(t, f64x2.mul(f8, d6));
    s = f64x2.add(s, f64x2.mul(f9, e4)); t = f64x2.add(t, f64x2.mul(f9, e6));
    const d3 = v128.load(d, 24), e3 = v128.load(e, 24);
    s = f64x2.add(s, f64x2.mul(f10, d3)); t = f64x2.add(t, f64x2.mul(f10, d5));
    s = f64x2.add(s, f64x2.mul(f11, e3)); t = f64x2.add(t, f64x2.mul(f11, e5));
    const d2 = v128.load(d, 16), e2 = v128.load(e, 16);
    s = f64x2.add(s, f64x2.mul(f12, d2)); t = f64x2.add(t, f64x2.mul(f12, d4));
    s = f64x2.add(s, f64x2.mul(f13, e2)); t = f64x2.add(t, f64x2.mul(f13, e4));
    const d1 = v128.load(d, 8), e1 = v128.load(e, 8);
    s = f64x2.add(s, f64x2.mul(f14, d1)); t = f64x2.add(t, f64x2.mul(f14, d3));
    s = f64x2.add(s, f64x2.mul(f15, e1)); t = f64x2.add(t, f64x2.mul(f15, e3));
    v128.store(out, f64x2.promote_low_f32x4(f32x4.demote_f64x2_zero(s)));
    v128.store(out, f64x2.promote_low_f32x4(f32x4.demote_f64x2_zero(t)), 16);
  }
}

/** Ring slot address of input row `y`, filtering the staged row into it first when the slot holds another row. */
@inline function filtered(y: i32): usize {
  const slot = y & 15, at = ringRows + (<usize>slot << 2);
  if (load<i32>(at) != y) {
    filterRow(y, slot);
    store<i32>(at, y);
  }
  return ring + (<usize>(slot * stride) << 3);
}

/**
 * HH rows o0 .. o0 + count - 1 (count <= 8) into detail rows at .. at + count - 1 (`StreamedDetail16.detailRow`):
 * out[x] = f0 p0[x] + ... + f15 p15[x] over the ring rows of input rows 2o + 1 - j reflected, summed in float64 from
 * the left and rounded to float32. The caller has staged every input row 2 o0 - 14 .. 2 (o0 + count) - 1 (reflected).
 */
export function detailRows(o0: i32, count: i32, at: i32): void {
  const f0 = f64x2.splat(load<f64>(taps, 0)), f1 = f64x2.splat(load<f64>(taps, 8)), f2 = f64x2.splat(load<f64>(taps, 16)), f3 = f64x2.splat(load<f64>(taps, 24));
  const f4 = f64x2.splat(load<f64>(taps, 32)), f5 = f64x2.splat(load<f64>(taps, 40)), f6 = f64x2.splat(load<f64>(taps, 48)), f7 = f64x2.splat(load<f64>(taps, 56));
  const f8 = f64x2.splat(load<f64>(taps, 64)), f9 = f64x2.splat(load<f64>(taps, 72)), f10 = f64x2.splat(load<f64>(taps, 80)), f11 = f64x2.splat(load<f64>(taps, 88));
  const f12 = f64x2.splat(load<f64>(taps, 96)), f13 = f64x2.splat(load<f64>(taps, 104)), f14 = f64x2.splat(load<f64>(taps, 112)), f15 = f64x2.splat(load<f64>(taps, 120));
  for (let o = o0; o < o0 + count; o++) {
    const top = 2 * o + 1;
    const p0 = filtered(reflect(top, height)), p1 = filtered(reflect(top - 1, height)), p2 = filtered(reflect(top - 2, height));
    const p3 = filtered(reflect(top - 3, height)), p4 = filtered(reflect(top - 4, height)), p5 = filtered(reflect(top - 5, height));
    const p6 = filtered(reflect(top - 6, height)), p7 = filtered(reflect(top - 7, height)), p8 = filtered(reflect(top - 8, height));
    const p9 = filtered(reflect(top - 9, height)), p10 = filtered(reflect(top - 10, height)), p11 = filtered(reflect(top - 11, height));
    const p12 = filtered(reflect(top - 12, height)), p13 = filtered(reflect(top - 13, height)), p14 = filtered(reflect(top - 14, height));
    const p15 = filtered(reflect(top - 15, height));
    let out = detail + (<usize>((at + o - o0) * stride) << 2);
    for (let q: usize = 0, end = <usize>stride << 3; q < end; q += 32, out += 16) {
      let s = f64x2.mul(f0, v128.load(p0 + q)), t = f64x2.mul(f0, v128.load(p0 + q, 16));
      s = f64x2.add(s, f64x2.mul(f1, v128.load(p1 + q))); t = f64x2.add(t, f64x2.mul(f1, v128.load(p1 + q, 16)));
      s = f64x2.add(s, f64x2.mul(f2, v128.load(p2 + q))); t = f64x2.add(t, f64x2.mul(f2, v128.load(p2 + q, 16)));
      s = f64x2.add(s, f64x2.mul(f3, v128.load(p3 + q))); t = f64x2.add(t, f64x2.mul(f3, v128.load(p3 + q, 16)));
      s = f64x2.add(s, f64x2.mul(f4, v128.load(p4 + q))); t = f64x2.add(t, f64x2.mul(f4, v128.load(p4 + q, 16)));
      s = f64x2.add(s, f64x2.mul(f5, v128.load(p5 + q))); t = f64x2.add(t, f64x2.mul(f5, v128.load(p5 + q, 16)));
      s = f64x2.add(s, f64x2.mul(f6, v128.load(p6 + q))); t = f64x2.add(t, f64x2.mul(f6, v128.load(p6 + q, 16)));
      s = f64x2.add(s, f64x2.mul(f7, v128.load(p7 + q))); t = f64x2.add(t, f64x2.mul(f7, v128.load(p7 + q, 16)));
      s = f64x2.add(s, f64x2.mul(f8, v128.load(p8 + q))); t = f64x2.add(t, f64x2.mul(f8, v128.load(p8 + q, 16)));
      s = f64x2.add(s, f64x2.mul(f9, v128.load(p9 + q))); t = f64x2.add(t, f64x2.mul(f9, v128.load(p9 + q, 16)));
      s = f64x2.add(s, f64x2.mul(f10, v128.load(p10 + q))); t = f64x2.add(t, f64x2.mul(f10, v128.load(p10 + q, 16)));
      s = f64x2.add(s, f64x2.mul(f11, v128.load(p11 + q))); t = f64x2.add(t, f64x2.mul(f11, v128.load(p11 + q, 16)));
      s = f64x2.add(s, f64x2.mul(f12, v128.load(p12 + q))); t = f64x2.add(t, f64x2.mul(f12, v128.load(p12 + q, 16)));
      s = f64x2.add(s, f64x2.mul(f13, v128.load(p13 + q))); t = f64x2.add(t, f64x2.mul(f13, v128.load(p13 + q, 16)));
      s = f64x2.add(s, f64x2.mul(f14, v128.load(p14 + q))); t = f64x2.add(t, f64x2.mul(f14, v128.load(p14 + q, 16)));
      s = f64x2.add(s, f64x2.mul(f15, v128.load(p15 + q))); t = f64x2.add(t, f64x2.mul(f15, v128.load(p15 + q, 16)));
      v128.store(out, i32x4.shuffle(f32x4.demote_f64x2_zero(s), f32x4.demote_f64x2_zero(t), 0, 1, 4, 5));
    }
  }
}

/**
 * The noise sigma of `blocks` blocks of `blockSize` x `blockSize` HH coefficients in the detail rows:
 * median(|HH|) / 0.6745 as float32 into `medians`, as `waveletNoiseBand` with `medianOfNonNegativeBits`. A block
 * holding a NaN gets flag -1 in `flags` (its median is left to the caller's comparison-based one) and the count of
 * such blocks is returned.
 */
export function blockMedians(blocks: i32): i32 {
  return blockSize == 8 ? medians8(blocks) : mediansAnySize(blocks);
}

/** |HH| of block `bx` as float32 bit patterns into `scratch`; whether one of them is a NaN (above +Infinity's). */
function gatherBlock(bx: i32): bool {
  const B = blockSize;
  let top = 0;
  for (let v = 0, n: usize = 0; v < B; v++) {
    const row = detail + (<usize>(v * stride + bx * B) << 2);
    for (let u = 0; u < B; u++, n += 4) {
      const b = load<i32>(row + (<usize>u << 2)) & 0x7fffffff;
      top = max(top, b);
      store<i32>(scratch + n, b);
    }
  }
  return top > 0x7f800000;
}

function mediansAnySize(blocks: i32): i32 {
  const n = blockSize * blockSize;
  let nan = 0;
  for (let bx = 0; bx < blocks; bx++) {
    if (gatherBlock(bx)) {
      store<i32>(flags + (<usize>bx << 2), -1);
      nan++;
      continue;
    }
    store<i32>(flags + (<usize>bx << 2), 0);
    const upper = selectBits(n, n >> 1);
    const hi = <f64>load<f32>(scratch + (<usize>upper << 2));
    let m = hi;
    if ((n & 1) == 0) {
      // Everything before the upper middle's index is <= it; the lower middle is their maximum.
      let lower = 0;
      for (let i = 0; i < upper; i++) lower = max(lower, load<i32>(scratch + (<usize>i << 2)));
      m = (<f64>reinterpret<f32>(lower) + hi) / 2;
    }
    store<f32>(medians + (<usize>bx << 2), <f32>(m / 0.6745));
  }
  return nan;
}

/** Index (always `k`) of the k-th smallest of the n int32 at `scratch` after a partial sort (`selectBits` of stats.ts). */
function selectBits(n: i32, k: i32): i32 {
  const v = scratch;
  let lo = 0, hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const pivot = load<i32>(v + (<usize>mid << 2));
    store<i32>(v + (<usize>mid << 2), load<i32>(v + (<usize>hi << 2)));
    store<i32>(v + (<usize>hi << 2), pivot);
    let at = lo;
    for (let i = lo; i < hi; i++) {
      const x = load<i32>(v + (<usize>i << 2));
      store<i32>(v + (<usize>i << 2), load<i32>(v + (<usize>at << 2)));
      store<i32>(v + (<usize>at << 2), x);
      at += <i32>(<u32>(x - pivot) >>> 31);
    }
    store<i32>(v + (<usize>hi << 2), load<i32>(v + (<usize>at << 2)));
    store<i32>(v + (<usize>at << 2), pivot);
    if (at == k) return k;
    if (at > k) { hi = at - 1; continue; }
    // Split the values equal to the pivot off the right part: [at + 1, equalEnd) == pivot.
    let equalEnd = at + 1;
    for (let i = at + 1; i <= hi; i++) {
      const x = load<i32>(v + (<usize>i << 2));
      store<i32>(v + (<usize>i << 2), load<i32>(v + (<usize>equalEnd << 2)));
      store<i32>(v + (<usize>equalEnd << 2), x);
      equalEnd += <i32>(<u32>(x - pivot - 1) >>> 31);
    }
    if (k < equalEnd) return k;
    lo = equalEnd;
  }
  return k;
}

@inline function lo(a: v128, b: v128): v128 {
  return i32x4.min_s(a, b);
}

@inline function hi(a: v128, b: v128): v128 {
  return i32x4.max_s(a, b);
}

/**
 * Blocks of 8 x 8, four at a time, one per int32 lane: the 64 |HH| bit patterns of each block spread over 64
 * vectors (lane l from block g + l, in any order, the median does not depend on it), then the comparators of
 * Batcher's odd-even merge sort of 64 that lead to ranks 31, 32 and 63 (445 of its 543; a comparator whose output
 * is not needed keeps only the other half). Rank 31 and 32 are the lower and upper middles, rank 63 the largest
 * (above +Infinity's bits: a NaN). Lanes of blocks past `blocks` work on coefficients past the row's end, ignored.
 */
function medians8(blocks: i32): i32 {
  const mask = v128.load(MEDIAN), infinity = v128.load(MEDIAN, 16), two = v128.load(SIGMA), scale = v128.load(SIGMA, 16);
  let nan = 0;
  for (let g = 0; g < blocks; g += 4) {
    // Row v, half h of blocks g .. g + 3 (vectors V0 .. V3): W0 = [V0.0, V1.1, V2.2, V3.3], W1 = [V0.2, V1.3,
    // V2.0, V3.1], W2 = [V0.1, V1.0, V2.3, V3.2], W3 = [V0.3, V1.2, V2.1, V3.0].
    for (let v = 0, s = scratch; v < 8; v++) {
      for (let h = 0; h < 2; h++, s += 64) {
        const p = detail + (<usize>(v * stride + g * 8 + h * 4) << 2);
        const V0 = v128.and(v128.load(p), mask), V1 = v128.and(v128.load(p, 32), mask);
        const V2 = v128.and(v128.load(p, 64), mask), V3 = v128.and(v128.load(p, 96), mask);
        const A = i32x4.shuffle(V0, V1, 0, 5, 2, 7), B = i32x4.shuffle(V0, V1, 1, 4, 3, 6);
        const C = i32x4.shuffle(V2, V3, 0, 5, 2, 7), D = i32x4.shuffle(V2, V3, 1, 4, 3, 6);
        v128.store(s, i32x4.shuffle(A, C, 0, 1, 6, 7));
        v128.store(s, i32x4.shuffle(A, C, 2, 3, 4, 5), 16);
        v128.store(s, i32x4.shuffle(B, D, 0, 1, 6, 7), 32);
        v128.store(s, i32x4.shuffle(B, D, 2, 3, 4, 5), 48);
      }
    }
    let a0 = v128.load(scratch, 0), a1 = v128.load(scratch, 16), a2 = v128.load(scratch, 32), a3 = v128.load(scratch, 48);
    let a4 = v128.load(scratch, 64), a5 = v128.load(scratch, 80), a6 = v128.load(scratch, 96), a7 = v128.load(scratch, 112);
    let a8 = v128.load(scratch, 128), a9 = v128.load(scratch, 144), a10 = v128.load(scratch, 160), a11 = v128.load(scratch, 176);
    let a12 = v128.load(scratch, 192), a13 = v128.load(scratch, 208), a14 = v128.load(scratch, 224), a15 = v128.load(scratch, 240);
    let a16 = v128.load(scratch, 256), a17 = v128.load(scratch, 272), a18 = v128.load(scratch, 288), a19 = v128.load(scratch, 304);
    let a20 = v128.load(scratch, 320), a21 = v128.load(scratch, 336), a22 = v128.load(scratch, 352), a23 = v128.load(scratch, 368);
    let a24 = v128.load(scratch, 384), a25 = v128.load(scratch, 400), a26 = v128.load(scratch, 416), a27 = v128.load(scratch, 432);
    let a28 = v128.load(scratch, 448), a29 = v128.load(scratch, 464), a30 = v128.load(scratch, 480), a31 = v128.load(scratch, 496);
    let a32 = v128.load(scratch, 512), a33 = v128.load(scratch, 528), a34 = v128.load(scratch, 544), a35 = v128.load(scratch, 560);
    let a36 = v128.load(scratch, 576), a37 = v128.load(scratch, 592), a38 = v128.load(scratch, 608), a39 = v128.load(scratch, 624);
    let a40 = v128.load(scratch, 640), a41 = v128.load(scratch, 656), a42 = v128.load(scratch, 672), a43 = v128.load(scratch, 688);
    let a44 = v128.load(scratch, 704), a45 = v128.load(scratch, 720), a46 = v128.load(scratch, 736), a47 = v128.load(scratch, 752);
    let a48 = v128.load(scratch, 768), a49 = v128.load(scratch, 784), a50 = v128.load(scratch, 800), a51 = v128.load(scratch, 816);
    let a52 = v128.load(scratch, 832), a53 = v128.load(scratch, 848), a54 = v128.load(scratch, 864), a55 = v128.load(scratch, 880);
    let a56 = v128.load(scratch, 896), a57 = v128.load(scratch, 912), a58 = v128.load(scratch, 928), a59 = v128.load(scratch, 944);
    let a60 = v128.load(scratch, 960), a61 = v128.load(scratch, 976), a62 = v128.load(scratch, 992), a63 = v128.load(scratch, 1008);
    let t: v128;
    t = lo(a0, a1); a1 = hi(a0, a1); a0 = t; t = lo(a2, a3); a3 = hi(a2, a3); a2 = t;
    t = lo(a0, a2); a2 = hi(a0, a2); a0 = t; t = lo(a1, a3); a3 = hi(a1, a3); a1 = t;
    t = lo(a1, a2); a2 = hi(a1, a2); a1 = t; t = lo(a4, a5); a5 = hi(a4, a5); a4 = t;
    t = lo(a6, a7); a7 = hi(a6, a7); a6 = t; t = lo(a4, a6); a6 = hi(a4, a6); a4 = t;
    t = lo(a5, a7); a7 = hi(a5, a7); a5 = t; t = lo(a5, a6); a6 = hi(a5, a6); a5 = t;
    t = lo(a0, a4); a4 = hi(a0, a4); a0 = t; t = lo(a2, a6); a6 = hi(a2, a6); a2 = t;
    t = lo(a2, a4); a4 = hi(a2, a4); a2 = t; t = lo(a1, a5); a5 = hi(a1, a5); a1 = t;
    t = lo(a3, a7); a7 = hi(a3, a7); a3 = t; t = lo(a3, a5); a5 = hi(a3, a5); a3 = t;
    t = lo(a1, a2); a2 = hi(a1, a2); a1 = t; t = lo(a3, a4); a4 = hi(a3, a4); a3 = t;
    t = lo(a5, a6); a6 = hi(a5, a6); a5 = t; t = lo(a8, a9); a9 = hi(a8, a9); a8 = t;
    t = lo(a10, a11); a11 = hi(a10, a11); a10 = t; t = lo(a8, a10); a10 = hi(a8, a10); a8 = t;
    t = lo(a9, a11); a11 = hi(a9, a11); a9 = t; t = lo(a9, a10); a10 = hi(a9, a10); a9 = t;
    t = lo(a12, a13); a13 = hi(a12, a13); a12 = t; t = lo(a14, a15); a15 = hi(a14, a15); a14 = t;
    t = lo(a12, a14); a14 = hi(a12, a14); a12 = t; t = lo(a13, a15); a15 = hi(a13, a15); a13 = t;
    t = lo(a13, a14); a14 = hi(a13, a14); a13 = t; t = lo(a8, a12); a12 = hi(a8, a12); a8 = t;
    t = lo(a10, a14); a14 = hi(a10, a14); a10 = t; t = lo(a10, a12); a12 = hi(a10, a12); a10 = t;
    t = lo(a9, a13); a13 = hi(a9, a13); a9 = t; t = lo(a11, a15); a15 = hi(a11, a15); a11 = t;
    t = lo(a11, a13); a13 = hi(a11, a13); a11 = t; t = lo(a9, a10); a10 = hi(a9, a10); a9 = t;
    t = lo(a11, a12); a12 = hi(a11, a12); a11 = t; t = lo(a13, a14); a14 = hi(a13, a14); a13 = t;
    t = lo(a0, a8); a8 = hi(a0, a8); a0 = t; t = lo(a4, a12); a12 = hi(a4, a12); a4 = t;
    t = lo(a4, a8); a8 = hi(a4, a8); a4 = t; t = lo(a2, a10); a10 = hi(a2, a10); a2 = t;
    t = lo(a6, a14); a14 = hi(a6, a14); a6 = t; t = lo(a6, a10); a10 = hi(a6, a10); a6 = t;
    t = lo(a2, a4); a4 = hi(a2, a4); a2 = t; t = lo(a6, a8); a8 = hi(a6, a8); a6 = t;
    t = lo(a10, a12); a12 = hi(a10, a12); a10 = t; t = lo(a1, a9); a9 = hi(a1, a9); a1 = t;
    t = lo(a5, a13); a13 = hi(a5, a13); a5 = t; t = lo(a5, a9); a9 = hi(a5, a9); a5 = t;
    t = lo(a3, a11); a11 = hi(a3, a11); a3 = t; t = lo(a7, a15); a15 = hi(a7, a15); a7 = t;
    t = lo(a7, a11); a11 = hi(a7, a11); a7 = t; t = lo(a3, a5); a5 = hi(a3, a5); a3 = t;
    t = lo(a7, a9); a9 = hi(a7, a9); a7 = t; t = lo(a11, a13); a13 = hi(a11, a13); a11 = t;
    t = lo(a1, a2); a2 = hi(a1, a2); a1 = t; t = lo(a3, a4); a4 = hi(a3, a4); a3 = t;
    t = lo(a5, a6); a6 = hi(a5, a6); a5 = t; t = lo(a7, a8); a8 = hi(a7, a8); a7 = t;
    t = lo(a9, a10); a10 = hi(a9, a10); a9 = t; t = lo(a11, a12); a12 = hi(a11, a12); a11 = t;
    t = lo(a13, a14); a14 = hi(a13, a14); a13 = t; t = lo(a16, a17); a17 = hi(a16, a17); a16 = t;
    t = lo(a18, a19); a19 = hi(a18, a19); a18 = t; t = lo(a16, a18); a18 = hi(a16, a18); a16 = t;
    t = lo(a17, a19); a19 = hi(a17, a19); a17 = t; t = lo(a17, a18); a18 = hi(a17, a18); a17 = t;
    t = lo(a20, a21); a21 = hi(a20, a21); a20 = t; t = lo(a22, a23); a23 = hi(a22, a23); a22 = t;
    t = lo(a20, a22); a22 = hi(a20, a22); a20 = t; t = lo(a21, a23); a23 = hi(a21, a23); a21 = t;
    t = lo(a21, a22); a22 = hi(a21, a22); a21 = t; t = lo(a16, a20); a20 = hi(a16, a20); a16 = t;
    t = lo(a18, a22); a22 = hi(a18, a22); a18 = t; t = lo(a18, a20); a20 = hi(a18, a20); a18 = t;
    t = lo(a17, a21); a21 = hi(a17, a21); a17 = t; t = lo(a19, a23); a23 = hi(a19, a23); a19 = t;
    t = lo(a19, a21); a21 = hi(a19, a21); a19 = t; t = lo(a17, a18); a18 = hi(a17, a18); a17 = t;
    t = lo(a19, a20); a20 = hi(a19, a20); a19 = t; t = lo(a21, a22); a22 = hi(a21, a22); a21 = t;
    t = lo(a24, a25); a25 = hi(a24, a25); a24 = t; t = lo(a26, a27); a27 = hi(a26, a27); a26 = t;
    t = lo(a24, a26); a26 = hi(a24, a26); a24 = t; t = lo(a25, a27); a27 = hi(a25, a27); a25 = t;
    t = lo(a25, a26); a26 = hi(a25, a26); a25 = t; t = lo(a28, a29); a29 = hi(a28, a29); a28 = t;
    t = lo(a30, a31); a31 = hi(a30, a31); a30 = t; t = lo(a28, a30); a30 = hi(a28, a30); a28 = t;
    t = lo(a29, a31); a31 = hi(a29, a31); a29 = t; t = lo(a29, a30); a30 = hi(a29, a30); a29 = t;
    t = lo(a24, a28); a28 = hi(a24, a28); a24 = t; t = lo(a26, a30); a30 = hi(a26, a30); a26 = t;
    t = lo(a26, a28); a28 = hi(a26, a28); a26 = t; t = lo(a25, a29); a29 = hi(a25, a29); a25 = t;
    t = lo(a27, a31); a31 = hi(a27, a31); a27 = t; t = lo(a27, a29); a29 = hi(a27, a29); a27 = t;
    t = lo(a25, a26); a26 = hi(a25, a26); a25 = t; t = lo(a27, a28); a28 = hi(a27, a28); a27 = t;
    t = lo(a29, a30); a30 = hi(a29, a30); a29 = t; t = lo(a16, a24); a24 = hi(a16, a24); a16 = t;
    t = lo(a20, a28); a28 = hi(a20, a28); a20 = t; t = lo(a20, a24); a24 = hi(a20, a24); a20 = t;
    t = lo(a18, a26); a26 = hi(a18, a26); a18 = t; t = lo(a22, a30); a30 = hi(a22, a30); a22 = t;
    t = lo(a22, a26); a26 = hi(a22, a26); a22 = t; t = lo(a18, a20); a20 = hi(a18, a20); a18 = t;
    t = lo(a22, a24); a24 = hi(a22, a24); a22 = t; t = lo(a26, a28); a28 = hi(a26, a28); a26 = t;
    t = lo(a17, a25); a25 = hi(a17, a25); a17 = t; t = lo(a21, a29); a29 = hi(a21, a29); a21 = t;
    t = lo(a21, a25); a25 = hi(a21, a25); a21 = t; t = lo(a19, a27); a27 = hi(a19, a27); a19 = t;
    t = lo(a23, a31); a31 = hi(a23, a31); a23 = t; t = lo(a23, a27); a27 = hi(a23, a27); a23 = t;
    t = lo(a19, a21); a21 = hi(a19, a21); a19 = t; t = lo(a23, a25); a25 = hi(a23, a25); a23 = t;
    t = lo(a27, a29); a29 = hi(a27, a29); a27 = t; t = lo(a17, a18); a18 = hi(a17, a18); a17 = t;
    t = lo(a19, a20); a20 = hi(a19, a20); a19 = t; t = lo(a21, a22); a22 = hi(a21, a22); a21 = t;
    t = lo(a23, a24); a24 = hi(a23, a24); a23 = t; t = lo(a25, a26); a26 = hi(a25, a26); a25 = t;
    t = lo(a27, a28); a28 = hi(a27, a28); a27 = t; t = lo(a29, a30); a30 = hi(a29, a30); a29 = t;
    t = lo(a0, a16); a16 = hi(a0, a16); a0 = t; t = lo(a8, a24); a24 = hi(a8, a24); a8 = t;
    t = lo(a8, a16); a16 = hi(a8, a16); a8 = t; t = lo(a4, a20); a20 = hi(a4, a20); a4 = t;
    t = lo(a12, a28); a28 = hi(a12, a28); a12 = t; t = lo(a12, a20); a20 = hi(a12, a20); a12 = t;
    t = lo(a4, a8); a8 = hi(a4, a8); a4 = t; t = lo(a12, a16); a16 = hi(a12, a16); a12 = t;
    t = lo(a20, a24); a24 = hi(a20, a24); a20 = t; t = lo(a2, a18); a18 = hi(a2, a18); a2 = t;
    t = lo(a10, a26); a26 = hi(a10, a26); a10 = t; t = lo(a10, a18); a18 = hi(a10, a18); a10 = t;
    t = lo(a6, a22); a22 = hi(a6, a22); a6 = t; t = lo(a14, a30); a30 = hi(a14, a30); a14 = t;
    t = lo(a14, a22); a22 = hi(a14, a22); a14 = t; t = lo(a6, a10); a10 = hi(a6, a10); a6 = t;
    t = lo(a14, a18); a18 = hi(a14, a18); a14 = t; t = lo(a22, a26); a26 = hi(a22, a26); a22 = t;
    t = lo(a2, a4); a4 = hi(a2, a4); a2 = t; t = lo(a6, a8); a8 = hi(a6, a8); a6 = t;
    t = lo(a10, a12); a12 = hi(a10, a12); a10 = t; t = lo(a14, a16); a16 = hi(a14, a16); a14 = t;
    t = lo(a18, a20); a20 = hi(a18, a20); a18 = t; t = lo(a22, a24); a24 = hi(a22, a24); a22 = t;
    t = lo(a26, a28); a28 = hi(a26, a28); a26 = t; t = lo(a1, a17); a17 = hi(a1, a17); a1 = t;
    t = lo(a9, a25); a25 = hi(a9, a25); a9 = t; t = lo(a9, a17); a17 = hi(a9, a17); a9 = t;
    t = lo(a5, a21); a21 = hi(a5, a21); a5 = t; t = lo(a13, a29); a29 = hi(a13, a29); a13 = t;
    t = lo(a13, a21); a21 = hi(a13, a21); a13 = t; t = lo(a5, a9); a9 = hi(a5, a9); a5 = t;
    t = lo(a13, a17); a17 = hi(a13, a17); a13 = t; t = lo(a21, a25); a25 = hi(a21, a25); a21 = t;
    t = lo(a3, a19); a19 = hi(a3, a19); a3 = t; t = lo(a11, a27); a27 = hi(a11, a27); a11 = t;
    t = lo(a11, a19); a19 = hi(a11, a19); a11 = t; t = lo(a7, a23); a23 = hi(a7, a23); a7 = t;
    t = lo(a15, a31); a31 = hi(a15, a31); a15 = t; t = lo(a15, a23); a23 = hi(a15, a23); a15 = t;
    t = lo(a7, a11); a11 = hi(a7, a11); a7 = t; t = lo(a15, a19); a19 = hi(a15, a19); a15 = t;
    t = lo(a23, a27); a27 = hi(a23, a27); a23 = t; t = lo(a3, a5); a5 = hi(a3, a5); a3 = t;
    t = lo(a7, a9); a9 = hi(a7, a9); a7 = t; t = lo(a11, a13); a13 = hi(a11, a13); a11 = t;
    t = lo(a15, a17); a17 = hi(a15, a17); a15 = t; t = lo(a19, a21); a21 = hi(a19, a21); a19 = t;
    t = lo(a23, a25); a25 = hi(a23, a25); a23 = t; t = lo(a27, a29); a29 = hi(a27, a29); a27 = t;
    t = lo(a1, a2); a2 = hi(a1, a2); a1 = t; t = lo(a3, a4); a4 = hi(a3, a4); a3 = t;
    t = lo(a5, a6); a6 = hi(a5, a6); a5 = t; t = lo(a7, a8); a8 = hi(a7, a8); a7 = t;
    t = lo(a9, a10); a10 = hi(a9, a10); a9 = t; t = lo(a11, a12); a12 = hi(a11, a12); a11 = t;
    t = lo(a13, a14); a14 = hi(a13, a14); a13 = t; t = lo(a15, a16); a16 = hi(a15, a16); a15 = t;
    t = lo(a17, a18); a18 = hi(a17, a18); a17 = t; t = lo(a19, a20); a20 = hi(a19, a20); a19 = t;
    t = lo(a21, a22); a22 = hi(a21, a22); a21 = t; t = lo(a23, a24); a24 = hi(a23, a24); a23 = t;
    t = lo(a25, a26); a26 = hi(a25, a26); a25 = t; t = lo(a27, a28); a28 = hi(a27, a28); a27 = t;
    t = lo(a29, a30); a30 = hi(a29, a30); a29 = t; t = lo(a32, a33); a33 = hi(a32, a33); a32 = t;
    t = lo(a34, a35); a35 = hi(a34, a35); a34 = t; t = lo(a32, a34); a34 = hi(a32, a34); a32 = t;
    t = lo(a33, a35); a35 = hi(a33, a35); a33 = t; t = lo(a33, a34); a34 = hi(a33, a34); a33 = t;
    t = lo(a36, a37); a37 = hi(a36, a37); a36 = t; t = lo(a38, a39); a39 = hi(a38, a39); a38 = t;
    t = lo(a36, a38); a38 = hi(a36, a38); a36 = t; t = lo(a37, a39); a39 = hi(a37, a39); a37 = t;
    t = lo(a37, a38); a38 = hi(a37, a38); a37 = t; t = lo(a32, a36); a36 = hi(a32, a36); a32 = t;
    t = lo(a34, a38); a38 = hi(a34, a38); a34 = t; t = lo(a34, a36); a36 = hi(a34, a36); a34 = t;
    t = lo(a33, a37); a37 = hi(a33, a37); a33 = t; t = lo(a35, a39); a39 = hi(a35, a39); a35 = t;
    t = lo(a35, a37); a37 = hi(a35, a37); a35 = t; t = lo(a33, a34); a34 = hi(a33, a34); a33 = t;
    t = lo(a35, a36); a36 = hi(a35, a36); a35 = t; t = lo(a37, a38); a38 = hi(a37, a38); a37 = t;
    t = lo(a40, a41); a41 = hi(a40, a41); a40 = t; t = lo(a42, a43); a43 = hi(a42, a43); a42 = t;
    t = lo(a40, a42); a42 = hi(a40, a42); a40 = t; t = lo(a41, a43); a43 = hi(a41, a43); a41 = t;
    t = lo(a41, a42); a42 = hi(a41, a42); a41 = t; t = lo(a44, a45); a45 = hi(a44, a45); a44 = t;
    t = lo(a46, a47); a47 = hi(a46, a47); a46 = t; t = lo(a44, a46); a46 = hi(a44, a46); a44 = t;
    t = lo(a45, a47); a47 = hi(a45, a47); a45 = t; t = lo(a45, a46); a46 = hi(a45, a46); a45 = t;
    t = lo(a40, a44); a44 = hi(a40, a44); a40 = t; t = lo(a42, a46); a46 = hi(a42, a46); a42 = t;
    t = lo(a42, a44); a44 = hi(a42, a44); a42 = t; t = lo(a41, a45); a45 = hi(a41, a45); a41 = t;
    t = lo(a43, a47); a47 = hi(a43, a47); a43 = t; t = lo(a43, a45); a45 = hi(a43, a45); a43 = t;
    t = lo(a41, a42); a42 = hi(a41, a42); a41 = t; t = lo(a43, a44); a44 = hi(a43, a44); a43 = t;
    t = lo(a45, a46); a46 = hi(a45, a46); a45 = t; t = lo(a32, a40); a40 = hi(a32, a40); a32 = t;
    t = lo(a36, a44); a44 = hi(a36, a44); a36 = t; t = lo(a36, a40); a40 = hi(a36, a40); a36 = t;
    t = lo(a34, a42); a42 = hi(a34, a42); a34 = t; t = lo(a38, a46); a46 = hi(a38, a46); a38 = t;
    t = lo(a38, a42); a42 = hi(a38, a42); a38 = t; t = lo(a34, a36); a36 = hi(a34, a36); a34 = t;
    t = lo(a38, a40); a40 = hi(a38, a40); a38 = t; t = lo(a42, a44); a44 = hi(a42, a44); a42 = t;
    t = lo(a33, a41); a41 = hi(a33, a41); a33 = t; t = lo(a37, a45); a45 = hi(a37, a45); a37 = t;
    t = lo(a37, a41); a41 = hi(a37, a41); a37 = t; t = lo(a35, a43); a43 = hi(a35, a43); a35 = t;
    t = lo(a39, a47); a47 = hi(a39, a47); a39 = t; t = lo(a39, a43); a43 = hi(a39, a43); a39 = t;
    t = lo(a35, a37); a37 = hi(a35, a37); a35 = t; t = lo(a39, a41); a41 = hi(a39, a41); a39 = t;
    t = lo(a43, a45); a45 = hi(a43, a45); a43 = t; t = lo(a33, a34); a34 = hi(a33, a34); a33 = t;
    t = lo(a35, a36); a36 = hi(a35, a36); a35 = t; t = lo(a37, a38); a38 = hi(a37, a38); a37 = t;
    t = lo(a39, a40); a40 = hi(a39, a40); a39 = t; t = lo(a41, a42); a42 = hi(a41, a42); a41 = t;
    t = lo(a43, a44); a44 = hi(a43, a44); a43 = t; t = lo(a45, a46); a46 = hi(a45, a46); a45 = t;
    t = lo(a48, a49); a49 = hi(a48, a49); a48 = t; t = lo(a50, a51); a51 = hi(a50, a51); a50 = t;
    t = lo(a48, a50); a50 = hi(a48, a50); a48 = t; t = lo(a49, a51); a51 = hi(a49, a51); a49 = t;
    t = lo(a49, a50); a50 = hi(a49, a50); a49 = t; t = lo(a52, a53); a53 = hi(a52, a53); a52 = t;
    t = lo(a54, a55); a55 = hi(a54, a55); a54 = t; t = lo(a52, a54); a54 = hi(a52, a54); a52 = t;
    t = lo(a53, a55); a55 = hi(a53, a55); a53 = t; t = lo(a53, a54); a54 = hi(a53, a54); a53 = t;
    t = lo(a48, a52); a52 = hi(a48, a52); a48 = t; t = lo(a50, a54); a54 = hi(a50, a54); a50 = t;
    t = lo(a50, a52); a52 = hi(a50, a52); a50 = t; t = lo(a49, a53); a53 = hi(a49, a53); a49 = t;
    t = lo(a51, a55); a55 = hi(a51, a55); a51 = t; t = lo(a51, a53); a53 = hi(a51, a53); a51 = t;
    t = lo(a49, a50); a50 = hi(a49, a50); a49 = t; t = lo(a51, a52); a52 = hi(a51, a52); a51 = t;
    t = lo(a53, a54); a54 = hi(a53, a54); a53 = t; t = lo(a56, a57); a57 = hi(a56, a57); a56 = t;
    t = lo(a58, a59); a59 = hi(a58, a59); a58 = t; t = lo(a56, a58); a58 = hi(a56, a58); a56 = t;
    t = lo(a57, a59); a59 = hi(a57, a59); a57 = t; t = lo(a57, a58); a58 = hi(a57, a58); a57 = t;
    t = lo(a60, a61); a61 = hi(a60, a61); a60 = t; t = lo(a62, a63); a63 = hi(a62, a63); a62 = t;
    t = lo(a60, a62); a62 = hi(a60, a62); a60 = t; t = lo(a61, a63); a63 = hi(a61, a63); a61 = t;
    t = lo(a61, a62); a62 = hi(a61, a62); a61 = t; t = lo(a56, a60); a60 = hi(a56, a60); a56 = t;
    t = lo(a58, a62); a62 = hi(a58, a62); a58 = t; t = lo(a58, a60); a60 = hi(a58, a60); a58 = t;
    t = lo(a57, a61); a61 = hi(a57, a61); a57 = t; t = lo(a59, a63); a63 = hi(a59, a63); a59 = t;
    t = lo(a59, a61); a61 = hi(a59, a61); a59 = t; t = lo(a57, a58); a58 = hi(a57, a58); a57 = t;
    t = lo(a59, a60); a60 = hi(a59, a60); a59 = t; t = lo(a61, a62); a62 = hi(a61, a62); a61 = t;
    t = lo(a48, a56); a56 = hi(a48, a56); a48 = t; t = lo(a52, a60); a60 = hi(a52, a60); a52 = t;
    t = lo(a52, a56); a56 = hi(a52, a56); a52 = t; t = lo(a50, a58); a58 = hi(a50, a58); a50 = t;
    t = lo(a54, a62); a62 = hi(a54, a62); a54 = t; t = lo(a54, a58); a58 = hi(a54, a58); a54 = t;
    t = lo(a50, a52); a52 = hi(a50, a52); a50 = t; t = lo(a54, a56); a56 = hi(a54, a56); a54 = t;
    t = lo(a58, a60); a60 = hi(a58, a60); a58 = t; t = lo(a49, a57); a57 = hi(a49, a57); a49 = t;
    t = lo(a53, a61); a61 = hi(a53, a61); a53 = t; t = lo(a53, a57); a57 = hi(a53, a57); a53 = t;
    t = lo(a51, a59); a59 = hi(a51, a59); a51 = t; t = lo(a55, a63); a63 = hi(a55, a63); a55 = t;
    t = lo(a55, a59); a59 = hi(a55, a59); a55 = t; t = lo(a51, a53); a53 = hi(a51, a53); a51 = t;
    t = lo(a55, a57); a57 = hi(a55, a57); a55 = t; t = lo(a59, a61); a61 = hi(a59, a61); a59 = t;
    t = lo(a49, a50); a50 = hi(a49, a50); a49 = t; t = lo(a51, a52); a52 = hi(a51, a52); a51 = t;
    t = lo(a53, a54); a54 = hi(a53, a54); a53 = t; t = lo(a55, a56); a56 = hi(a55, a56); a55 = t;
    t = lo(a57, a58); a58 = hi(a57, a58); a57 = t; t = lo(a59, a60); a60 = hi(a59, a60); a59 = t;
    t = lo(a61, a62); a62 = hi(a61, a62); a61 = t; t = lo(a32, a48); a48 = hi(a32, a48); a32 = t;
    t = lo(a40, a56); a56 = hi(a40, a56); a40 = t; t = lo(a40, a48); a48 = hi(a40, a48); a40 = t;
    t = lo(a36, a52); a52 = hi(a36, a52); a36 = t; t = lo(a44, a60); a60 = hi(a44, a60); a44 = t;
    t = lo(a44, a52); a52 = hi(a44, a52); a44 = t; t = lo(a36, a40); a40 = hi(a36, a40); a36 = t;
    t = lo(a44, a48); a48 = hi(a44, a48); a44 = t; t = lo(a52, a56); a56 = hi(a52, a56); a52 = t;
    t = lo(a34, a50); a50 = hi(a34, a50); a34 = t; t = lo(a42, a58); a58 = hi(a42, a58); a42 = t;
    t = lo(a42, a50); a50 = hi(a42, a50); a42 = t; t = lo(a38, a54); a54 = hi(a38, a54); a38 = t;
    t = lo(a46, a62); a62 = hi(a46, a62); a46 = t; t = lo(a46, a54); a54 = hi(a46, a54); a46 = t;
    t = lo(a38, a42); a42 = hi(a38, a42); a38 = t; t = lo(a46, a50); a50 = hi(a46, a50); a46 = t;
    t = lo(a54, a58); a58 = hi(a54, a58); a54 = t; t = lo(a34, a36); a36 = hi(a34, a36); a34 = t;
    t = lo(a38, a40); a40 = hi(a38, a40); a38 = t; t = lo(a42, a44); a44 = hi(a42, a44); a42 = t;
    t = lo(a46, a48); a48 = hi(a46, a48); a46 = t; t = lo(a50, a52); a52 = hi(a50, a52); a50 = t;
    t = lo(a54, a56); a56 = hi(a54, a56); a54 = t; t = lo(a58, a60); a60 = hi(a58, a60); a58 = t;
    t = lo(a33, a49); a49 = hi(a33, a49); a33 = t; t = lo(a41, a57); a57 = hi(a41, a57); a41 = t;
    t = lo(a41, a49); a49 = hi(a41, a49); a41 = t; t = lo(a37, a53); a53 = hi(a37, a53); a37 = t;
    t = lo(a45, a61); a61 = hi(a45, a61); a45 = t; t = lo(a45, a53); a53 = hi(a45, a53); a45 = t;
    t = lo(a37, a41); a41 = hi(a37, a41); a37 = t; t = lo(a45, a49); a49 = hi(a45, a49); a45 = t;
    t = lo(a53, a57); a57 = hi(a53, a57); a53 = t; t = lo(a35, a51); a51 = hi(a35, a51); a35 = t;
    t = lo(a43, a59); a59 = hi(a43, a59); a43 = t; t = lo(a43, a51); a51 = hi(a43, a51); a43 = t;
    t = lo(a39, a55); a55 = hi(a39, a55); a39 = t; t = lo(a47, a63); a63 = hi(a47, a63); a47 = t;
    t = lo(a47, a55); a55 = hi(a47, a55); a47 = t; t = lo(a39, a43); a43 = hi(a39, a43); a39 = t;
    t = lo(a47, a51); a51 = hi(a47, a51); a47 = t; t = lo(a55, a59); a59 = hi(a55, a59); a55 = t;
    t = lo(a35, a37); a37 = hi(a35, a37); a35 = t; t = lo(a39, a41); a41 = hi(a39, a41); a39 = t;
    t = lo(a43, a45); a45 = hi(a43, a45); a43 = t; t = lo(a47, a49); a49 = hi(a47, a49); a47 = t;
    t = lo(a51, a53); a53 = hi(a51, a53); a51 = t; t = lo(a55, a57); a57 = hi(a55, a57); a55 = t;
    t = lo(a59, a61); a61 = hi(a59, a61); a59 = t; t = lo(a33, a34); a34 = hi(a33, a34); a33 = t;
    t = lo(a35, a36); a36 = hi(a35, a36); a35 = t; t = lo(a37, a38); a38 = hi(a37, a38); a37 = t;
    t = lo(a39, a40); a40 = hi(a39, a40); a39 = t; t = lo(a41, a42); a42 = hi(a41, a42); a41 = t;
    t = lo(a43, a44); a44 = hi(a43, a44); a43 = t; t = lo(a45, a46); a46 = hi(a45, a46); a45 = t;
    t = lo(a47, a48); a48 = hi(a47, a48); a47 = t; t = lo(a49, a50); a50 = hi(a49, a50); a49 = t;
    t = lo(a51, a52); a52 = hi(a51, a52); a51 = t; t = lo(a53, a54); a54 = hi(a53, a54); a53 = t;
    t = lo(a55, a56); a56 = hi(a55, a56); a55 = t; t = lo(a57, a58); a58 = hi(a57, a58); a57 = t;
    t = lo(a59, a60); a60 = hi(a59, a60); a59 = t; t = lo(a61, a62); a62 = hi(a61, a62); a61 = t; a32 = hi(a0, a32);
    a16 = lo(a16, a48); a32 = hi(a16, a32); a40 = hi(a8, a40); a24 = lo(a24, a56); a24 = lo(a24, a40);
    a32 = hi(a24, a32); a36 = hi(a4, a36); a20 = lo(a20, a52); a36 = hi(a20, a36); a44 = hi(a12, a44);
    a28 = lo(a28, a60); a28 = lo(a28, a44); a28 = lo(a28, a36); a32 = hi(a28, a32); a34 = hi(a2, a34);
    a18 = lo(a18, a50); a34 = hi(a18, a34); a42 = hi(a10, a42); a26 = lo(a26, a58); a26 = lo(a26, a42);
    a34 = hi(a26, a34); a38 = hi(a6, a38); a22 = lo(a22, a54); a38 = hi(a22, a38); a46 = hi(a14, a46);
    a30 = lo(a30, a62); a30 = lo(a30, a46); a30 = lo(a30, a38); a30 = lo(a30, a34); a32 = hi(a30, a32);
    a33 = hi(a1, a33); a17 = lo(a17, a49); a33 = hi(a17, a33); a41 = hi(a9, a41); a25 = lo(a25, a57);
    a25 = lo(a25, a41); a33 = hi(a25, a33); a37 = hi(a5, a37); a21 = lo(a21, a53); a37 = hi(a21, a37);
    a45 = hi(a13, a45); a29 = lo(a29, a61); a29 = lo(a29, a45); a29 = lo(a29, a37); a33 = hi(a29, a33);
    a35 = hi(a3, a35); a19 = lo(a19, a51); a35 = hi(a19, a35); a43 = hi(a11, a43); a27 = lo(a27, a59);
    a27 = lo(a27, a43); a35 = hi(a27, a35); a39 = hi(a7, a39); a23 = lo(a23, a55); a39 = hi(a23, a39);
    a47 = hi(a15, a47); t = lo(a31, a63); a63 = hi(a31, a63); a31 = t; a31 = lo(a31, a47); a31 = lo(a31, a39);
    a31 = lo(a31, a35); a31 = lo(a31, a33); t = lo(a31, a32); a32 = hi(a31, a32); a31 = t;
    // Lower and upper middles as float32 to float64: (lower + upper) / 2 / 0.6745, rounded to float32.
    const lo = a31, up = a32, lo2 = i32x4.shuffle(lo, lo, 2, 3, 2, 3), up2 = i32x4.shuffle(up, up, 2, 3, 2, 3);
    const m0 = f64x2.div(f64x2.div(f64x2.add(f64x2.promote_low_f32x4(lo), f64x2.promote_low_f32x4(up)), two), scale);
    const m1 = f64x2.div(f64x2.div(f64x2.add(f64x2.promote_low_f32x4(lo2), f64x2.promote_low_f32x4(up2)), two), scale);
    v128.store(medians + (<usize>g << 2), i32x4.shuffle(f32x4.demote_f64x2_zero(m0), f32x4.demote_f64x2_zero(m1), 0, 1, 4, 5));
    const bad = i32x4.gt_s(a63, infinity);
    v128.store(flags + (<usize>g << 2), bad);
    nan += popcnt(i32x4.bitmask(bad) & ((1 << min(4, blocks - g)) - 1));
  }
  return nan;
}
