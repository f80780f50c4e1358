// The 8-bit path of error level analysis (uint8ErrorRows in src/kernels/errorLevelAnalysis.ts): per pixel the channel
// sum s of |a - b|, its map value s * k, histograms of s (small sums counted by pairs or quadruples) and per-column
// sums of s for the block sums.
// Everything but the map is an integer count or sum, so any order gives the JavaScript values; the map value is a
// float32 product that is exact (the caller takes this path only when every s * k is a float32, see exactLevels), so
// it equals the JavaScript table lookup.
//
// The caller copies a chunk of rows of both images into memory, calls `levels`, then `flushColumns` to turn the
// column sums into block sums, and reads the histograms once at the end of its band.

/** Bytes of one of the four histograms of s (1024 bins of u32: s <= 255 * 4) and of one of the four of pairs. */
const HIST_BYTES: usize = 4096;
/** Bytes of one of the four histograms of quadruples (4096 bins). */
const QUAD_BYTES: usize = 16384;
/** Offsets from `hist` of the pair and quadruple histograms (96 KB in all). */
const PAIRS: usize = 4 * HIST_BYTES, QUADS: usize = 8 * HIST_BYTES;

/** Start of the memory the caller lays out, after this module's static data. */
export function heapBase(): usize {
  return (__heap_base + 15) & ~15;
}

/** |a - b| of 16 bytes. */
@inline function absDiff(a: v128, b: v128): v128 {
  return i8x16.sub(i8x16.max_u(a, b), i8x16.min_u(a, b));
}

/**
 * Map values, column sums and histogram counts of 16 pixels whose sums are s0..s3 (i32x4, pixels 0-3, 4-7, 8-11,
 * 12-15). Sums are counted in fewer increments when small, as nearly all are after a JPEG round trip at the usual
 * qualities: when all 16 are below 8, as 4 quadruples (512 a + 64 b + 8 c + d) in the quadruple histograms; else when
 * all are below 32, as 8 pairs (32 a + b) in the pair histograms; else one by one. The caller adds each position's
 * marginal of the pair and quadruple histograms to the histogram of s. Histogram t of each set of four counts lane t
 * of a vector, so runs of equal values alternate between four counters instead of waiting on one.
 */
@inline function emit(s0: v128, s1: v128, s2: v128, s3: v128, map: usize, col: usize, hist: usize, k: v128): void {
  v128.store(map, f32x4.mul(f32x4.convert_i32x4_s(s0), k));
  v128.store(map, f32x4.mul(f32x4.convert_i32x4_s(s1), k), 16);
  v128.store(map, f32x4.mul(f32x4.convert_i32x4_s(s2), k), 32);
  v128.store(map, f32x4.mul(f32x4.convert_i32x4_s(s3), k), 48);
  v128.store(col, i32x4.add(v128.load(col), s0));
  v128.store(col, i32x4.add(v128.load(col, 16), s1), 16);
  v128.store(col, i32x4.add(v128.load(col, 32), s2), 32);
  v128.store(col, i32x4.add(v128.load(col, 48), s3), 48);
  const any = v128.or(v128.or(s0, s1), v128.or(s2, s3));
  if (!v128.any_true(v128.and(any, i32x4.splat(~7)))) {
    count4q(v128.or(v128.or(i32x4.shl(s0, 9), i32x4.shl(s1, 6)), v128.or(i32x4.shl(s2, 3), s3)), hist + QUADS);
  } else if (!v128.any_true(v128.and(any, i32x4.splat(~31)))) {
    count4(v128.or(i32x4.shl(s0, 5), s1), hist + PAIRS);
    count4(v128.or(i32x4.shl(s2, 5), s3), hist + PAIRS);
  } else {
    count4(s0, hist); count4(s1, hist); count4(s2, hist); count4(s3, hist);
  }
}

/** Counts lane t of `s` in the histogram at `hist` + t * HIST_BYTES (u32 bins). */
@inline function count4(s: v128, hist: usize): void {
  let h = hist + (<usize>i32x4.extract_lane(s, 0) << 2);
  store<u32>(h, load<u32>(h) + 1);
  h = hist + (<usize>i32x4.extract_lane(s, 1) << 2);
  store<u32>(h, load<u32>(h, HIST_BYTES) + 1, HIST_BYTES);
  h = hist + (<usize>i32x4.extract_lane(s, 2) << 2);
  store<u32>(h, load<u32>(h, 2 * HIST_BYTES) + 1, 2 * HIST_BYTES);
  h = hist + (<usize>i32x4.extract_lane(s, 3) << 2);
  store<u32>(h, load<u32>(h, 3 * HIST_BYTES) + 1, 3 * HIST_BYTES);
}

/** `count4` for the quadruple histograms (QUAD_BYTES apart). */
@inline function count4q(s: v128, hist: usize): void {
  let h = hist + (<usize>i32x4.extract_lane(s, 0) << 2);
  store<u32>(h, load<u32>(h) + 1);
  h = hist + (<usize>i32x4.extract_lane(s, 1) << 2);
  store<u32>(h, load<u32>(h, QUAD_BYTES) + 1, QUAD_BYTES);
  h = hist + (<usize>i32x4.extract_lane(s, 2) << 2);
  store<u32>(h, load<u32>(h, 2 * QUAD_BYTES) + 1, 2 * QUAD_BYTES);
  h = hist + (<usize>i32x4.extract_lane(s, 3) << 2);
  store<u32>(h, load<u32>(h, 3 * QUAD_BYTES) + 1, 3 * QUAD_BYTES);
}

/**
 * Byte shuffles that take R, G and B of 4 RGB pixels (12 bytes) to the low byte of four i32 lanes, zeroing the rest
 * (a swizzle index of 0x80 gives 0): one pshufb each, cheaper than deinterleaving 16 pixels with two-input shuffles.
 */
