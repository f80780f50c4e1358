// Bilinear re-interpolation errors of 8-bit images under the four Bayer layouts (the integer path of
// src/internal/bayerErrors.ts): per block, channel, parity class and estimate, the sum of squared errors, and the
// moments of the samples. Every value is an integer below 2^53, so sums in any order equal the JavaScript float64
// sums; the float64 arithmetic of `finish` is the JavaScript one, operation for operation.
//
// The caller copies the interleaved rows of a chunk of pixel rows (and the rows above and below it) into memory;
// `accumulate` splits each into planes of one channel and one column parity (even x, odd x), so that a vector holds
// pixels of one parity class, and walks each block's columns down the rows of one parity, 8 even and 8 odd pixels a
// step, with the sums in int32 lanes (only a block's last, partial vector needs lane masks). `finish` turns a
// complete row of blocks into standard deviations and per-layout mean errors.

/** Start of the memory the caller lays out, after this module's static data. */
export function heapBase(): usize {
  return (__heap_base + 15) & ~15;
}

/**
 * Bytes of one plane: element i (pixel 2i or 2i + 1) at 16 + i, so that i = -1 (the mirrored left pad) and the right
 * pad are in it, plus slack for the 8-byte loads of a span's last vector that run past the row.
 */
@inline function planeStride(width: i32): usize {
  return <usize>((((width + 1) >> 1) + 47) & ~15);
}

/** Bytes of one padded row in planes: the even and odd plane of each channel used (at most 3). */
export function rowPlaneBytes(width: i32, channels: i32): usize {
  return planeStride(width) * 2 * <usize>min(channels, 3);
}

/** Channel c of 16 pixels of 1 interleaved channel at s: even pixels in lanes 0-7, odd in 8-15. */
@inline function deal1(s: usize, channel: i32): v128 {
  const a = v128.load(s);
  return i8x16.swizzle(a, i8x16(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15));
}

/** Channel c of 16 pixels of 2 interleaved channels at s: even pixels in lanes 0-7, odd in 8-15. */
@inline function deal2(s: usize, channel: i32): v128 {
  const a = v128.load(s), b = v128.load(s, 16);
  if (channel == 0) return v128.or(i8x16.swizzle(a, i8x16(0, 4, 8, 12, -1, -1, -1, -1, 2, 6, 10, 14, -1, -1, -1, -1)), i8x16.swizzle(b, i8x16(-1, -1, -1, -1, 0, 4, 8, 12, -1, -1, -1, -1, 2, 6, 10, 14)));
  return v128.or(i8x16.swizzle(a, i8x16(1, 5, 9, 13, -1, -1, -1, -1, 3, 7, 11, 15, -1, -1, -1, -1)), i8x16.swizzle(b, i8x16(-1, -1, -1, -1, 1, 5, 9, 13, -1, -1, -1, -1, 3, 7, 11, 15)));
}

/** Channel c of 16 pixels of 3 interleaved channels at s: even pixels in lanes 0-7, odd in 8-15. */
@inline function deal3(s: usize, channel: i32): v128 {
  const a = v128.load(s), b = v128.load(s, 16), c = v128.load(s, 32);
  if (channel == 0) return v128.or(v128.or(i8x16.swizzle(a, i8x16(0, 6, 12, -1, -1, -1, -1, -1, 3, 9, 15, -1, -1, -1, -1, -1)), i8x16.swizzle(b, i8x16(-1, -1, -1, 2, 8, 14, -1, -1, -1, -1, -1, 5, 11, -1, -1, -1))), i8x16.swizzle(c, i8x16(-1, -1, -1, -1, -1, -1, 4, 10, -1, -1, -1, -1, -1, 1, 7, 13)));
  if (channel == 1) return v128.or(v128.or(i8x16.swizzle(a, i8x16(1, 7, 13, -1, -1, -1, -1, -1, 4, 10, -1, -1, -1, -1, -1, -1)), i8x16.swizzle(b, i8x16(-1, -1, -1, 3, 9, 15, -1, -1, -1, -1, 0, 6, 12, -1, -1, -1))), i8x16.swizzle(c, i8x16(-1, -1, -1, -1, -1, -1, 5, 11, -1, -1, -1, -1, -1, 2, 8, 14)));
  return v128.or(v128.or(i8x16.swizzle(a, i8x16(2, 8, 14, -1, -1, -1, -1, -1, 5, 11, -1, -1, -1, -1, -1, -1)), i8x16.swizzle(b, i8x16(-1, -1, -1, 4, 10, -1, -1, -1, -1, -1, 1, 7, 13, -1, -1, -1))), i8x16.swizzle(c, i8x16(-1, -1, -1, -1, -1, 0, 6, 12, -1, -1, -1, -1, -1, 3, 9, 15)));
}

