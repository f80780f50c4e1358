// The median residual sweep (src/internal/medianResidualSweep.ts) over a chunk of rows: luma, 3x3 median on the
// luma's int32 bit patterns, residual |Y - median|, its histogram of upper float bits and its block sums. The caller
// (src/internal/medianResidualWasm.ts) lays out the memory and copies rows in and results out; every value equals the
// JavaScript sweep's bit for bit (test/wasmMedianResidual.test.ts).

import { BLUE, GREEN, GREY, greyLuma4, INV_255, RED, rgbLuma4 } from './lib/luma';

/** Entries of one of the four histograms of the residual's upper 16 bits (sign clear: below 0x8000). */
const BINS: usize = 0x8000;

/** First free byte of memory (16-aligned): the caller lays out its areas from here. */
export function heapBase(): usize {
  return (__heap_base + 15) & ~(<usize>15);
}

/**
 * Unrounded studio luma of `count` 8-bit pixels (`channels` 1 to 4) from `src` into `dst` as float32, 4 at a time: the
 * same float64 operations in the same order as `lumaBytes` (each an IEEE operation rounded to nearest, as V8's), then
 * rounded to float32 to nearest even as a Float32Array store does. Writes up to 3 values past `count` and reads up to
 * 16 bytes past the last pixel.
 */
export function luma(src: usize, channels: i32, count: i32, dst: usize): void {
  const step = <usize>(channels << 2);
  const inv = f64x2.splat(INV_255), sixteen = f64x2.splat(16);
  if (channels >= 3) {
    // Byte k * channels + c of 16 loaded bytes into 32-bit lane k (indices of -1 give zero bytes). Constant masks, not
    // built from `channels` as edgeAnomaly.ts builds them: this loop measured 14% slower with built ones.
    const r = channels == 3 ? i8x16(0, -1, -1, -1, 3, -1, -1, -1, 6, -1, -1, -1, 9, -1, -1, -1) : i8x16(0, -1, -1, -1, 4, -1, -1, -1, 8, -1, -1, -1, 12, -1, -1, -1);
    const g = channels == 3 ? i8x16(1, -1, -1, -1, 4, -1, -1, -1, 7, -1, -1, -1, 10, -1, -1, -1) : i8x16(1, -1, -1, -1, 5, -1, -1, -1, 9, -1, -1, -1, 13, -1, -1, -1);
    const b = channels == 3 ? i8x16(2, -1, -1, -1, 5, -1, -1, -1, 8, -1, -1, -1, 11, -1, -1, -1) : i8x16(2, -1, -1, -1, 6, -1, -1, -1, 10, -1, -1, -1, 14, -1, -1, -1);
    const kr = f64x2.splat(RED), kg = f64x2.splat(GREEN), kb = f64x2.splat(BLUE);
    for (let x = 0, p = src, q = dst; x < count; x += 4, p += step, q += 16) {
      const v = v128.load(p);
      v128.store(q, rgbLuma4(i8x16.swizzle(v, r), i8x16.swizzle(v, g), i8x16.swizzle(v, b), kr, kg, kb, inv, sixteen));
    }
  } else {
    const m = channels == 1 ? i8x16(0, -1, -1, -1, 1, -1, -1, -1, 2, -1, -1, -1, 3, -1, -1, -1) : i8x16(0, -1, -1, -1, 2, -1, -1, -1, 4, -1, -1, -1, 6, -1, -1, -1);
    const k = f64x2.splat(GREY);
    for (let x = 0, p = src, q = dst; x < count; x += 4, p += step, q += 16) v128.store(q, greyLuma4(i8x16.swizzle(v128.load(p), m), k, inv, sixteen));
  }
}

/**
 * The sweep over one chunk of rows. Input: `inRows` rows of `width` pixels at `input`, as 8-bit pixels of `channels`
 * samples, or float32 luma when `channels` is 0: the chunk's output rows and the rows above and below them that exist
 * (the first output row is input row `first`). Their luma goes into rows of `stride` floats at `lumaArea + 16`, with
 * x = -1 and x = width holding copies of the border samples (replicated borders) and zeros after x = width, so that
 * every vector the median reads is inside a row. For each output row k: its residual at `residual + 4 k width`, its
 * upper 16 bits counted in one of the four histograms at `histogram` (by block, so that four counters are in flight)
 * and its values added in pixel order to the sums of its blocks, row ((bandRow + k) / block - blockRow) of `sums`
 * (`blocksWide` float64 per row). Returns the OR of every luma sample read: negative when one has its sign bit set.
 */
