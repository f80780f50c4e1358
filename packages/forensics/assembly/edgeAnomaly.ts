// Edge anomaly block features (src/kernels/edgeAnomalyMap.ts, `edgeBlockFeatures`) for a chunk of rows of blocks
// per call: per block the sum and maximum of the Sobel magnitudes, the luma range and the sums of the absolute steps
// (all of them, and those across the 8x8 grid). The caller copies the pixel rows the chunk reads (8-bit pixels, or
// luma as float32) into memory and turns the sums into features.
//
// Luma is held as integers in units of 2^-19: every float32 in [16, 256) is a multiple of 2^-19 below 2^27 units
// (8-bit luma lies in [16, 236); float luma outside [16, 256) makes `blockFeatures` return 0 and the caller takes its
// JavaScript path). Sobel responses (below 2^29 units) and steps are then exact i32x4 sums, the very values the
// JavaScript float64 sums hold. Magnitudes are V8's Math.hypot as `finiteHypot` computes it, sqrt(1 + r * r) * max
// with r = min / max, on float64 lanes; scaling both arguments by a power of two scales the result exactly, so it is
// computed on the units and scaled by 2^-19 at the end, as are the sums of magnitudes, which are added in the
// JavaScript order (row by row, left to right within a block: one chain of float64 additions per block).
//
// Rows and columns outside the image are replicated copies of the border (row -1 = row 0, column -1 = column 0, and
// so on), which gives the border blocks the clamped neighbours of the generic JavaScript loop; the steps it skips
// there (x = 0, y = 0) are zero here, and the caller counts steps as that loop does.

import { AT_GREY, AT_INV_255, AT_SIXTEEN, float32x4, greyLuma4, lanes01, lanes23, lumaWeights } from './lib/luma';

/** Luma units per luma level: 2^19. */
const UNITS: f32 = 524288.0;
/** Luma levels per unit: 2^-19. */
const LEVELS: f64 = 1.0 / 524288.0;

/**
 * Bytes of per-block state: sum of magnitudes (f64, then 8 unused bytes), their maximum (f64x2), luma min and max
 * (i32x4), sums of all steps and of steps across the grid (i64x2).
 */
const STATE: usize = 96;
/** Bytes of one block's features in the output: sum, max, lo, hi, across, total as float64, in luma levels. */
const FEATURES: usize = 48;
/**
 * Pixels of a block's row whose steps (each below 240 * 2^19 units) i32 lanes sum before moving to i64: with the
 * last, overlapping vector, at most 16 of each kind per lane, below 2^32 as unsigned.
 */
const SPAN = 60;
/** 1.0 twice; loaded, not written as a constant, which V8 would materialise again in every iteration of a loop. */
const ONE = memory.data<f64>([1, 1], 16);

/** Start of the memory the caller lays out, after this module's static data. */
export function heapBase(): usize {
  return (__heap_base + 15) & ~(<usize>15);
}

/** Bytes of one padded row of luma units: pixel x at 4 + x, the replicated borders at 3 and 4 + width, slack after. */
@inline function rowBytes(width: i32): usize {
  return <usize>(width + 8) << 2;
}

/** Bytes of scratch memory `blockFeatures` needs for rows `width` wide and blocks of `B`: 3 luma rows, the blocks' state. */
export function scratchBytes(width: i32, B: i32): usize {
  return 3 * rowBytes(width) + <usize>(width / B) * STATE;
}

/** `UNITS` as float32 (splat on load). */
const UNITS_F32 = memory.data<f32>([UNITS], 16);

/**
 * Luma units of `width` 8-bit pixels of `channels` samples at `src` into the padded row at `dst`: the float32 value
 * of src/internal/luma.ts `lumaBytes` (the same float64 products, sums and order, rounded to float32) times 2^19.
 * Reads up to 16 bytes past the last pixel and writes up to 3 units past it (the caller leaves room).
 */