/** Channel c of 16 pixels of 4 interleaved channels at s: even pixels in lanes 0-7, odd in 8-15. */
@inline function deal4(s: usize, channel: i32): v128 {
  const a = v128.load(s), b = v128.load(s, 16), c = v128.load(s, 32), d = v128.load(s, 48);
  if (channel == 0) return v128.or(v128.or(v128.or(i8x16.swizzle(a, i8x16(0, 8, -1, -1, -1, -1, -1, -1, 4, 12, -1, -1, -1, -1, -1, -1)), i8x16.swizzle(b, i8x16(-1, -1, 0, 8, -1, -1, -1, -1, -1, -1, 4, 12, -1, -1, -1, -1))), i8x16.swizzle(c, i8x16(-1, -1, -1, -1, 0, 8, -1, -1, -1, -1, -1, -1, 4, 12, -1, -1))), i8x16.swizzle(d, i8x16(-1, -1, -1, -1, -1, -1, 0, 8, -1, -1, -1, -1, -1, -1, 4, 12)));
  if (channel == 1) return v128.or(v128.or(v128.or(i8x16.swizzle(a, i8x16(1, 9, -1, -1, -1, -1, -1, -1, 5, 13, -1, -1, -1, -1, -1, -1)), i8x16.swizzle(b, i8x16(-1, -1, 1, 9, -1, -1, -1, -1, -1, -1, 5, 13, -1, -1, -1, -1))), i8x16.swizzle(c, i8x16(-1, -1, -1, -1, 1, 9, -1, -1, -1, -1, -1, -1, 5, 13, -1, -1))), i8x16.swizzle(d, i8x16(-1, -1, -1, -1, -1, -1, 1, 9, -1, -1, -1, -1, -1, -1, 5, 13)));
  return v128.or(v128.or(v128.or(i8x16.swizzle(a, i8x16(2, 10, -1, -1, -1, -1, -1, -1, 6, 14, -1, -1, -1, -1, -1, -1)), i8x16.swizzle(b, i8x16(-1, -1, 2, 10, -1, -1, -1, -1, -1, -1, 6, 14, -1, -1, -1, -1))), i8x16.swizzle(c, i8x16(-1, -1, -1, -1, 2, 10, -1, -1, -1, -1, -1, -1, 6, 14, -1, -1))), i8x16.swizzle(d, i8x16(-1, -1, -1, -1, -1, -1, 2, 10, -1, -1, -1, -1, -1, -1, 6, 14)));
}

/** Two `deal` results (32 pixels) as 16 bytes of the even plane at dst and 16 of the odd plane at dst + ps. */
@inline function store32(dst: usize, ps: usize, lo: v128, hi: v128): void {
  v128.store(dst, i64x2.shuffle(lo, hi, 0, 2));
  v128.store(dst + ps, i64x2.shuffle(lo, hi, 1, 3));
}

/**
 * One interleaved row s into planes at dst, with the mirrored pads of JavaScript's `MirroredPixelRows` (pixel -1
 * reads pixel 1, pixel `width` reads width - 2): odd plane [-1] and, past the last pixel, the plane of pixel `width`.
 * 32 pixels a step, so each plane gets whole 16-byte stores (8-byte lane stores cost V8 several times as much).
 */