const RGB_LANES: usize = memory.data<u8>([
  0, 0x80, 0x80, 0x80, 3, 0x80, 0x80, 0x80, 6, 0x80, 0x80, 0x80, 9, 0x80, 0x80, 0x80,
  1, 0x80, 0x80, 0x80, 4, 0x80, 0x80, 0x80, 7, 0x80, 0x80, 0x80, 10, 0x80, 0x80, 0x80,
  2, 0x80, 0x80, 0x80, 5, 0x80, 0x80, 0x80, 8, 0x80, 0x80, 0x80, 11, 0x80, 0x80, 0x80,
], 16);

/** Channel sums of |a - b| of 4 RGB pixels at pa and pb (16-byte loads of which 12 are used), as i32x4. */
@inline function rgbSums(pa: usize, pb: usize): v128 {
  const d = absDiff(v128.load(pa), v128.load(pb));
  return i32x4.add(i32x4.add(i8x16.swizzle(d, v128.load(RGB_LANES)), i8x16.swizzle(d, v128.load(RGB_LANES, 16))), i8x16.swizzle(d, v128.load(RGB_LANES, 32)));
}

/** Channel sums of 16 pixels (two i16x8) to four i32x4 and on to `emit`. */
@inline function emit16(lo: v128, hi: v128, map: usize, col: usize, hist: usize, k: v128): void {
  emit(i32x4.extend_low_i16x8_u(lo), i32x4.extend_high_i16x8_u(lo), i32x4.extend_low_i16x8_u(hi), i32x4.extend_high_i16x8_u(hi), map, col, hist, k);
}

/**
 * `rows` rows of `width` pixels of `channels` (1..4) 8-bit samples at `a` and `b`: map values (float32, `k` = the
 * level of s = 1) to `map`, s added to the column sums (u32 per column at `columns`) and counted in the histograms at
 * `hist` (see `emit`; 96 KB). Sixteen pixels per step, the last width % 16 pixels of a row one by one. RGB rows are
 * read 16 bytes at a time from every 12th byte, so up to 4 bytes past a row's end (the caller leaves room).
 */
export function levels(a: usize, b: usize, width: i32, rows: i32, channels: i32, k: f32, map: usize, columns: usize, hist: usize): void {
  const kv = f32x4.splat(k);
  const rowBytes = <usize>(width * channels);
  const vectorEnd = width & ~15;
  for (let r = 0; r < rows; r++) {
    let pa = a + <usize>r * rowBytes, pb = b + <usize>r * rowBytes;
    let m = map + (<usize>(r * width) << 2), col = columns;
    let x = 0;
    if (channels === 3) {
      for (; x < vectorEnd; x += 16, pa += 48, pb += 48, m += 64, col += 64) {
        emit(rgbSums(pa, pb), rgbSums(pa + 12, pb + 12), rgbSums(pa + 24, pb + 24), rgbSums(pa + 36, pb + 36), m, col, hist, kv);
      }
    } else if (channels === 1) {
      for (; x < vectorEnd; x += 16, pa += 16, pb += 16, m += 64, col += 64) {
        const d = absDiff(v128.load(pa), v128.load(pb));
        emit16(i16x8.extend_low_i8x16_u(d), i16x8.extend_high_i8x16_u(d), m, col, hist, kv);
      }
    } else if (channels === 2) {
      for (; x < vectorEnd; x += 16, pa += 32, pb += 32, m += 64, col += 64) {
        const d0 = absDiff(v128.load(pa), v128.load(pb)), d1 = absDiff(v128.load(pa, 16), v128.load(pb, 16));
        emit16(i16x8.extadd_pairwise_i8x16_u(d0), i16x8.extadd_pairwise_i8x16_u(d1), m, col, hist, kv);
      }
    } else {
      for (; x < vectorEnd; x += 16, pa += 64, pb += 64, m += 64, col += 64) {
        const d0 = absDiff(v128.load(pa), v128.load(pb)), d1 = absDiff(v128.load(pa, 16), v128.load(pb, 16));
        const d2 = absDiff(v128.load(pa, 32), v128.load(pb, 32)), d3 = absDiff(v128.load(pa, 48), v128.load(pb, 48));
        emit(
          i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u(d0)), i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u(d1)),
          i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u(d2)), i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u(d3)),
          m, col, hist, kv,
        );
      }
    }
    for (; x < width; x++, m += 4, col += 4) {
      let s = 0;
      for (let c = 0; c < channels; c++, pa++, pb++) {
        const d = <i32>load<u8>(pa) - <i32>load<u8>(pb);
        s += d < 0 ? -d : d;
      }
      store<f32>(m, <f32>s * k);
      store<u32>(col, load<u32>(col) + <u32>s);
      const h = hist + (<usize>(x & 3) * HIST_BYTES) + (<usize>s << 2);
      store<u32>(h, load<u32>(h) + 1);
    }
  }
}

/**
 * Sums of the column sums over each block of `block` columns into `out` (float64 per block, exact: integers far below
 * 2^53), and the column sums back to zero for the next chunk.
 */
export function flushColumns(columns: usize, width: i32, block: i32, out: usize): void {
  for (let x0 = 0, bx = 0; x0 < width; x0 += block, bx++) {
    const x1 = min(width, x0 + block);
    let acc: u64 = 0;
    for (let x = x0; x < x1; x++) {
      const p = columns + (<usize>x << 2);
      acc += <u64>load<u32>(p);
      store<u32>(p, 0);
    }
    store<f64>(out + (<usize>bx << 3), <f64>acc);
  }
}