export function lumaUnitsRow(src: usize, channels: i32, width: i32, dst: usize): void {
  const out = dst + 16;
  const c = channels;
  // Swizzle putting sample 0 of 4 interleaved pixels into i32 lanes (index bytes with the top bit set give zeros);
  // adding k selects sample k.
  const first = i32x4.replace_lane(i32x4.replace_lane(i32x4.replace_lane(i32x4.splat(0x80808000), 1, 0x80808000 | c), 2, 0x80808000 | (2 * c)), 3, 0x80808000 | (3 * c));
  const weights = lumaWeights();
  const inv = v128.load(weights, AT_INV_255), sixteen = v128.load(weights, AT_SIXTEEN);
  if (c >= 3) {
    const green = i32x4.add(first, i32x4.splat(1)), blue = i32x4.add(first, i32x4.splat(2));
    for (let x = 0; x < width; x += 4) {
      const px = v128.load(src + <usize>(x * c));
      // 65481 R + 128553 G + 24966 B, exact in i32 (below 2^26).
      const kr = v128.load(INTEGER_WEIGHTS), kg = v128.load(INTEGER_WEIGHTS, 16), kb = v128.load(INTEGER_WEIGHTS, 32);
      const n = i32x4.add(i32x4.add(i32x4.mul(i8x16.swizzle(px, first), kr), i32x4.mul(i8x16.swizzle(px, green), kg)), i32x4.mul(i8x16.swizzle(px, blue), kb));
      const k = v128.load(INV_255000);
      v128.store(out + (<usize>x << 2), units4(float32x4(f64x2.add(sixteen, f64x2.mul(lanes01(n), k)), f64x2.add(sixteen, f64x2.mul(lanes23(n), k)))));
    }
  } else {
    for (let x = 0; x < width; x += 4) {
      const v = i8x16.swizzle(v128.load(src + <usize>(x * c)), first);
      v128.store(out + (<usize>x << 2), units4(greyLuma4(v, v128.load(weights, AT_GREY), inv, sixteen)));
    }
  }
  replicateBorders(dst, width);
}

/**
 * The weights 65481, 128553 and 24966 (i32x4 each) and 1 / 255000 (f64x2), loaded in the loop rather than written as
 * constants (which V8 would materialise again in every iteration): 8-bit RGB luma as 16 + n / 255000 with the exact
 * integer n = 65481 R + 128553 G + 24966 B. It rounds to the float32 of `lumaBytes`'s
 * 16 + ((65.481 R + 128.553 G) + 24.966 B) * INV_255: both float64 values lie within 2e-13 of the real
 * 16 + n / 255000, which is at least 3e-11 from every midpoint between two float32s in [16, 256) (a midpoint is
 * 16 + k / 2^j with k odd and j in 17..20, and |n 2^j - 255000 k| = 8 |n 2^(j-3) - 31875 k| is 8 times an odd number),
 * so both round to the float32 nearest that real number. Fewer float64 operations than the weighted sum
 * (test/wasmEdgeAnomaly.test.ts checks all 2^24 colours).
 */
const INTEGER_WEIGHTS = memory.data<i32>([65481, 65481, 65481, 65481, 128553, 128553, 128553, 128553, 24966, 24966, 24966, 24966], 16);
const INV_255000 = memory.data<f64>([1.0 / 255000.0, 1.0 / 255000.0], 16);

/** Float32 luma of 4 pixels times 2^19 as i32x4. */
@inline function units4(y: v128): v128 {
  return i32x4.trunc_sat_f32x4_s(f32x4.mul(y, v128.load32_splat(UNITS_F32)));
}

/**
 * Luma units of `width` float32 luma samples at `src` into the padded row at `dst`; false (and the row unfinished)
 * when a sample lies outside [16, 256), tested on the bit patterns: [0x41800000, 0x43800000).
 */
function floatUnitsRow(src: usize, width: i32, dst: usize): bool {
  const out = dst + 16;
  const units = f32x4.splat(UNITS), low = i32x4.splat(0x41800000), span = i32x4.splat(0x02000000);
  let inside = i32x4.splat(-1);
  let x = 0;
  for (; x + 4 <= width; x += 4) {
    const v = v128.load(src + (<usize>x << 2));
    inside = v128.and(inside, i32x4.lt_u(i32x4.sub(v, low), span));
    v128.store(out + (<usize>x << 2), i32x4.trunc_sat_f32x4_s(f32x4.mul(v, units)));
  }
  if (!i32x4.all_true(inside)) return false;
  for (; x < width; x++) {
    const bits = load<u32>(src + (<usize>x << 2));
    if (bits - 0x41800000 >= 0x02000000) return false;
    store<i32>(out + (<usize>x << 2), <i32>(load<f32>(src + (<usize>x << 2)) * UNITS));
  }
  replicateBorders(dst, width);
  return true;
}

