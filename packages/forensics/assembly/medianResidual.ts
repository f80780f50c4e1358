// The median residual sweep (src/internal/medianResidualSweep.ts) over a chunk of rows: luma, 3x3 median on the
// luma's int32 bit patterns, residual |Y - median|, its block sums and the candidates for its display quantile, in one
// pass over each row. The caller (src/internal/medianResidualWasm.ts) lays out the memory and copies rows in and
// results out; residuals and block sums equal the JavaScript sweep's bit for bit, and the candidates give the same
// largest values (test/wasmMedianResidual.test.ts).

import { GREY, greyLuma4, INV_255 } from './lib/luma';

/** Entries of the histogram of the candidates' upper 16 bits (sign clear: below 0x8000). */
const BINS: usize = 0x8000;

/** 1 / 85000 as a float64 (the same IEEE division as in JavaScript, folded at compile time). */
const INV_85000: f64 = 1.0 / 85000.0;

/**
 * Byte shuffles that move the int32 lanes set in a 4-bit mask to the front, in order (mask m at offset 16 m): the
 * compaction of one vector of residuals into the candidates.
 */
const COMPACT = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0,
  8, 9, 10, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1, 2, 3, 8, 9, 10, 11, 0, 0, 0, 0, 0, 0, 0, 0,
  4, 5, 6, 7, 8, 9, 10, 11, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 0, 0, 0,
  12, 13, 14, 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1, 2, 3, 12, 13, 14, 15, 0, 0, 0, 0, 0, 0, 0, 0,
  4, 5, 6, 7, 12, 13, 14, 15, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 0, 0, 0, 0,
  8, 9, 10, 11, 12, 13, 14, 15, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 0, 0, 0, 0,
  4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 0, 0, 0,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
], 16);

/** Where the candidates of the last `sweep` end (an address). */
let candidatesEnd: usize = 0;

// The candidates' state over a band (set by `begin`): their histogram of upper 16 bits, how many of the band's largest
// values they must hold (0: every residual is a candidate), the threshold bin, and how many candidates are in it or
// above. Every residual in the threshold bin or above is a candidate: the bin only rises, and only while the
// candidates above it still number `keep` or more.
let histogram: usize = 0, keep: u32 = 0, threshold: i32 = 0, above: u32 = 0;

/** First free byte of memory (16-aligned): the caller lays out its areas from here. */
export function heapBase(): usize {
  return (__heap_base + 15) & ~(<usize>15);
}

/** End (address) of the candidates the last `sweep` wrote. */
export function candidatesAt(): usize {
  return candidatesEnd;
}

/**
 * Starts a band: the candidates' histogram (0x8000 counts) at `counts`, cleared, the number of the band's largest
 * values they must hold (0: all residuals) and the threshold bin to start from (`from`, 0 to collect from the first
 * value; the caller's estimate, which holds only if at least `largest` of the band's values are in it or above).
 */
export function begin(counts: usize, largest: u32, from: i32): void {
  histogram = counts;
  memory.fill(counts, 0, BINS << 2);
  keep = largest;
  threshold = from;
  above = 0;
}

/**
 * The threshold bin at the end of the band: every residual of this bin or above is a candidate and counted in the
 * histogram, and the band's keep-th largest value is in it or above when the histogram counts at least keep values
 * from it up (else the start bin given to `begin` was above the band's keep-th largest).
 */
export function thresholdBin(): i32 {
  return threshold;
}

/**
 * Counts the candidates from `from` to `candidatesEnd` and raises the threshold to the highest bin that has at least
 * `keep` candidates at or above it: the bin of the keep-th largest value so far, which the band's keep-th largest is
 * in or above (values only add up). Updated after every row, so few residuals are collected before the threshold nears
 * its final bin (about keep (1 + ln(n / keep)) of n values).
 */
function countCandidates(from: usize): void {
  for (let p = from; p < candidatesEnd; p += 4) {
    const q = histogram + ((<usize>load<u32>(p) >> 16) << 2);
    store<u32>(q, load<u32>(q) + 1);
  }
  above += <u32>((candidatesEnd - from) >> 2);
  if (keep == 0) return;
  while (threshold < <i32>BINS - 1) {
    const here = load<u32>(histogram + (<usize>threshold << 2));
    if (above - here < keep) break;
    above -= here;
    threshold++;
  }
}