function splitRow(s: usize, dst: usize, width: i32, channels: i32): void {
  const ps = planeStride(width), np = min(channels, 3);
  const planes = dst + 16;
  let x = 0;
  if (channels == 3) {
    for (; x + 32 <= width; x += 32) {
      const p = s + <usize>(x * 3), d = planes + <usize>(x >> 1);
      const r0 = deal3(p, 0), r1 = deal3(p, 1), r2 = deal3(p, 2), R0 = deal3(p + 48, 0), R1 = deal3(p + 48, 1), R2 = deal3(p + 48, 2);
      store32(d, ps, r0, R0); store32(d + 2 * ps, ps, r1, R1); store32(d + 4 * ps, ps, r2, R2);
    }
  } else if (channels == 4) {
    for (; x + 32 <= width; x += 32) {
      const p = s + <usize>(x * 4), d = planes + <usize>(x >> 1);
      const r0 = deal4(p, 0), r1 = deal4(p, 1), r2 = deal4(p, 2), R0 = deal4(p + 64, 0), R1 = deal4(p + 64, 1), R2 = deal4(p + 64, 2);
      store32(d, ps, r0, R0); store32(d + 2 * ps, ps, r1, R1); store32(d + 4 * ps, ps, r2, R2);
    }
  } else if (channels == 2) {
    for (; x + 32 <= width; x += 32) {
      const p = s + <usize>(x * 2), d = planes + <usize>(x >> 1);
      const r0 = deal2(p, 0), r1 = deal2(p, 1), R0 = deal2(p + 32, 0), R1 = deal2(p + 32, 1);
      store32(d, ps, r0, R0); store32(d + 2 * ps, ps, r1, R1);
    }
  } else {
    for (; x + 32 <= width; x += 32) store32(planes + <usize>(x >> 1), ps, deal1(s + <usize>x, 0), deal1(s + <usize>(x + 16), 0));
  }
  for (; x < width; x++) {
    for (let c = 0; c < np; c++) store<u8>(planes + <usize>(c * 2 + (x & 1)) * ps + <usize>(x >> 1), load<u8>(s + <usize>(x * channels + c)));
  }
  for (let c = 0; c < np; c++) {
    const even = planes + <usize>(c * 2) * ps, odd = even + ps;
    store<u8>(odd - 1, load<u8>(odd));
    if (width & 1) store<u8>(odd + <usize>(width >> 1), load<u8>(odd + <usize>((width >> 1) - 1)));
    else store<u8>(even + <usize>(width >> 1), load<u8>(even + <usize>((width >> 1) - 1)));
  }
}

/** Lanes below k set (i16x8), for a span's last, partial vector. */
@inline function laneMask(k: i32): v128 {
  return i16x8.lt_s(i16x8(0, 1, 2, 3, 4, 5, 6, 7), i16x8.splat(<i16>k));
}

/** [sum of a's lanes, of b's, of c's, of d's] (each below 2^31: a column holds at most 64 rows). */
@inline function laneSums(a: v128, b: v128, c: v128, d: v128): v128 {
  const ab = i32x4.add(i32x4.shuffle(a, b, 0, 4, 1, 5), i32x4.shuffle(a, b, 2, 6, 3, 7));
  const cd = i32x4.add(i32x4.shuffle(c, d, 0, 4, 1, 5), i32x4.shuffle(c, d, 2, 6, 3, 7));
  return i32x4.add(i32x4.shuffle(ab, cd, 0, 1, 4, 5), i32x4.shuffle(ab, cd, 2, 3, 6, 7));
}

@inline function addF64(p: usize, v: i32): void {
  store<f64>(p, load<f64>(p) + <f64>v);
}

/** Adds lanes 0 and 1 of v to the float64 pair at p. */
@inline function addF64Pair(p: usize, v: v128): void {
  v128.store(p, f64x2.add(v128.load(p), f64x2.convert_low_i32x4_s(v)));
}

@inline function square(e: v128): v128 {
  return i32x4.dot_i16x8_s(e, e);
}

/**
 * Red or blue over one vector column (8 even and 8 odd pixels) of `rows` rows, `step` bytes apart: at e the even
 * plane of the row from element i, at o its odd plane from element i - 1, at eu, ou, ed, od those of the rows above
 * and below. Errors of the horizontal, vertical and diagonal estimates, rounded as (s + 1) >> 1 (avgr_u) and
 * (s + 2) >> 2, squared and summed into `sums` (the even class's at 0, the odd's at 32) and the moments into
 * `moments`. `Masked` (i32) keeps only the lanes of `even` and `odd` (a span's last vector); i64 does not mask.
 */