@inline function replicateBorders(dst: usize, width: i32): void {
  store<i32>(dst + 12, load<i32>(dst + 16));
  store<i32>(dst + 16 + (<usize>width << 2), load<i32>(dst + 12 + (<usize>width << 2)));
}

// Sobel responses of 4 pixels from their neighbours to the left (L), at (C) and to the right (R) in the rows above
// (u), at (r) and below (d) them.
@inline function gradientX(uL: v128, uR: v128, rL: v128, rR: v128, dL: v128, dR: v128): v128 {
  return i32x4.sub(i32x4.add(i32x4.add(uR, dR), i32x4.shl(rR, 1)), i32x4.add(i32x4.add(uL, dL), i32x4.shl(rL, 1)));
}
@inline function gradientY(uL: v128, uC: v128, uR: v128, dL: v128, dC: v128, dR: v128): v128 {
  return i32x4.sub(i32x4.add(i32x4.add(dL, dR), i32x4.shl(dC, 1)), i32x4.add(i32x4.add(uL, uR), i32x4.shl(uC, 1)));
}

/**
 * finiteHypot of the larger and smaller |Sobel response| in i32 lanes 0 and 1 of `hi` and `lo`: sqrt(1 + r * r) * max
 * with r = min / max. The units are integers, so a non-zero max is at least 1 and dividing by max(max, 1) changes
 * nothing but 0 / 0, which becomes 0 / 1 and the result 0 * 1 = 0, finiteHypot's `max === 0 ? 0`.
 */
@inline function hypot2(hi: v128, lo: v128): v128 {
  const one = v128.load(ONE), h = f64x2.convert_low_i32x4_s(hi);
  const q = f64x2.div(f64x2.convert_low_i32x4_s(lo), f64x2.pmax(h, one));
  return f64x2.mul(f64x2.sqrt(f64x2.add(one, f64x2.mul(q, q))), h);
}

/**
 * One row of pixels of every block of a row of blocks (`up`, `row`, `down`: pixel 0 of the padded rows) into each
 * block's state: magnitudes added to the block's sum in the JavaScript order (left to right; blocks are independent
 * chains), their maximum, luma min and max, and the sums of steps (all, and those across the grid into columns that
 * are multiples of 8). Blocks of a size not a multiple of 4 end with a vector overlapping the one before: maxima do
 * not mind the repeats, its sum takes only the new lanes and `tailMask` keeps its steps to them.
 */