export function sweep(input: usize, channels: i32, width: i32, inRows: i32, lumaArea: usize, stride: i32, first: i32, outRows: i32, residual: usize, bandRow: i32, block: i32, blockRow: i32, sums: usize, blocksWide: i32, histogram: usize): i32 {
  const rowBytes = <usize>stride << 2, w = <usize>width;
  const rows = lumaArea + 16;
  for (let r = 0; r < inRows; r++) {
    const dst = rows + <usize>r * rowBytes;
    if (channels == 0) memory.copy(dst, input + <usize>r * (w << 2), w << 2);
    else luma(input + <usize>r * w * <usize>channels, channels, width, dst);
    store<i32>(dst - 4, load<i32>(dst));
    store<i32>(dst + (w << 2), load<i32>(dst + ((w - 1) << 2)));
    for (let x = w + 1; x < <usize>stride - 1; x++) store<i32>(dst + (x << 2), 0);
  }
  let signs = i32x4.splat(0);
  for (let k = 0; k < outRows; k++) {
    const m = first + k;
    const pu = rows + <usize>(m > 0 ? m - 1 : 0) * rowBytes, pm = rows + <usize>m * rowBytes, pd = rows + <usize>(m + 1 < inRows ? m + 1 : inRows - 1) * rowBytes;
    const out = residual + <usize>k * (w << 2);
    signs = v128.or(signs, medianRow(pu, pm, pd, width, out));
    countRow(out, width, block, sums + <usize>((bandRow + k) / block - blockRow) * <usize>blocksWide * 8, histogram);
  }
  return i32x4.extract_lane(signs, 0) | i32x4.extract_lane(signs, 1) | i32x4.extract_lane(signs, 2) | i32x4.extract_lane(signs, 3);
}

/**
 * The residual |Y - median3x3| of one row into `out` (up to 3 values past `width`), four outputs at a time: the
 * columns of three sorted (low, middle, high) with i32x4 min/max on the bit patterns (which order like the values when
 * non-negative), the window's column neighbours shuffled in from the previous and next vectors, and Paeth's median of
 * the max of the lows, the median of the middles and the min of the highs, as `medianRow` in JavaScript. Returns the
 * OR of the samples read, lane by lane.
 */
function medianRow(pu: usize, pm: usize, pd: usize, width: i32, out: usize): v128 {
  // Columns -4..-1 (only -1, the left border copy, is used), then 0..3.
  let a = v128.load(pu - 16), b = v128.load(pm - 16), c = v128.load(pd - 16);
  let ab = i32x4.min_s(a, b), AB = i32x4.max_s(a, b);
  let pLo = i32x4.min_s(ab, c), pHi = i32x4.max_s(AB, c), pMi = i32x4.max_s(ab, i32x4.min_s(AB, c));
  a = v128.load(pu); b = v128.load(pm); c = v128.load(pd);
  let signs = v128.or(v128.or(a, b), c);
  ab = i32x4.min_s(a, b); AB = i32x4.max_s(a, b);
  let cLo = i32x4.min_s(ab, c), cHi = i32x4.max_s(AB, c), cMi = i32x4.max_s(ab, i32x4.min_s(AB, c));
  for (let o: usize = 0, end = <usize>width << 2; o < end; o += 16) {
    a = v128.load(pu + o + 16); b = v128.load(pm + o + 16); c = v128.load(pd + o + 16);
    signs = v128.or(signs, v128.or(v128.or(a, b), c));
    ab = i32x4.min_s(a, b); AB = i32x4.max_s(a, b);
    const nLo = i32x4.min_s(ab, c), nHi = i32x4.max_s(AB, c), nMi = i32x4.max_s(ab, i32x4.min_s(AB, c));
    // Columns x - 1 and x + 1 of the four outputs.
    const maxLo = i32x4.max_s(i32x4.max_s(i32x4.shuffle(pLo, cLo, 3, 4, 5, 6), cLo), i32x4.shuffle(cLo, nLo, 1, 2, 3, 4));
    const minHi = i32x4.min_s(i32x4.min_s(i32x4.shuffle(pHi, cHi, 3, 4, 5, 6), cHi), i32x4.shuffle(cHi, nHi, 1, 2, 3, 4));
    const mL = i32x4.shuffle(pMi, cMi, 3, 4, 5, 6), mR = i32x4.shuffle(cMi, nMi, 1, 2, 3, 4);
    const medMid = median3(mL, cMi, mR);
    const median = median3(maxLo, medMid, minHi);
    // |y - median| in float32 equals the double difference rounded to float32 (Math.abs stored into Float32Array).
    v128.store(out + o, f32x4.abs(f32x4.sub(v128.load(pm + o), median)));
    pLo = cLo; pMi = cMi; pHi = cHi;
    cLo = nLo; cMi = nMi; cHi = nHi;
  }
  return signs;
}

// @ts-ignore: decorator
@inline function median3(a: v128, b: v128, c: v128): v128 {
  return i32x4.max_s(i32x4.min_s(a, b), i32x4.min_s(i32x4.max_s(a, b), c));
}