function redBlueColumn<Masked>(e: usize, o: usize, eu: usize, ou: usize, ed: usize, od: usize, step: usize, rows: i32, even: v128, odd: v128, sums: usize, moments: usize): void {
  let he = i32x4.splat(0), ve = he, de = he, ho = he, vo = he, dO = he, m1 = he, m2 = he;
  const two = i16x8.splat(2);
  // The row above the next row (two rows down) is this row's row below: its values carry over.
  let ue = v128.load8x8_u(eu), uer = v128.load8x8_u(eu, 1), uol = v128.load8x8_u(ou), uo = v128.load8x8_u(ou, 1);
  for (let r = 0; r < rows; r++) {
    // Sample x of the row is C, its left neighbour x - 1 and right x + 1; e/o suffixes: even/odd pixels' values.
    let ce = v128.load8x8_u(e), co = v128.load8x8_u(o, 1);
    const cer = v128.load8x8_u(e, 1), col = v128.load8x8_u(o);
    const dE = v128.load8x8_u(ed), der = v128.load8x8_u(ed, 1), dol = v128.load8x8_u(od), dOdd = v128.load8x8_u(od, 1);
    const se = i16x8.add(ue, dE), so = i16x8.add(uo, dOdd), ser = i16x8.add(uer, der), sol = i16x8.add(uol, dol);
    let ehe = i16x8.sub(ce, i16x8.avgr_u(col, co)), eho = i16x8.sub(co, i16x8.avgr_u(ce, cer));
    let eve = i16x8.sub(ce, i16x8.avgr_u(ue, dE)), evo = i16x8.sub(co, i16x8.avgr_u(uo, dOdd));
    let ede = i16x8.sub(ce, i16x8.shr_u(i16x8.add(i16x8.add(sol, so), two), 2));
    let edo = i16x8.sub(co, i16x8.shr_u(i16x8.add(i16x8.add(se, ser), two), 2));
    if (sizeof<Masked>() == 4) {
      ce = v128.and(ce, even); ehe = v128.and(ehe, even); eve = v128.and(eve, even); ede = v128.and(ede, even);
      co = v128.and(co, odd); eho = v128.and(eho, odd); evo = v128.and(evo, odd); edo = v128.and(edo, odd);
    }
    he = i32x4.add(he, square(ehe)); ve = i32x4.add(ve, square(eve)); de = i32x4.add(de, square(ede));
    ho = i32x4.add(ho, square(eho)); vo = i32x4.add(vo, square(evo)); dO = i32x4.add(dO, square(edo));
    // At most 32 rows of 2 samples: the sum of the samples fits int16 lanes.
    m1 = i16x8.add(m1, i16x8.add(ce, co));
    m2 = i32x4.add(m2, i32x4.add(square(ce), square(co)));
    ue = dE; uer = der; uol = dol; uo = dOdd;
    e += step; o += step; ed += step; od += step;
  }
  const a = laneSums(he, ve, de, m2), b = laneSums(ho, vo, dO, i32x4.extadd_pairwise_i16x8_u(m1));
  addF64Pair(sums, a); addF64(sums + 16, i32x4.extract_lane(a, 2));
  addF64Pair(sums + 32, b); addF64(sums + 48, i32x4.extract_lane(b, 2));
  addF64(moments, i32x4.extract_lane(b, 3)); addF64(moments + 8, i32x4.extract_lane(a, 3));
}