function pixelRow(up: usize, row: usize, down: usize, B: i32, bw: i32, state: usize, tailMask: v128): void {
  const B4 = B & ~3, tail = B - B4;
  for (let bx = 0; bx < bw; bx++) {
    const s = state + <usize>bx * STATE;
    let sum = load<f64>(s), maxMag = v128.load(s, 16), lo = v128.load(s, 32), hi = v128.load(s, 48), total = v128.load(s, 64);
    const x0 = bx * B;
    for (let u = 0; u < B4;) {
      let steps = i32x4.splat(0);
      for (const end = min(B4, u + SPAN); u < end; u += 4) {
        const at = <usize>(x0 + u) << 2;
        const uL = v128.load(up + at - 4), uC = v128.load(up + at), uR = v128.load(up + at + 4);
        const rL = v128.load(row + at - 4), rC = v128.load(row + at), rR = v128.load(row + at + 4);
        const dL = v128.load(down + at - 4), dC = v128.load(down + at), dR = v128.load(down + at + 4);
        lo = i32x4.min_s(lo, rC);
        hi = i32x4.max_s(hi, rC);
        steps = i32x4.add(steps, i32x4.add(i32x4.abs(i32x4.sub(rC, rL)), i32x4.abs(i32x4.sub(rC, uC))));
        const gx = i32x4.abs(gradientX(uL, uR, rL, rR, dL, dR)), gy = i32x4.abs(gradientY(uL, uC, uR, dL, dC, dR));
        const large = i32x4.max_s(gx, gy), small = i32x4.min_s(gx, gy);
        const m01 = hypot2(large, small), m23 = hypot2(i32x4.shuffle(large, large, 2, 3, 2, 3), i32x4.shuffle(small, small, 2, 3, 2, 3));
        maxMag = f64x2.pmax(maxMag, f64x2.pmax(m01, m23));
        sum += f64x2.extract_lane(m01, 0);
        sum += f64x2.extract_lane(m01, 1);
        sum += f64x2.extract_lane(m23, 0);
        sum += f64x2.extract_lane(m23, 1);
      }
      if (u == B4 && tail) {
        const at = <usize>(x0 + B - 4) << 2;
        const uL = v128.load(up + at - 4), uC = v128.load(up + at), uR = v128.load(up + at + 4);
        const rL = v128.load(row + at - 4), rC = v128.load(row + at), rR = v128.load(row + at + 4);
        const dL = v128.load(down + at - 4), dC = v128.load(down + at), dR = v128.load(down + at + 4);
        lo = i32x4.min_s(lo, rC);
        hi = i32x4.max_s(hi, rC);
        steps = i32x4.add(steps, v128.and(i32x4.add(i32x4.abs(i32x4.sub(rC, rL)), i32x4.abs(i32x4.sub(rC, uC))), tailMask));
        const gx = i32x4.abs(gradientX(uL, uR, rL, rR, dL, dR)), gy = i32x4.abs(gradientY(uL, uC, uR, dL, dC, dR));
        const large = i32x4.max_s(gx, gy), small = i32x4.min_s(gx, gy);
        const m01 = hypot2(large, small), m23 = hypot2(i32x4.shuffle(large, large, 2, 3, 2, 3), i32x4.shuffle(small, small, 2, 3, 2, 3));
        maxMag = f64x2.pmax(maxMag, f64x2.pmax(m01, m23));
        if (tail == 3) sum += f64x2.extract_lane(m01, 1);
        if (tail >= 2) sum += f64x2.extract_lane(m23, 0);
        sum += f64x2.extract_lane(m23, 1);
      }
      total = i64x2.add(total, i64x2.add(i64x2.extend_low_i32x4_u(steps), i64x2.extend_high_i32x4_u(steps)));
    }
    let grid: i64 = 0;
    for (let x = (x0 + 7) & ~7, xEnd = x0 + B; x < xEnd; x += 8) grid += <i64>abs(load<i32>(row + (<usize>x << 2)) - load<i32>(row + (<usize>x << 2) - 4));
    store<f64>(s, sum);
    v128.store(s, maxMag, 16);
    v128.store(s, lo, 32);
    v128.store(s, hi, 48);
    v128.store(s, total, 64);
    store<i64>(s, load<i64>(s, 80) + grid, 80);
  }
}

/** Vertical steps of a row on the grid (its index a multiple of 8) into each block's sum of steps across. */
function gridRow(up: usize, row: usize, B: i32, bw: i32, state: usize, tailMask: v128): void {
  const B4 = B & ~3;
  for (let bx = 0; bx < bw; bx++) {
    const s = state + <usize>bx * STATE;
    let across = v128.load(s, 80);
    const x0 = bx * B;
    for (let u = 0; u < B4;) {
      let steps = i32x4.splat(0);
      for (const end = min(B4, u + SPAN); u < end; u += 4) {
        const at = <usize>(x0 + u) << 2;
        steps = i32x4.add(steps, i32x4.abs(i32x4.sub(v128.load(row + at), v128.load(up + at))));
      }
      if (u == B4 && B4 < B) {
        const at = <usize>(x0 + B - 4) << 2;
        steps = i32x4.add(steps, v128.and(i32x4.abs(i32x4.sub(v128.load(row + at), v128.load(up + at))), tailMask));
      }
      across = i64x2.add(across, i64x2.add(i64x2.extend_low_i32x4_u(steps), i64x2.extend_high_i32x4_u(steps)));
    }
    v128.store(s, across, 80);
  }
}

/**
 * Features of the rows of blocks [byStart, byEnd) into `out` (`FEATURES` bytes per block, row by row), from the
 * image rows [firstRow, min(height - 1, byEnd * B)] at `src`, each `width` samples: 8-bit pixels of `channels`
 * samples, or float32 luma when `channels` is 0. `scratch` holds `scratchBytes(width, B)`. Returns 0, without
 * finishing, when float luma lies outside [16, 256).
 */