/**
 * One row's residuals (`width` at `row`) counted into the histograms and added to the block sums at `sums`, each
 * block's values in pixel order. Four blocks at a time, each with its own sum and histogram: four independent chains
 * of float64 additions and of counter increments instead of one.
 */
function countRow(row: usize, width: i32, block: i32, sums: usize, histogram: usize): void {
  const h0 = histogram, h1 = h0 + (BINS << 2), h2 = h1 + (BINS << 2), h3 = h2 + (BINS << 2);
  const span = <usize>block << 2;
  let x0 = 0, s = sums;
  for (; x0 + 4 * block <= width; x0 += 4 * block, s += 32) {
    let s0 = load<f64>(s), s1 = load<f64>(s, 8), s2 = load<f64>(s, 16), s3 = load<f64>(s, 24);
    for (let p = row + (<usize>x0 << 2), end = p + span; p < end; p += 4) {
      const u0 = load<u32>(p), u1 = load<u32>(p + span), u2 = load<u32>(p + 2 * span), u3 = load<u32>(p + 3 * span);
      s0 += <f64>reinterpret<f32>(u0);
      s1 += <f64>reinterpret<f32>(u1);
      s2 += <f64>reinterpret<f32>(u2);
      s3 += <f64>reinterpret<f32>(u3);
      const q0 = h0 + ((<usize>u0 >> 16) << 2), q1 = h1 + ((<usize>u1 >> 16) << 2), q2 = h2 + ((<usize>u2 >> 16) << 2), q3 = h3 + ((<usize>u3 >> 16) << 2);
      store<u32>(q0, load<u32>(q0) + 1);
      store<u32>(q1, load<u32>(q1) + 1);
      store<u32>(q2, load<u32>(q2) + 1);
      store<u32>(q3, load<u32>(q3) + 1);
    }
    store<f64>(s, s0); store<f64>(s, s1, 8); store<f64>(s, s2, 16); store<f64>(s, s3, 24);
  }
  for (; x0 < width; x0 += block, s += 8) {
    let s0 = load<f64>(s);
    for (let p = row + (<usize>x0 << 2), end = row + (<usize>min(x0 + block, width) << 2); p < end; p += 4) {
      const u0 = load<u32>(p);
      s0 += <f64>reinterpret<f32>(u0);
      const q0 = h0 + ((<usize>u0 >> 16) << 2);
      store<u32>(q0, load<u32>(q0) + 1);
    }
    store<f64>(s, s0);
  }
}

/** Adds the four histograms at `histogram` into the first (0x8000 counts each). */
export function foldHistogram(histogram: usize): void {
  for (let i: usize = 0; i < BINS << 2; i += 16) {
    const a = i32x4.add(v128.load(histogram + i), v128.load(histogram + i, BINS << 2));
    const b = i32x4.add(v128.load(histogram + i, BINS << 3), v128.load(histogram + i, 3 * (BINS << 2)));
    v128.store(histogram + i, i32x4.add(a, b));
  }
}

/**
 * The bin (upper 16 bits) of the m-th largest value counted so far in the four histograms at `histogram`, summed
 * from the top bin down; 0 when fewer than m values were counted. Every value of the final m largest is in this bin
 * or above, however many values are counted later (their m-th largest can only rise).
 */
export function topBin(histogram: usize, m: u32): i32 {
  let need = <u64>m;
  for (let bin = <i32>BINS - 1; bin > 0; bin--) {
    const q = histogram + (<usize>bin << 2);
    const count = <u64>load<u32>(q) + <u64>load<u32>(q, BINS << 2) + <u64>load<u32>(q, BINS << 3) + <u64>load<u32>(q, 3 * (BINS << 2));
    if (count >= need) return bin;
    need -= count;
  }
  return 0;
}

/**
 * Appends the `count` residuals at `values` whose bits are `threshold` or more, in order, at `dst`, and returns the
 * end of what it wrote; 0 when that would pass `limit` (nothing is then trusted). Four at a time, skipped when none
 * reaches the threshold (the usual case once the threshold is near the display quantile). Reads up to 12 bytes past
 * the last value.
 */
export function collect(values: usize, count: i32, threshold: u32, dst: usize, limit: usize): usize {
  const t = i32x4.splat(<i32>threshold);
  const end = values + (<usize>count << 2);
  for (let p = values; p < end; p += 16) {
    if (!v128.any_true(i32x4.ge_u(v128.load(p), t))) continue;
    const stop = min(p + 16, end);
    for (let q = p; q < stop; q += 4) {
      const v = load<u32>(q);
      if (v >= threshold) {
        if (dst + 4 > limit) return 0;
        store<u32>(dst, v);
        dst += 4;
      }
    }
  }
  return dst;
}