/** Green over one vector column: error of the cross estimate (u + d + l + r + 2) >> 2, as `redBlueColumn`. */
function greenColumn<Masked>(e: usize, o: usize, eu: usize, ou: usize, ed: usize, od: usize, step: usize, rows: i32, even: v128, odd: v128, sums: usize, moments: usize): void {
  let ge = i32x4.splat(0), go = ge, m1 = ge, m2 = ge;
  const two = i16x8.splat(2);
  let ue = v128.load8x8_u(eu), uo = v128.load8x8_u(ou, 1);
  for (let r = 0; r < rows; r++) {
    let ce = v128.load8x8_u(e), co = v128.load8x8_u(o, 1);
    const dE = v128.load8x8_u(ed), dOdd = v128.load8x8_u(od, 1);
    const ae = i16x8.add(i16x8.add(v128.load8x8_u(o), co), i16x8.add(ue, dE));
    const ao = i16x8.add(i16x8.add(ce, v128.load8x8_u(e, 1)), i16x8.add(uo, dOdd));
    let eE = i16x8.sub(ce, i16x8.shr_u(i16x8.add(ae, two), 2)), eO = i16x8.sub(co, i16x8.shr_u(i16x8.add(ao, two), 2));
    if (sizeof<Masked>() == 4) {
      ce = v128.and(ce, even); eE = v128.and(eE, even); co = v128.and(co, odd); eO = v128.and(eO, odd);
    }
    ge = i32x4.add(ge, square(eE)); go = i32x4.add(go, square(eO));
    m1 = i16x8.add(m1, i16x8.add(ce, co));
    m2 = i32x4.add(m2, i32x4.add(square(ce), square(co)));
    ue = dE; uo = dOdd;
    e += step; o += step; ed += step; od += step;
  }
  const a = laneSums(ge, go, i32x4.extadd_pairwise_i16x8_u(m1), m2);
  addF64(sums + 24, i32x4.extract_lane(a, 0)); addF64(sums + 56, i32x4.extract_lane(a, 1));
  addF64(moments, i32x4.extract_lane(a, 2)); addF64(moments + 8, i32x4.extract_lane(a, 3));
}

/**
 * Adds rows [ya, yb) of one row of blocks (`block` even) to the block sums: `sums` [(bx * 3 + c) * 16 + cls * 4 +
 * estimate] and `moments` [(bx * 3 + c) * 2 + 0|1] (float64, the layout of the JavaScript `BlockRowSums`). `planes`
 * has room for yb - ya + 2 rows of `rowPlaneBytes`: rows ya - 1 .. yb, mirrored at the image's edges. When the
 * previous call ended at ya, `kept` is the index of its row ya - 1 in `planes`, whose two rows are reused (else -1);
 * `src` holds the interleaved image rows the others need, from row `srcFirst` on. At most 64 rows a call: a column's
 * sum of samples stays in int16 lanes (32 rows of a parity x 2 x 255).
 */
export function accumulate(src: usize, srcFirst: i32, ya: i32, yb: i32, height: i32, width: i32, channels: i32, block: i32, planes: usize, sums: usize, moments: usize, kept: i32): void {
  const ps = planeStride(width), rowBytes = rowPlaneBytes(width, channels), np = min(channels, 3);
  const slots = yb - ya + 2;
  if (kept >= 0) memory.copy(planes, planes + <usize>kept * rowBytes, 2 * rowBytes);
  for (let j = kept >= 0 ? 2 : 0; j < slots; j++) {
    const y = ya - 1 + j;
    if (y >= 0 && y < height) splitRow(src + <usize>(y - srcFirst) * <usize>(width * channels), planes + <usize>j * rowBytes, width, channels);
  }
  // Rows -1 and `height` are copies of rows 1 and height - 2, both among this call's rows (blocks are 2 rows or more).
  if (ya == 0) memory.copy(planes, planes + 2 * rowBytes, rowBytes);
  if (yb == height) memory.copy(planes + <usize>(slots - 1) * rowBytes, planes + <usize>(slots - 3) * rowBytes, rowBytes);
  const all = i32x4.splat(-1);
  for (let yp = 0; yp < 2; yp++) {
    const yFirst = ya + ((ya ^ yp) & 1);
    if (yFirst >= yb) continue;
    const rows = (yb - yFirst + 1) >> 1, step = 2 * rowBytes;
    const row = planes + <usize>(yFirst - ya + 1) * rowBytes + 16;
    for (let c = 0; c < 3; c++) {
      const even = row + <usize>(min(c, np - 1) * 2) * ps, odd = even + ps - 1;
      for (let bx = 0, x0 = 0; x0 < width; bx++, x0 += block) {
        const span = min(width, x0 + block) - x0, ne = (span + 1) >> 1, no = span >> 1;
        const s = sums + <usize>(((bx * 3 + c) * 16 + yp * 8) * 8), m = moments + <usize>((bx * 3 + c) * 16);
        for (let j = 0; j < ne; j += 8) {
          const e = even + <usize>((x0 >> 1) + j), o = odd + <usize>((x0 >> 1) + j);
          const eu = e - rowBytes, ou = o - rowBytes, ed = e + rowBytes, od = o + rowBytes;
          if (c == 1) {
            if (j + 8 <= no) greenColumn<i64>(e, o, eu, ou, ed, od, step, rows, all, all, s, m);
            else greenColumn<i32>(e, o, eu, ou, ed, od, step, rows, laneMask(ne - j), laneMask(no - j), s, m);
          } else {
            if (j + 8 <= no) redBlueColumn<i64>(e, o, eu, ou, ed, od, step, rows, all, all, s, m);
            else redBlueColumn<i32>(e, o, eu, ou, ed, od, step, rows, laneMask(ne - j), laneMask(no - j), s, m);
          }
        }
      }
    }
  }
}