export function blockFeatures(src: usize, channels: i32, width: i32, height: i32, B: i32, byStart: i32, byEnd: i32, firstRow: i32, scratch: usize, out: usize): i32 {
  const bw = width / B;
  const rb = rowBytes(width);
  const srcRow = <usize>width * <usize>(channels == 0 ? 4 : channels);
  const state = scratch + 3 * rb;
  // The lanes of a block's last, overlapping vector that the one before did not cover.
  const tailMask = i32x4.gt_s(i32x4.replace_lane(i32x4.replace_lane(i32x4.replace_lane(i32x4.splat(0), 1, 1), 2, 2), 3, 3), i32x4.splat(3 - (B & 3)));
  let converted = firstRow - 1;
  for (let by = byStart; by < byEnd; by++) {
    for (let bx = 0; bx < bw; bx++) {
      const s = state + <usize>bx * STATE;
      v128.store(s, f64x2.splat(0.0));
      v128.store(s, f64x2.splat(0.0), 16);
      v128.store(s, i32x4.splat(i32.MAX_VALUE), 32);
      v128.store(s, i32x4.splat(i32.MIN_VALUE), 48);
      v128.store(s, i64x2.splat(0), 64);
      v128.store(s, i64x2.splat(0), 80);
    }
    for (let yy = by * B, yEnd = yy + B; yy < yEnd; yy++) {
      const below = min(height - 1, yy + 1);
      while (converted < below) {
        converted++;
        const from = src + <usize>(converted - firstRow) * srcRow, to = scratch + <usize>(converted % 3) * rb;
        if (channels == 0) {
          if (!floatUnitsRow(from, width, to)) return 0;
        } else {
          lumaUnitsRow(from, channels, width, to);
        }
      }
      const up = scratch + <usize>(max(0, yy - 1) % 3) * rb + 16, row = scratch + <usize>(yy % 3) * rb + 16, down = scratch + <usize>(below % 3) * rb + 16;
      pixelRow(up, row, down, B, bw, state, tailMask);
      if ((yy & 7) == 0) gridRow(up, row, B, bw, state, tailMask);
    }
    const o = out + <usize>(by - byStart) * <usize>bw * FEATURES;
    for (let bx = 0; bx < bw; bx++) {
      const s = state + <usize>bx * STATE, f = o + <usize>bx * FEATURES;
      const maxMag = v128.load(s, 16), lo = v128.load(s, 32), hi = v128.load(s, 48), total = v128.load(s, 64), across = v128.load(s, 80);
      const l2 = i32x4.min_s(lo, i32x4.shuffle(lo, lo, 2, 3, 0, 1)), h2 = i32x4.max_s(hi, i32x4.shuffle(hi, hi, 2, 3, 0, 1));
      store<f64>(f, load<f64>(s) * LEVELS);
      store<f64>(f, max(f64x2.extract_lane(maxMag, 0), f64x2.extract_lane(maxMag, 1)) * LEVELS, 8);
      store<f64>(f, <f64>min(i32x4.extract_lane(l2, 0), i32x4.extract_lane(l2, 1)) * LEVELS, 16);
      store<f64>(f, <f64>max(i32x4.extract_lane(h2, 0), i32x4.extract_lane(h2, 1)) * LEVELS, 24);
      store<f64>(f, <f64>(i64x2.extract_lane(across, 0) + i64x2.extract_lane(across, 1)) * LEVELS, 32);
      store<f64>(f, <f64>(i64x2.extract_lane(total, 0) + i64x2.extract_lane(total, 1)) * LEVELS, 40);
    }
  }
  return 1;
}

// Differences from the neighbourhood medians (`localDifference` in src/kernels/edgeAnomalyMap.ts) for neighbourhoods
// of radius 1 or 2. The values are non-negative float32s (or not finite), whose bit patterns order like the values:
// a median is found by ranks instead of a selection, every candidate's count of smaller neighbours at once. Every
// neighbour that does not count (outside the rows or columns, not finite, the block itself) is replaced by
// `SENTINEL`, above every finite value's bits, so it never is the k-th smallest for a k below the count of finite
// neighbours. The median is the very value the JavaScript selection returns (the k-th smallest is unique), and the
// mean of the two middle ones the same float64 sum halved.