/**
 * Unrounded studio luma of `count` 8-bit pixels (`channels` 1 to 4) from `src` into `dst` as float32, 4 at a time.
 * RGB pixels: the exact integer m = 21827 R + 42851 G + 8322 B (a third of 65481 R + 128553 G + 24966 B; two int16
 * dot products, 42851 G as 21426 G + 21425 G), then 16 + m * (1 / 85000) in float64 rounded to float32, which equals
 * `lumaBytes`' float32 of 16 + ((65.481 R + 128.553 G) + 24.966 B) * INV_255 for every one of the 2^24 colours
 * (checked exhaustively by test/wasmMedianResidual.test.ts) in a third of the float64 operations. Grey pixels: the
 * same operations as `lumaBytes`. Writes up to 3 values past `count` and reads up to 16 bytes past the last pixel.
 */
export function luma(src: usize, channels: i32, count: i32, dst: usize): void {
  const step = <usize>(channels << 2);
  const inv = f64x2.splat(INV_255), sixteen = f64x2.splat(16);
  if (channels >= 3) {
    // Bytes R, G (and G, B) of pixel k into the two int16 halves of 32-bit lane k (indices of -1 give zero bytes).
    const rg = channels == 3 ? i8x16(0, -1, 1, -1, 3, -1, 4, -1, 6, -1, 7, -1, 9, -1, 10, -1) : i8x16(0, -1, 1, -1, 4, -1, 5, -1, 8, -1, 9, -1, 12, -1, 13, -1);
    const gb = channels == 3 ? i8x16(1, -1, 2, -1, 4, -1, 5, -1, 7, -1, 8, -1, 10, -1, 11, -1) : i8x16(1, -1, 2, -1, 5, -1, 6, -1, 9, -1, 10, -1, 13, -1, 14, -1);
    const w1 = i16x8(21827, 21426, 21827, 21426, 21827, 21426, 21827, 21426), w2 = i16x8(21425, 8322, 21425, 8322, 21425, 8322, 21425, 8322);
    const k = f64x2.splat(INV_85000);
    for (let x = 0, p = src, q = dst; x < count; x += 4, p += step, q += 16) {
      const v = v128.load(p);
      const m = i32x4.add(i32x4.dot_i16x8_s(i8x16.swizzle(v, rg), w1), i32x4.dot_i16x8_s(i8x16.swizzle(v, gb), w2));
      const lo = f64x2.add(sixteen, f64x2.mul(f64x2.convert_low_i32x4_s(m), k));
      const hi = f64x2.add(sixteen, f64x2.mul(f64x2.convert_low_i32x4_s(i32x4.shuffle(m, m, 2, 3, 2, 3)), k));
      v128.store(q, i32x4.shuffle(f32x4.demote_f64x2_zero(lo), f32x4.demote_f64x2_zero(hi), 0, 1, 4, 5));
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
 * values added to the sums of its blocks, row ((bandRow + k) / block - blockRow) of `sums` (`blocksWide` float64 per
 * row), and those in the threshold bin or above (see `begin`) appended in order at `candidates` (their end:
 * `candidatesAt()`), the threshold raised after each row.
 *
 * Sums: with `exact` the residuals of a block row are added column by column as integers (each residual is a multiple
 * of 2^-19 below 256, see `exactRange`) and the column totals folded into the block sums: every partial sum is then
 * exact in float64, so any order gives the sum in pixel order bit for bit. Without it, each block's values are added in
 * pixel order as float64 (the JavaScript sweep's order). `columns` holds `width + 4` int32 column totals, zero
 * between calls. Returns the OR of every luma sample read: negative when one has its sign bit set.
 */
export function sweep(input: usize, channels: i32, width: i32, inRows: i32, lumaArea: usize, stride: i32, first: i32, outRows: i32, residual: usize, bandRow: i32, block: i32, blockRow: i32, sums: usize, blocksWide: i32, exact: bool, columns: usize, candidates: usize): i32 {
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
  candidatesEnd = candidates;
  // Rows of the current block row whose residuals are in `columns` (at most 16: 16 * 240 * 2^19 < 2^31).
  let pending = 0, dense = true;
  for (let k = 0; k < outRows; k++) {
    const m = first + k;
    const pu = rows + <usize>(m > 0 ? m - 1 : 0) * rowBytes, pm = rows + <usize>m * rowBytes, pd = rows + <usize>(m + 1 < inRows ? m + 1 : inRows - 1) * rowBytes;
    const out = residual + <usize>k * (w << 2);
    const blockSums = sums + <usize>((bandRow + k) / block - blockRow) * <usize>blocksWide * 8;
    const rowCandidates = candidatesEnd;
    signs = v128.or(signs, medianRow(pu, pm, pd, width, out, exact ? columns : 0, <u32>threshold << 16, dense));
    countCandidates(rowCandidates);
    // More than one residual in 8 a candidate: the next row compacts every vector without asking (see medianRow).
    dense = <i32>((candidatesEnd - rowCandidates) >> 2) > (width >> 3);
    if (!exact) orderedSums(out, width, block, blockSums);
    else if (++pending == 16 || (bandRow + k + 1) % block == 0 || k + 1 == outRows) {
      foldColumns(columns, width, block, blockSums);
      pending = 0;
    }
  }
  return i32x4.extract_lane(signs, 0) | i32x4.extract_lane(signs, 1) | i32x4.extract_lane(signs, 2) | i32x4.extract_lane(signs, 3);
}

/**
 * Whether the `count` float32 samples at `values` all lie in [16, 256): the luma of 8-bit pixels always does. Their
 * residuals |y - median| are then multiples of 2^-19 (the spacing of float32 from 16 on; a difference below 16 needs at
 * most 23 significant bits, one of 16 or more rounds to a multiple of its own larger spacing) below 240, so a block of
 * up to 1024 x 1024 of them sums to less than 2^46 units of 2^-19: exact in float64 in any order.
 */
export function exactRange(values: usize, count: i32): bool {
  let lo = i32x4.splat(0x41800000), hi = i32x4.splat(0);
  let p = values;
  const end = values + (<usize>count << 2);
  for (; p + 16 <= end; p += 16) {
    const v = v128.load(p);
    lo = i32x4.min_s(lo, v);
    hi = i32x4.max_s(hi, v);
  }
  let l = min(min(i32x4.extract_lane(lo, 0), i32x4.extract_lane(lo, 1)), min(i32x4.extract_lane(lo, 2), i32x4.extract_lane(lo, 3)));
  let h = max(max(i32x4.extract_lane(hi, 0), i32x4.extract_lane(hi, 1)), max(i32x4.extract_lane(hi, 2), i32x4.extract_lane(hi, 3)));
  for (; p < end; p += 4) { const v = load<i32>(p); l = min(l, v); h = max(h, v); }
  return l >= 0x41800000 && h < 0x43800000;
}

/**
 * The residual |Y - median3x3| of one row into `out` (up to 3 values past `width`), four outputs at a time: the
 * columns of three sorted (low, middle, high) with i32x4 min/max on the bit patterns (which order like the values when
 * non-negative), the window's column neighbours shuffled in from the previous and next vectors, and Paeth's median of
 * the max of the lows, the median of the middles and the min of the highs, as `medianRow` in JavaScript. With
 * `columns` (not 0) each residual times 2^19 (an integer, see `exactRange`) is added to its column's total; residuals
 * whose bits are `threshold` or more are appended at `candidatesEnd` (`dense`: without a branch on each vector).
 * Returns the OR of the samples read, lane by lane.
 */
function medianRow(pu: usize, pm: usize, pd: usize, width: i32, out: usize, columns: usize, threshold: u32, dense: bool): v128 {
  // Columns -4..-1 (only -1, the left border copy, is used), then 0..3.
  let a = v128.load(pu - 16), b = v128.load(pm - 16), c = v128.load(pd - 16);
  let ab = i32x4.min_s(a, b), AB = i32x4.max_s(a, b);
  let pLo = i32x4.min_s(ab, c), pHi = i32x4.max_s(AB, c), pMi = i32x4.max_s(ab, i32x4.min_s(AB, c));
  a = v128.load(pu); b = v128.load(pm); c = v128.load(pd);
  let signs = v128.or(v128.or(a, b), c);
  ab = i32x4.min_s(a, b); AB = i32x4.max_s(a, b);
  let cLo = i32x4.min_s(ab, c), cHi = i32x4.max_s(AB, c), cMi = i32x4.max_s(ab, i32x4.min_s(AB, c));
  const t = i32x4.splat(<i32>threshold), scale = f32x4.splat(524288);
  // The last vector's lanes past the row end are not residuals of the row: masked out of the candidates.
  const whole = <usize>(width & ~3) << 2, end = <usize>width << 2;
  const lastValid = i32x4.lt_s(i32x4(0, 1, 2, 3), i32x4.splat(width & 3));
  let cand = candidatesEnd;
  for (let o: usize = 0; o < end; o += 16) {
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
    const r = f32x4.abs(f32x4.sub(v128.load(pm + o), median));
    v128.store(out + o, r);
    if (columns != 0) v128.store(columns + o, i32x4.add(v128.load(columns + o), i32x4.trunc_sat_f32x4_s(f32x4.mul(r, scale))));
    let hit = i32x4.ge_u(r, t);
    if (o >= whole) hit = v128.and(hit, lastValid);
    // Where candidates are dense (the first rows, a map whose threshold bin holds many equal residuals) a branch on
    // each vector would mispredict about half the time: every vector is compacted, none of its lanes possibly kept.
    if (dense || v128.any_true(hit)) {
      const mask = i32x4.bitmask(hit);
      v128.store(cand, i8x16.swizzle(r, v128.load(COMPACT + (<usize>mask << 4))));
      cand += <usize>popcnt<u32>(mask) << 2;
    }
    pLo = cLo; pMi = cMi; pHi = cHi;
    cLo = nLo; cMi = nMi; cHi = nHi;
  }
  candidatesEnd = cand;
  return signs;
}

// @ts-ignore: decorator
@inline function median3(a: v128, b: v128, c: v128): v128 {
  return i32x4.max_s(i32x4.min_s(a, b), i32x4.min_s(i32x4.max_s(a, b), c));
}

/** The column totals at `columns` (units of 2^-19) added to the sums of their blocks at `sums`, and cleared. */
function foldColumns(columns: usize, width: i32, block: i32, sums: usize): void {
  for (let x0 = 0, s = sums; x0 < width; x0 += block, s += 8) {
    let total: i64 = 0;
    for (let p = columns + (<usize>x0 << 2), end = columns + (<usize>min(x0 + block, width) << 2); p < end; p += 4) {
      total += <i64>load<i32>(p);
      store<i32>(p, 0);
    }
    store<f64>(s, load<f64>(s) + <f64>total * 0.0000019073486328125);
  }
  // The lanes past the row end of the last vector.
  for (let x = width; x < ((width + 3) & ~3); x++) store<i32>(columns + (<usize>x << 2), 0);
}

/**
 * One row's residuals (`width` at `row`) added to the block sums at `sums`, each block's values in pixel order as
 * float64 (the JavaScript sweep's order), four blocks at a time: four independent chains of additions instead of one.
 */
function orderedSums(row: usize, width: i32, block: i32, sums: usize): void {
  const span = <usize>block << 2;
  let x0 = 0, s = sums;
  for (; x0 + 4 * block <= width; x0 += 4 * block, s += 32) {
    let s0 = load<f64>(s), s1 = load<f64>(s, 8), s2 = load<f64>(s, 16), s3 = load<f64>(s, 24);
    for (let p = row + (<usize>x0 << 2), end = p + span; p < end; p += 4) {
      s0 += <f64>load<f32>(p);
      s1 += <f64>load<f32>(p + span);
      s2 += <f64>load<f32>(p + 2 * span);
      s3 += <f64>load<f32>(p + 3 * span);
    }
    store<f64>(s, s0); store<f64>(s, s1, 8); store<f64>(s, s2, 16); store<f64>(s, s3, 24);
  }
  for (; x0 < width; x0 += block, s += 8) {
    let s0 = load<f64>(s);
    for (let p = row + (<usize>x0 << 2), end = row + (<usize>min(x0 + block, width) << 2); p < end; p += 4) s0 += <f64>load<f32>(p);
    store<f64>(s, s0);
  }
}