/** Sum of the terms of layout k, channel c (kc = k * 3 + c) in a block's sums, from 0 in table order. */
@inline function termSum(sums: usize, terms: usize, kc: i32): f64 {
  let s = 0.0;
  for (let t = 0; t < 4; t++) {
    const offset = load<i32>(terms + <usize>((kc * 4 + t) * 4));
    if (offset >= 0) s += load<f64>(sums + <usize>(offset * 8));
  }
  return s;
}

@inline function pair(a: f64, b: f64): v128 {
  return f64x2.replace_lane(f64x2.splat(a), 1, b);
}

/**
 * Standard deviations and per-layout mean errors of a row of `blocks` blocks whose sums hold `rows` pixel rows, as
 * JavaScript's `BlockRowSums.finish` (the same operations, two lanes at a time: f64x2 division, square root and max
 * round each lane as the scalar ones): out [b * 3 + c] the std, then for each layout k at (k + 1) * blocks * 3 its
 * errors; `terms` [(k * 3 + c) * 4 + t] the offsets of a layout's terms in a block's 48 sums (-1: none). Clears the
 * sums and moments for the next row of blocks.
 */
export function finish(sums: usize, moments: usize, blocks: i32, width: i32, block: i32, rows: i32, terms: usize, out: usize): void {
  const nb = <usize>(blocks * 3);
  for (let bx = 0; bx < blocks; bx++) {
    const x0 = bx * block, n = <f64>(min(width, x0 + block) - x0) * <f64>rows, nv = f64x2.splat(n);
    const m = moments + <usize>(bx * 48), s = sums + <usize>(bx * 384), o = out + <usize>(bx * 24);
    if (n > 1) {
      // Moments (sum, sum of squares) of channels 0 and 1 as vectors, channel 2 alone.
      const p0 = v128.load(m), p1 = v128.load(m, 16), n1 = n - 1;
      const mean = f64x2.div(f64x2.shuffle(p0, p1, 0, 2), nv);
      const variance = f64x2.div(f64x2.sub(f64x2.shuffle(p0, p1, 1, 3), f64x2.mul(f64x2.mul(nv, mean), mean)), f64x2.splat(n1));
      v128.store(o, f64x2.sqrt(f64x2.max(f64x2.splat(0), variance)));
      const mean2 = load<f64>(m, 32) / n;
      store<f64>(o, sqrt<f64>(max<f64>(0, (load<f64>(m, 40) - n * mean2 * mean2) / n1)), 16);
    } else {
      v128.store(o, f64x2.splat(0)); store<f64>(o, 0, 16);
    }
    for (let k = 0; k < 4; k += 2) {
      const e0 = out + (<usize>(k + 1) * nb + <usize>(bx * 3)) * 8, e1 = e0 + nb * 8;
      v128.store(e0, f64x2.div(pair(termSum(s, terms, k * 3), termSum(s, terms, k * 3 + 1)), nv));
      v128.store(e1, f64x2.div(pair(termSum(s, terms, k * 3 + 3), termSum(s, terms, k * 3 + 4)), nv));
      const blue = f64x2.div(pair(termSum(s, terms, k * 3 + 2), termSum(s, terms, k * 3 + 5)), nv);
      store<f64>(e0, f64x2.extract_lane(blue, 0), 16); store<f64>(e1, f64x2.extract_lane(blue, 1), 16);
    }
  }
  memory.fill(sums, 0, <usize>blocks * 48 * 8);
  memory.fill(moments, 0, <usize>blocks * 6 * 8);
}