/** Bits above those of every finite float32 (and of the infinities). */
const SENTINEL: i32 = 0x7fffffff;
/** A 5 x 5 neighbourhood, row by row, and 3 sentinels: 7 vectors. */
const WINDOW = memory.data(112, 16);

/**
 * The bit patterns of the `rows` x `bw` float32 values at `values` into the grid at `grid` ((rows + 2r) x (bw + 2r),
 * a border of r sentinels around them), non-finite values replaced by `SENTINEL`. Returns 0 when a finite value is
 * negative (the ranks would not order it), 1 otherwise.
 */
export function neighbourGrid(values: usize, bw: i32, rows: i32, r: i32, grid: usize): i32 {
  const gw = bw + 2 * r;
  const cells = <usize>gw * <usize>(rows + 2 * r);
  for (let i: usize = 0; i < cells; i++) store<i32>(grid + (i << 2), SENTINEL);
  for (let y = 0; y < rows; y++) {
    const from = values + (<usize>(y * bw) << 2), to = grid + (<usize>((y + r) * gw + r) << 2);
    for (let x = 0; x < bw; x++) {
      let b = load<i32>(from + (<usize>x << 2));
      if ((b & 0x7f800000) == 0x7f800000) b = SENTINEL;
      else if (b < 0) return 0;
      store<i32>(to + (<usize>x << 2), b);
    }
  }
  return 1;
}

/** The largest candidate (bits) with fewer than `k1` neighbours below it: the (k1 - 1)-th smallest. */
@inline function kth(k1: i32, c0: v128, c1: v128, c2: v128, c3: v128, c4: v128, c5: v128, c6: v128, n0: v128, n1: v128, n2: v128, n3: v128, n4: v128, n5: v128, n6: v128): i32 {
  const k = i32x4.splat(k1);
  let m = i32x4.max_s(v128.and(c0, i32x4.lt_s(n0, k)), v128.and(c1, i32x4.lt_s(n1, k)));
  m = i32x4.max_s(m, i32x4.max_s(v128.and(c2, i32x4.lt_s(n2, k)), v128.and(c3, i32x4.lt_s(n3, k))));
  m = i32x4.max_s(m, i32x4.max_s(v128.and(c4, i32x4.lt_s(n4, k)), v128.and(c5, i32x4.lt_s(n5, k))));
  m = i32x4.max_s(m, v128.and(c6, i32x4.lt_s(n6, k)));
  m = i32x4.max_s(m, i32x4.shuffle(m, m, 2, 3, 0, 1));
  return max(i32x4.extract_lane(m, 0), i32x4.extract_lane(m, 1));
}

/**
 * value - median of its finite neighbours within radius `r` (1 or 2) for the rows [yFrom, yTo) of the values at
 * `values` (`bw` a row; their grid from `neighbourGrid` at `grid`), into `out` from row yFrom on; NaN for a value that
 * is not finite or has fewer than 3 finite neighbours.
 */
export function localDifferences(values: usize, bw: i32, r: i32, grid: usize, yFrom: i32, yTo: i32, out: usize): void {
  const gw = bw + 2 * r, side = 2 * r + 1;
  for (let i: usize = 0; i < 28; i++) store<i32>(WINDOW + (i << 2), SENTINEL);
  const none = i32x4.splat(SENTINEL);
  for (let y = yFrom; y < yTo; y++) {
    for (let x = 0; x < bw; x++) {
      const at = <usize>(y * bw + x) << 2, o = out + (<usize>((y - yFrom) * bw + x) << 2);
      const v = load<f32>(values + at);
      if (!isFinite(v)) {
        store<u32>(o, 0x7fc00000);
        continue;
      }
      const g = grid + (<usize>(y * gw + x) << 2), stride = <usize>gw << 2;
      let c0: v128, c1: v128, c2: v128, c3: v128, c4: v128, c5: v128, c6: v128;
      if (r == 2) {
        // Straight from the grid (no copy, whose scalar stores the vector loads would wait for): columns 0-3 of each
        // row, then column 4 of each row; the block itself (row 2, column 2) a sentinel.
        c0 = v128.load(g); c1 = v128.load(g + stride); c2 = i32x4.replace_lane(v128.load(g + 2 * stride), 2, SENTINEL);
        c3 = v128.load(g + 3 * stride); c4 = v128.load(g + 4 * stride);
        c5 = i32x4.replace_lane(i32x4.replace_lane(i32x4.replace_lane(i32x4.splat(load<i32>(g, 16)), 1, load<i32>(g + stride, 16)), 2, load<i32>(g + 2 * stride, 16)), 3, load<i32>(g + 3 * stride, 16));
        c6 = i32x4.replace_lane(none, 0, load<i32>(g + 4 * stride, 16));
      } else {
        for (let dy = 0; dy < side; dy++) {
          const from = g + <usize>dy * stride, w = WINDOW + (<usize>(dy * 5) << 2);
          for (let dx = 0; dx < side; dx++) store<i32>(w + (<usize>dx << 2), load<i32>(from + (<usize>dx << 2)));
        }
        store<i32>(WINDOW + (<usize>(r * 6) << 2), SENTINEL);
        c0 = v128.load(WINDOW); c1 = v128.load(WINDOW, 16); c2 = v128.load(WINDOW, 32); c3 = v128.load(WINDOW, 48);
        c4 = v128.load(WINDOW, 64); c5 = v128.load(WINDOW, 80); c6 = v128.load(WINDOW, 96);
      }
      // Finite neighbours: lanes that are not sentinels, counted as -1 per lane.
      let finite = i32x4.add(i32x4.add(i32x4.ne(c0, none), i32x4.ne(c1, none)), i32x4.add(i32x4.ne(c2, none), i32x4.ne(c3, none)));
      finite = i32x4.add(finite, i32x4.add(i32x4.add(i32x4.ne(c4, none), i32x4.ne(c5, none)), i32x4.ne(c6, none)));
      finite = i32x4.add(finite, i32x4.shuffle(finite, finite, 2, 3, 0, 1));
      const n = -(i32x4.extract_lane(finite, 0) + i32x4.extract_lane(finite, 1));
      if (n < 3) {
        store<u32>(o, 0x7fc00000);
        continue;
      }
      // Per candidate lane, minus the count of neighbours below it.
      // (Radius 2: the 24 neighbours read from the grid, the block itself skipped; radius 1: the 25 window cells, the
      // block and the unused cells sentinels, which are below no candidate.)
      let n0 = i32x4.splat(0), n1 = n0, n2 = n0, n3 = n0, n4 = n0, n5 = n0, n6 = n0;
      const cells = r == 2 ? g : WINDOW, cellRow = r == 2 ? stride : 20;
      for (let j: usize = 0; j < 25; j++) {
        if (r == 2 && j == 12) continue;
        const s = v128.load32_splat(cells + (j / 5) * cellRow + ((j % 5) << 2));
        n0 = i32x4.add(n0, i32x4.lt_s(s, c0)); n1 = i32x4.add(n1, i32x4.lt_s(s, c1));
        n2 = i32x4.add(n2, i32x4.lt_s(s, c2)); n3 = i32x4.add(n3, i32x4.lt_s(s, c3));
        n4 = i32x4.add(n4, i32x4.lt_s(s, c4)); n5 = i32x4.add(n5, i32x4.lt_s(s, c5));
        n6 = i32x4.add(n6, i32x4.lt_s(s, c6));
      }
      const zero = i32x4.splat(0);
      n0 = i32x4.sub(zero, n0); n1 = i32x4.sub(zero, n1); n2 = i32x4.sub(zero, n2); n3 = i32x4.sub(zero, n3);
      n4 = i32x4.sub(zero, n4); n5 = i32x4.sub(zero, n5); n6 = i32x4.sub(zero, n6);
      const half = n >> 1;
      const upper = <f64>reinterpret<f32>(kth(half + 1, c0, c1, c2, c3, c4, c5, c6, n0, n1, n2, n3, n4, n5, n6));
      const median = n & 1 ? upper : (<f64>reinterpret<f32>(kth(half, c0, c1, c2, c3, c4, c5, c6, n0, n1, n2, n3, n4, n5, n6)) + upper) / 2;
      store<f32>(o, <f32>(<f64>v - median));
    }
  }
}
