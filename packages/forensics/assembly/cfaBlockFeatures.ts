// Ferrara et al.'s CFA block features (src/internal/cfaBlockFeatures.ts) for one row of blocks per call, with the
// values of the JavaScript passes bit for bit. The caller lays out the memory (configure) and copies the pixel rows
// in; green lines, prediction errors, the ring of horizontally filtered rows and the running products of the blocks
// stay here between calls. Every float64 sum and product is the JavaScript one, same operands, same order: f64x2
// lanes are two neighbouring pixels, which for the products are one pixel of each lattice. The kernel's other loop
// over many values, the EM fit of the mixture to the features (mixtureStep, weightedSquares), is at the end.

/** Half-width of the 7x7 variance window. */
const R = 3;
const I64_SIGN: i64 = -0x8000000000000000;

// Layout and parameters of the current image (configure). Read into locals before the loops.
let width = 0, height = 0, block = 0, blocks = 0, columns = 0, lattice = 0, floatInput = false;
let w0 = 0.0, w1 = 0.0, w2 = 0.0, w3 = 0.0, norm = 0.0;
/** Green lines, `ringRows` of `lineBytes`, row y in slot y % ringRows: sample x at 1 + x, borders replicated at 0 and width + 1. */
let greenRing: usize = 0, lineBytes: usize = 0, ringRows = 0;
/** e and e^2 of one row as float64, sample x at R + x, borders replicated R each side. */
let errors: usize = 0, squares: usize = 0;
/**
 * Ring of 8 horizontally filtered rows (slot = row & 7), each an even-offset plane then an odd-offset plane of
 * `columns` / 2 pairs of pixels; per pair 32 bytes: the two sums of e, then the two sums of e^2.
 */
let filtered: usize = 0, slotBytes: usize = 0;
/** Row held by each slot of the ring (-1: none). */
let tags: usize = 0;
/** Per block 48 bytes: products (acquired, interpolated), flushed logs (same order), zero flags (i64 masks). */
let state: usize = 0;
/** The float32 variances of one row (as float64), `columns` of them. */
let variances: usize = 0;

/** First free byte of memory (16-aligned): the caller's layout starts there. */
export function heapBase(): usize {
  return (__heap_base + 15) & ~(<usize>15);
}

export function configure(
  imageWidth: i32, imageHeight: i32, blockSize: i32, acquiredLattice: i32, isFloat: bool,
  g0: f64, g1: f64, g2: f64, g3: f64, normalisation: f64,
  greenPtr: usize, greenLineBytes: usize, greenRows: i32, errorsPtr: usize, squaresPtr: usize, filteredPtr: usize, tagsPtr: usize, statePtr: usize, variancesPtr: usize,
): void {
  width = imageWidth; height = imageHeight; block = blockSize; blocks = imageWidth / blockSize; columns = blocks * blockSize;
  lattice = acquiredLattice; floatInput = isFloat;
  w0 = g0; w1 = g1; w2 = g2; w3 = g3; norm = normalisation;
  greenRing = greenPtr; lineBytes = greenLineBytes; ringRows = greenRows;
  errors = errorsPtr; squares = squaresPtr;
  filtered = filteredPtr; slotBytes = <usize>columns * 32;
  tags = tagsPtr; state = statePtr; variances = variancesPtr;
  for (let s = 0; s < 8; s++) store<i32>(tagsPtr + (<usize>s << 2), -1);
}

/**
 * Green lines of `count` pixel rows from `firstRow` on, copied to `src` as stored in the image (rows of
 * width * channels samples, 8-bit or float32), green = sample `green` of each pixel.
 */
export function greenRows(src: usize, firstRow: i32, count: i32, channels: i32, green: i32): void {
  const w = width, bytes: usize = floatInput ? 4 : 1, rowBytes = <usize>(w * channels) * bytes;
  for (let r = 0; r < count; r++) {
    const from = src + <usize>r * rowBytes + <usize>green * bytes;
    const line = greenRing + <usize>((firstRow + r) % ringRows) * lineBytes;
    if (floatInput) {
      const step = <usize>channels << 2;
      for (let x = 0, p = from, q = line + 4; x < w; x++, p += step, q += 4) store<f32>(q, load<f32>(p));
      store<f32>(line, load<f32>(line, 4));
      store<f32>(line + (<usize>(w + 1) << 2), load<f32>(line + (<usize>w << 2)));
    } else {
      if (channels == 1) memory.copy(line + 1, from, <usize>w);
      else if (channels == 3) greenOfThree(from, line + 1, w);
      else {
        const step = <usize>channels;
        for (let x = 0, p = from, q = line + 1; x < w; x++, p += step, q++) store<u8>(q, load<u8>(p));
      }
      store<u8>(line, load<u8>(line, 1));
      store<u8>(line + <usize>(w + 1), load<u8>(line + <usize>w));
    }
  }
}

/** Every third byte from `p` (the green of RGB pixels), 16 at a time from 48 bytes. */
function greenOfThree(p: usize, q: usize, w: i32): void {
  let x = 0;
  for (; x + 16 <= w; x += 16, p += 48, q += 16) {
    // Bytes 0, 3, .., 15 of the first 16, then 18, .., 30 and 33, .., 45 (swizzle gives 0 for indices >= 16).
    const a = v128.swizzle(v128.load(p), i8x16(0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1));
    const b = v128.swizzle(v128.load(p, 16), i8x16(-1, -1, -1, -1, -1, -1, 2, 5, 8, 11, 14, -1, -1, -1, -1, -1));
    const c = v128.swizzle(v128.load(p, 32), i8x16(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1, 4, 7, 10, 13));
    v128.store(q, v128.or(v128.or(a, b), c));
  }
  for (; x < w; x++, p += 3, q++) store<u8>(q, load<u8>(p));
}

/** Features' running state of every block of a row of blocks back to empty products. */
function resetState(): void {
  for (let b = 0, p = state; b < blocks; b++, p += 48) {
    v128.store(p, f64x2(1, 1));
    v128.store(p, f64x2(0, 0), 16);
    v128.store(p, i64x2(0, 0), 32);
  }
}

@inline function clampRow(y: i32, h: i32): i32 {
  return y < 0 ? 0 : y > h - 1 ? h - 1 : y;
}

@inline function greenLine(y: i32): usize {
  return greenRing + <usize>(y % ringRows) * lineBytes;
}

/**
 * e = G - (G_up + G_down + G_left + G_right) / 4 and e^2 of 8-bit samples: 4e is an integer of at most 1020 in
 * magnitude, so e = 4e / 4 and e^2 = (4e)^2 / 16 are exact in float32 (JavaScript rounds both to float32: no change).
 */
function errorsOfBytes(up: usize, centre: usize, down: usize, w: i32): void {
  const e = errors + R * 8, e2 = squares + R * 8;
  for (let x = 0; x < w; x += 8) {
    const px = <usize>x;
    const c = v128.load8x8_u(centre + px, 1);
    const around = i16x8.add(i16x8.add(v128.load8x8_u(up + px, 1), v128.load8x8_u(down + px, 1)), i16x8.add(v128.load8x8_u(centre + px), v128.load8x8_u(centre + px, 2)));
    const k = i16x8.sub(i16x8.shl(c, 2), around);
    const lo = i32x4.extend_low_i16x8_s(k), hi = i32x4.extend_high_i16x8_s(k);
    const sqLo = i32x4.extmul_low_i16x8_s(k, k), sqHi = i32x4.extmul_high_i16x8_s(k, k);
    const q = px << 3, quarter = f64x2.splat(0.25), sixteenth = f64x2.splat(0.0625);
    v128.store(e + q, f64x2.mul(f64x2.convert_low_i32x4_s(lo), quarter));
    v128.store(e + q, f64x2.mul(f64x2.convert_low_i32x4_s(i32x4.shuffle(lo, lo, 2, 3, 2, 3)), quarter), 16);
    v128.store(e + q, f64x2.mul(f64x2.convert_low_i32x4_s(hi), quarter), 32);
    v128.store(e + q, f64x2.mul(f64x2.convert_low_i32x4_s(i32x4.shuffle(hi, hi, 2, 3, 2, 3)), quarter), 48);
    v128.store(e2 + q, f64x2.mul(f64x2.convert_low_i32x4_s(sqLo), sixteenth));
    v128.store(e2 + q, f64x2.mul(f64x2.convert_low_i32x4_s(i32x4.shuffle(sqLo, sqLo, 2, 3, 2, 3)), sixteenth), 16);
    v128.store(e2 + q, f64x2.mul(f64x2.convert_low_i32x4_s(sqHi), sixteenth), 32);
    v128.store(e2 + q, f64x2.mul(f64x2.convert_low_i32x4_s(i32x4.shuffle(sqHi, sqHi, 2, 3, 2, 3)), sixteenth), 48);
  }
}

/** The same for float32 samples, as JavaScript computes it: fround(c - 0.25 * (((u + d) + l) + r)), fround(e * e). */
function errorsOfFloats(up: usize, centre: usize, down: usize, w: i32): void {
  const e = errors + R * 8, e2 = squares + R * 8;
  for (let x = 0; x < w; x += 2) {
    const px = <usize>x << 2;
    const u = f64x2.promote_low_f32x4(v128.load64_zero(up + px, 4)), d = f64x2.promote_low_f32x4(v128.load64_zero(down + px, 4));
    const l = f64x2.promote_low_f32x4(v128.load64_zero(centre + px)), c = f64x2.promote_low_f32x4(v128.load64_zero(centre + px, 4));
    const r = f64x2.promote_low_f32x4(v128.load64_zero(centre + px, 8));
    const v = toFloat32(f64x2.sub(c, f64x2.mul(f64x2.splat(0.25), f64x2.add(f64x2.add(f64x2.add(u, d), l), r))));
    v128.store(e + (px << 1), v);
    v128.store(e2 + (px << 1), toFloat32(f64x2.mul(v, v)));
  }
}

/** Both lanes rounded to float32 and back (Math.fround). */
@inline function toFloat32(v: v128): v128 {
  return f64x2.promote_low_f32x4(f32x4.demote_f64x2_zero(v));
}

/** e and e^2 of row y, then its even- and odd-offset horizontal sums into ring slot `slot`. */
function filterRow(y: i32, slot: i32): void {
  const h = height, w = width;
  const up = greenLine(clampRow(y - 1, h)), centre = greenLine(y), down = greenLine(clampRow(y + 1, h));
  if (floatInput) errorsOfFloats(up, centre, down, w);
  else errorsOfBytes(up, centre, down, w);
  // Replicated borders, written after the loops (which run past the last sample).
  const first = load<f64>(errors, R * 8), last = load<f64>(errors + (<usize>(R + w - 1) << 3));
  const first2 = load<f64>(squares, R * 8), last2 = load<f64>(squares + (<usize>(R + w - 1) << 3));
  for (let k = 0; k < R; k++) {
    const left = <usize>k << 3, right = <usize>(R + w + k) << 3;
    store<f64>(errors + left, first); store<f64>(errors + right, last);
    store<f64>(squares + left, first2); store<f64>(squares + right, last2);
  }
  const even = filtered + <usize>slot * slotBytes, odd = even + (slotBytes >> 1);
  const g0 = f64x2.splat(w0), g1 = f64x2.splat(w1), g2 = f64x2.splat(w2), g3 = f64x2.splat(w3);
  const n = columns;
  // Samples x - 3 .. x + 3 of the window of pixel x in lane 0, of pixel x + 1 in lane 1: the window of the next pair
  // is this one's moved by two, so two samples are loaded per pair.
  let a0 = v128.load(errors), a1 = v128.load(errors, 8), a2 = v128.load(errors, 16), a3 = v128.load(errors, 24), a4 = v128.load(errors, 32);
  let b0 = v128.load(squares), b1 = v128.load(squares, 8), b2 = v128.load(squares, 16), b3 = v128.load(squares, 24), b4 = v128.load(squares, 32);
  for (let x = 0; x < n; x += 2) {
    const p = errors + (<usize>x << 3), s = squares + (<usize>x << 3), o = <usize>x << 4;
    const a5 = v128.load(p, 40), a6 = v128.load(p, 48), b5 = v128.load(s, 40), b6 = v128.load(s, 48);
    v128.store(even + o, f64x2.add(f64x2.mul(g0, a3), f64x2.mul(g2, f64x2.add(a1, a5))));
    v128.store(even + o, f64x2.add(f64x2.mul(g0, b3), f64x2.mul(g2, f64x2.add(b1, b5))), 16);
    v128.store(odd + o, f64x2.add(f64x2.mul(g1, f64x2.add(a2, a4)), f64x2.mul(g3, f64x2.add(a0, a6))));
    v128.store(odd + o, f64x2.add(f64x2.mul(g1, f64x2.add(b2, b4)), f64x2.mul(g3, f64x2.add(b0, b6))), 16);
    a0 = a2; a1 = a3; a2 = a4; a3 = a5; a4 = a6;
    b0 = b2; b1 = b3; b2 = b4; b3 = b5; b4 = b6;
  }
}

/**
 * Vertical pass of row y: the local variance (float32) of each pixel of the full blocks, from the filtered rows at
 * y, y -+ 2 (even-offset sums) and y -+ 1, y -+ 3 (odd-offset sums), into `variances`. Kept apart from the products
 * (productsRow): the two in one loop measured 20% slower.
 */
function varianceRow(y: i32): void {
  const h = height, half = slotBytes >> 1;
  let ec = filtered + <usize>(y & 7) * slotBytes;
  let eu = filtered + <usize>(clampRow(y - 2, h) & 7) * slotBytes, ed = filtered + <usize>(clampRow(y + 2, h) & 7) * slotBytes;
  let ou = filtered + <usize>(clampRow(y - 1, h) & 7) * slotBytes + half, od = filtered + <usize>(clampRow(y + 1, h) & 7) * slotBytes + half;
  let ouu = filtered + <usize>(clampRow(y - 3, h) & 7) * slotBytes + half, odd = filtered + <usize>(clampRow(y + 3, h) & 7) * slotBytes + half;
  const g0 = f64x2.splat(w0), g1 = f64x2.splat(w1), g2 = f64x2.splat(w2), g3 = f64x2.splat(w3), nm = f64x2.splat(norm);
  const end = variances + (<usize>columns << 3);
  for (let out = variances; out < end; out += 16) {
    // The means of e (offset 0) and of e^2 (offset 16) over the window: JavaScript's sums in JavaScript's order.
    const m1 = f64x2.div(f64x2.add(f64x2.add(f64x2.add(f64x2.mul(g0, v128.load(ec)), f64x2.mul(g2, f64x2.add(v128.load(eu), v128.load(ed)))), f64x2.mul(g1, f64x2.add(v128.load(ou), v128.load(od)))), f64x2.mul(g3, f64x2.add(v128.load(ouu), v128.load(odd)))), nm);
    const m2 = f64x2.div(f64x2.add(f64x2.add(f64x2.add(f64x2.mul(g0, v128.load(ec, 16)), f64x2.mul(g2, f64x2.add(v128.load(eu, 16), v128.load(ed, 16)))), f64x2.mul(g1, f64x2.add(v128.load(ou, 16), v128.load(od, 16)))), f64x2.mul(g3, f64x2.add(v128.load(ouu, 16), v128.load(odd, 16)))), nm);
    v128.store(out, toFloat32(f64x2.sub(m2, f64x2.mul(m1, m1))));
    ec += 32; eu += 32; ed += 32; ou += 32; od += 32; ouu += 32; odd += 32;
  }
}

/**
 * The variances of row y multiplied into their blocks' products, each into the product of its lattice, unless it is
 * not positive (then the block's zero flag of that lattice is set); a product leaving 1e-200..1e200 is added to its
 * log sum as Math.log (the host's) and restarts at 1. Every product receives its factors in pixel order.
 */
function productsRow(y: i32): void {
  const one = f64x2.splat(1), zero = f64x2.splat(0);
  // For the positive products, p < 1e-200 || p > 1e200 as one signed comparison of their bits shifted by
  // 2^63 - bits(1e-200): the bits of positive doubles are in the order of the values.
  const shift = i64x2.splat(I64_SIGN - reinterpret<i64>(1e-200)), limit = i64x2.splat(reinterpret<i64>(1e200) - reinterpret<i64>(1e-200) + I64_SIGN);
  // Lane 0 takes the pixels at even x, lane 1 those at odd x: the state is (acquired, interpolated), swapped on the
  // rows where the acquired pixels are at odd x.
  const swap = ((lattice - y) & 1) != 0;
  const pairs = block >> 1;
  let q = variances;
  for (let b = 0, st = state; b < blocks; b++, st += 48) {
    // `all`: no variance of the lane's lattice was zero so far in the block (the state holds its negation).
    let p = v128.load(st), all = v128.not(v128.load(st, 32));
    if (swap) { p = f64x2.shuffle(p, p, 1, 0); all = f64x2.shuffle(all, all, 1, 0); }
    // The log sums stay in memory (rarely touched): those of the lattices of lanes 0 and 1.
    const log0 = st + (swap ? 24 : 16), log1 = st + (swap ? 16 : 24);
    for (let k = 0; k < pairs; k++, q += 16) {
      const v = v128.load(q);
      const positive = f64x2.gt(v, zero);
      all = v128.and(all, positive);
      // A factor of 1 where the variance is not positive: the product is then unchanged, as in JavaScript.
      p = f64x2.mul(p, v128.bitselect(v, one, positive));
      if (v128.any_true(i64x2.gt_s(i64x2.add(p, shift), limit))) {
        const p0 = f64x2.extract_lane(p, 0), p1 = f64x2.extract_lane(p, 1);
        if (p0 < 1e-200 || p0 > 1e200) { store<f64>(log0, load<f64>(log0) + Math.log(p0)); p = f64x2.replace_lane(p, 0, 1); }
        if (p1 < 1e-200 || p1 > 1e200) { store<f64>(log1, load<f64>(log1) + Math.log(p1)); p = f64x2.replace_lane(p, 1, 1); }
      }
    }
    if (swap) { p = f64x2.shuffle(p, p, 1, 0); all = f64x2.shuffle(all, all, 1, 0); }
    v128.store(st, p); v128.store(st, v128.not(all), 32);
  }
}

/**
 * The running products of row of blocks `by` into the state (the caller takes the logs): every filtered row its
 * window needs that the ring does not hold is computed first, from the green lines (which must hold rows
 * by * block - 4 .. (by + 1) * block + 3, clamped to the image).
 */
export function blockRow(by: i32): void {
  resetState();
  const h = height;
  for (let y = by * block; y < (by + 1) * block; y++) {
    for (let d = -R; d <= R; d++) {
      const yy = clampRow(y + d, h), slot = yy & 7, tag = tags + (<usize>slot << 2);
      if (load<i32>(tag) == yy) continue;
      store<i32>(tag, yy);
      filterRow(yy, slot);
    }
    varianceRow(y);
    productsRow(y);
  }
}

// Expectation-maximisation of the mixture fitted to the block features (src/internal/zeroMeanMixture.ts): the
// per-sample work of one iteration for two samples per f64x2, the running sums in JavaScript's order in scalars.

/**
 * One E step over the n samples at `x` (float64, padded to an even count), as fitZeroMeanMixture's loop computes it:
 * per sample the two component log densities a and b, t = expNegative(|a - b|) (its tables at `whole` and
 * `fraction`), the responsibility of the free component into `resp`, and the sums r1Sum, r1x, r0x2, logMax,
 * logTerms and product into out[0..5].
 */
export function mixtureStep(x: usize, resp: usize, n: i32, s0: f64, m1: f64, s1: f64, c0: f64, c1: f64, whole: usize, fraction: usize, toSteps: f64, fromSteps: f64, out: usize): void {
  const S0 = f64x2.splat(s0), M1 = f64x2.splat(m1), S1 = f64x2.splat(s1), C0 = f64x2.splat(c0), C1 = f64x2.splat(c1);
  const half = f64x2.splat(0.5), one = f64x2.splat(1), zero = f64x2.splat(0), nan = f64x2.splat(NaN), sixth = f64x2.splat(1.0 / 6.0);
  const to = f64x2.splat(toSteps), from = f64x2.splat(fromSteps), steps = f64x2.splat(1075 * 2048);
  let r1Sum = 0.0, r1x = 0.0, r0x2 = 0.0, logMax = 0.0, logTerms = 0.0, product = 1.0;
  for (let i = 0; i < n; i += 2) {
    const at = <usize>i << 3;
    const xi = v128.load(x + at);
    const z0 = f64x2.div(xi, S0), z1 = f64x2.div(f64x2.sub(xi, M1), S1);
    const a = f64x2.sub(C0, f64x2.mul(f64x2.mul(half, z0), z0)), b = f64x2.sub(C1, f64x2.mul(f64x2.mul(half, z1), z1));
    // a >= b is false for NaN, which then takes the else branch, as in JavaScript.
    const ge = f64x2.ge(a, b);
    const top = v128.bitselect(a, b, ge);
    // expNegative(d): whole and 1/2048 steps of ln 2 from the tables, the remainder by the cubic; out of range
    // (u >= 1075 * 2048 or NaN) 0 or NaN, with index 0 read meanwhile so no lane reads outside the tables.
    const u = f64x2.mul(v128.bitselect(f64x2.sub(a, b), f64x2.sub(b, a), ge), to);
    const inRange = f64x2.lt(u, steps);
    const k = f64x2.floor(v128.bitselect(u, zero, inRange));
    const r = f64x2.mul(f64x2.sub(v128.bitselect(u, zero, inRange), k), from);
    const ki = i32x4.trunc_sat_f64x2_s_zero(k);
    const k0 = i32x4.extract_lane(ki, 0), k1 = i32x4.extract_lane(ki, 1);
    let w = v128.load64_zero(whole + (<usize>(k0 >> 11) << 3)), f = v128.load64_zero(fraction + (<usize>(k0 & 2047) << 3));
    w = v128.load64_lane(whole + (<usize>(k1 >> 11) << 3), w, 1);
    f = v128.load64_lane(fraction + (<usize>(k1 & 2047) << 3), f, 1);
    const poly = f64x2.sub(one, f64x2.mul(r, f64x2.sub(one, f64x2.mul(r, f64x2.sub(half, f64x2.mul(r, sixth))))));
    const t = v128.bitselect(f64x2.mul(f64x2.mul(w, f), poly), v128.bitselect(zero, nan, f64x2.eq(u, u)), inRange);
    const onePlusT = f64x2.add(one, t);
    // t / (1 + t) where a >= b, else 1 / (1 + t).
    const rs = f64x2.div(v128.bitselect(t, one, ge), onePlusT);
    v128.store(resp + at, rs);
    const rx = f64x2.mul(rs, xi), r0xx = f64x2.mul(f64x2.mul(f64x2.sub(one, rs), xi), xi);
    logMax += f64x2.extract_lane(top, 0);
    product *= f64x2.extract_lane(onePlusT, 0);
    if (product > 1e289) { logTerms += Math.log(product); product = 1; }
    r1Sum += f64x2.extract_lane(rs, 0);
    r1x += f64x2.extract_lane(rx, 0);
    r0x2 += f64x2.extract_lane(r0xx, 0);
    if (i + 1 < n) {
      logMax += f64x2.extract_lane(top, 1);
      product *= f64x2.extract_lane(onePlusT, 1);
      if (product > 1e289) { logTerms += Math.log(product); product = 1; }
      r1Sum += f64x2.extract_lane(rs, 1);
      r1x += f64x2.extract_lane(rx, 1);
      r0x2 += f64x2.extract_lane(r0xx, 1);
    }
  }
  store<f64>(out, r1Sum); store<f64>(out, r1x, 8); store<f64>(out, r0x2, 16);
  store<f64>(out, logMax, 24); store<f64>(out, logTerms, 32); store<f64>(out, product, 40);
}

/** Sum over the n samples of resp * (x - m1)^2, in order (the M step's variance of the free component). */
export function weightedSquares(x: usize, resp: usize, n: i32, m1: f64): f64 {
  const M1 = f64x2.splat(m1);
  let sum = 0.0, i = 0;
  for (; i + 2 <= n; i += 2) {
    const at = <usize>i << 3;
    const d = f64x2.sub(v128.load(x + at), M1);
    const terms = f64x2.mul(v128.load(resp + at), f64x2.mul(d, d));
    sum += f64x2.extract_lane(terms, 0);
    sum += f64x2.extract_lane(terms, 1);
  }
  if (i < n) {
    const d = load<f64>(x + (<usize>i << 3)) - m1;
    sum += load<f64>(resp + (<usize>i << 3)) * (d * d);
  }
  return sum;
}

// The 5x5 window median of CFA1's pooling (src/internal/windowMedian5x5.ts), four windows per i32x4: the same int32
// order keys of the float32 values, the same 9-comparator sort of each column of five and the same pruned merging
// network (each of its compare-exchanges is a min and a max), so every median is the JavaScript one's bits.

/** Float32 bits to int32 order keys, or keys back to bits (the mapping is its own inverse), in place, 4 at a time. */
export function orderKeys(p: usize, n: i32): void {
  const magnitude = i32x4.splat(0x7fffffff);
  for (const end = p + (<usize>n << 2); p < end; p += 16) {
    const k = v128.load(p);
    v128.store(p, v128.xor(k, v128.and(i32x4.shr_s(k, 31), magnitude)));
  }
}

/**
 * For every full window (rows 2 .. height - 3, columns 2 .. width - 3) the median of the 25 keys around it, as float32
 * bits at the same place of `out`; the other cells of `out` are left for the caller (clipped windows), and up to three
 * cells past each row's last full window are overwritten. `keys` holds height rows of width keys and 16 readable bytes
 * after them; `columns` 5 planes of `pitch` (at least width + 8) keys: row by row the sorted columns of rows y - 2 .. y + 2.
 */
export function median5x5(keys: usize, width: i32, height: i32, out: usize, columns: usize, pitch: i32): void {
  const rowBytes = <usize>width << 2, plane = <usize>pitch << 2;
  const magnitude = i32x4.splat(0x7fffffff);
  for (let y = 2; y < height - 2; y++) {
    const top = keys + <usize>(y - 2) * rowBytes;
    for (let x: usize = 0; x < rowBytes; x += 16) {
      let a = v128.load(top + x), b = v128.load(top + rowBytes + x), c = v128.load(top + 2 * rowBytes + x);
      let d = v128.load(top + 3 * rowBytes + x), e = v128.load(top + 4 * rowBytes + x), m = a;
      m = i32x4.min_s(a, b); b = i32x4.max_s(a, b); a = m;
      m = i32x4.min_s(d, e); e = i32x4.max_s(d, e); d = m;
      m = i32x4.min_s(c, e); e = i32x4.max_s(c, e); c = m;
      m = i32x4.min_s(c, d); d = i32x4.max_s(c, d); c = m;
      m = i32x4.min_s(a, d); d = i32x4.max_s(a, d); a = m;
      m = i32x4.min_s(a, c); c = i32x4.max_s(a, c); a = m;
      m = i32x4.min_s(b, e); e = i32x4.max_s(b, e); b = m;
      m = i32x4.min_s(b, d); d = i32x4.max_s(b, d); b = m;
      m = i32x4.min_s(b, c); c = i32x4.max_s(b, c); b = m;
      v128.store(columns + x, a); v128.store(columns + plane + x, b); v128.store(columns + 2 * plane + x, c);
      v128.store(columns + 3 * plane + x, d); v128.store(columns + 4 * plane + x, e);
    }
    const row = out + <usize>y * rowBytes;
    for (let x: usize = 2 << 2; x < rowBytes - (2 << 2); x += 16) {
      // s[5 j + k]: row k of the sorted column x - 2 + j.
      const c0 = columns + x - 8, c1 = c0 + plane, c2 = c1 + plane, c3 = c2 + plane, c4 = c3 + plane;
      const s0 = v128.load(c0), s1 = v128.load(c1), s2 = v128.load(c2), s3 = v128.load(c3), s4 = v128.load(c4);
      const s5 = v128.load(c0, 4), s6 = v128.load(c1, 4), s7 = v128.load(c2, 4), s8 = v128.load(c3, 4), s9 = v128.load(c4, 4);
      const s10 = v128.load(c0, 8), s11 = v128.load(c1, 8), s12 = v128.load(c2, 8), s13 = v128.load(c3, 8), s14 = v128.load(c4, 8);
      const s15 = v128.load(c0, 12), s16 = v128.load(c1, 12), s17 = v128.load(c2, 12), s18 = v128.load(c3, 12), s19 = v128.load(c4, 12);
      const s20 = v128.load(c0, 16), s21 = v128.load(c1, 16), s22 = v128.load(c2, 16), s23 = v128.load(c3, 16), s24 = v128.load(c4, 16);
      const t1 = i32x4.min_s(s0, s5);
      const t2 = i32x4.max_s(s0, s5);
      const t3 = i32x4.min_s(s4, s9);
      const t4 = i32x4.max_s(s4, s9);
      const t5 = i32x4.min_s(t3, t2);
      const t6 = i32x4.max_s(t3, t2);
      const t7 = i32x4.min_s(s2, s7);
      const t8 = i32x4.max_s(s2, s7);
      const t9 = i32x4.min_s(t7, t5);
      const t10 = i32x4.max_s(t7, t5);
      const t11 = i32x4.min_s(t8, t6);
      const t12 = i32x4.max_s(t8, t6);
      const t13 = i32x4.min_s(s1, s6);
      const t14 = i32x4.max_s(s1, s6);
      const t15 = i32x4.min_s(s3, s8);
      const t16 = i32x4.max_s(s3, s8);
      const t17 = i32x4.min_s(t15, t14);
      const t18 = i32x4.max_s(t15, t14);
      const t19 = i32x4.min_s(t13, t9);
      const t20 = i32x4.max_s(t13, t9);
      const t21 = i32x4.min_s(t17, t10);
      const t22 = i32x4.max_s(t17, t10);
      const t23 = i32x4.min_s(t18, t11);
      const t24 = i32x4.max_s(t18, t11);
      const t25 = i32x4.min_s(t16, t12);
      const t26 = i32x4.max_s(t16, t12);
      const t27 = i32x4.min_s(s10, s15);
      const t28 = i32x4.max_s(s10, s15);
      const t29 = i32x4.min_s(s14, s19);
      const t30 = i32x4.max_s(s14, s19);
      const t31 = i32x4.min_s(t29, t28);
      const t32 = i32x4.max_s(t29, t28);
      const t33 = i32x4.min_s(s12, s17);
      const t34 = i32x4.max_s(s12, s17);
      const t35 = i32x4.min_s(t33, t31);
      const t36 = i32x4.max_s(t33, t31);
      const t37 = i32x4.min_s(t34, t32);
      const t38 = i32x4.max_s(t34, t32);
      const t39 = i32x4.min_s(s11, s16);
      const t40 = i32x4.max_s(s11, s16);
      const t41 = i32x4.min_s(s13, s18);
      const t42 = i32x4.max_s(s13, s18);
      const t43 = i32x4.min_s(t41, t40);
      const t44 = i32x4.max_s(t41, t40);
      const t45 = i32x4.min_s(t39, t35);
      const t46 = i32x4.max_s(t39, t35);
      const t47 = i32x4.min_s(t43, t36);
      const t48 = i32x4.max_s(t43, t36);
      const t49 = i32x4.min_s(t44, t37);
      const t50 = i32x4.max_s(t44, t37);
      const t51 = i32x4.min_s(t42, t38);
      const t52 = i32x4.max_s(t42, t38);
      const t53 = i32x4.min_s(s22, s24);
      const t54 = i32x4.max_s(s22, s24);
      const t55 = i32x4.min_s(s21, t53);
      const t56 = i32x4.max_s(s21, t53);
      const t57 = i32x4.min_s(s23, t54);
      const t58 = i32x4.max_s(s23, t54);
      const t59 = i32x4.min_s(t1, t27);
      const t60 = i32x4.max_s(t1, t27);
      const t61 = i32x4.min_s(t26, t52);
      const t62 = i32x4.max_s(t26, t52);
      const t63 = i32x4.min_s(t61, t60);
      const t64 = i32x4.max_s(t61, t60);
      const t65 = i32x4.min_s(t22, t48);
      const t66 = i32x4.max_s(t22, t48);
      const t67 = i32x4.min_s(t65, t63);
      const t68 = i32x4.max_s(t65, t63);
      const t69 = i32x4.min_s(t66, t64);
      const t70 = i32x4.max_s(t66, t64);
      const t71 = i32x4.min_s(t20, t46);
      const t72 = i32x4.max_s(t20, t46);
      const t73 = i32x4.min_s(t24, t50);
      const t74 = i32x4.max_s(t24, t50);
      const t75 = i32x4.min_s(t73, t72);
      const t76 = i32x4.max_s(t73, t72);
      const t77 = i32x4.min_s(t71, t67);
      const t78 = i32x4.max_s(t71, t67);
      const t79 = i32x4.min_s(t75, t68);
      const t80 = i32x4.max_s(t75, t68);
      const t81 = i32x4.min_s(t76, t69);
      const t82 = i32x4.max_s(t76, t69);
      const t83 = i32x4.min_s(t74, t70);
      const t84 = i32x4.max_s(t74, t70);
      const t85 = i32x4.min_s(t19, t45);
      const t86 = i32x4.max_s(t19, t45);
      const t87 = i32x4.min_s(t4, t30);
      const t88 = i32x4.max_s(t4, t30);
      const t89 = i32x4.min_s(t87, t86);
      const t90 = i32x4.max_s(t87, t86);
      const t91 = i32x4.min_s(t23, t49);
      const t92 = i32x4.max_s(t23, t49);
      const t93 = i32x4.min_s(t91, t89);
      const t94 = i32x4.max_s(t91, t89);
      const t95 = i32x4.min_s(t92, t90);
      const t96 = i32x4.max_s(t92, t90);
      const t97 = i32x4.min_s(t21, t47);
      const t98 = i32x4.max_s(t21, t47);
      const t99 = i32x4.min_s(t25, t51);
      const t100 = i32x4.max_s(t25, t51);
      const t101 = i32x4.min_s(t99, t98);
      const t102 = i32x4.max_s(t99, t98);
      const t103 = i32x4.min_s(t97, t93);
      const t104 = i32x4.max_s(t97, t93);
      const t105 = i32x4.min_s(t101, t94);
      const t106 = i32x4.max_s(t101, t94);
      const t107 = i32x4.min_s(t102, t95);
      const t108 = i32x4.max_s(t102, t95);
      const t109 = i32x4.min_s(t100, t96);
      const t110 = i32x4.max_s(t100, t96);
      const t111 = i32x4.min_s(t85, t77);
      const t112 = i32x4.max_s(t85, t77);
      const t113 = i32x4.min_s(t103, t78);
      const t114 = i32x4.max_s(t103, t78);
      const t116 = i32x4.max_s(t104, t79);
      const t117 = i32x4.min_s(t105, t80);
      const t118 = i32x4.max_s(t105, t80);
      const t119 = i32x4.min_s(t106, t81);
      const t120 = i32x4.max_s(t106, t81);
      const t121 = i32x4.min_s(t107, t82);
      const t122 = i32x4.max_s(t107, t82);
      const t123 = i32x4.min_s(t108, t83);
      const t126 = i32x4.max_s(t109, t84);
      const t127 = i32x4.min_s(t110, t62);
      const t128 = i32x4.max_s(t110, t62);
      const t129 = i32x4.min_s(t56, t58);
      const t130 = i32x4.max_s(t56, t58);
      const t131 = i32x4.min_s(t55, t129);
      const t132 = i32x4.max_s(t55, t129);
      const t133 = i32x4.min_s(t57, t130);
      const t134 = i32x4.max_s(t57, t130);
      const t136 = i32x4.max_s(t59, s20);
      const t137 = i32x4.min_s(t126, t136);
      const t140 = i32x4.max_s(t118, t137);
      const t142 = i32x4.max_s(t114, t134);
      const t143 = i32x4.min_s(t122, t142);
      const t147 = i32x4.min_s(t143, t140);
      const t152 = i32x4.max_s(t112, t132);
      const t153 = i32x4.min_s(t128, t152);
      const t155 = i32x4.min_s(t120, t153);
      const t158 = i32x4.max_s(t116, t155);
      const t166 = i32x4.max_s(t158, t147);
      const t174 = i32x4.max_s(t111, t131);
      const t175 = i32x4.min_s(t127, t174);
      const t178 = i32x4.max_s(t119, t175);
      const t181 = i32x4.min_s(t123, t178);
      const t184 = i32x4.max_s(t113, t133);
      const t185 = i32x4.min_s(t88, t184);
      const t187 = i32x4.min_s(t121, t185);
      const t190 = i32x4.max_s(t117, t187);
      const t197 = i32x4.min_s(t190, t181);
      const t214 = i32x4.max_s(t197, t166);
      v128.store(row + x, v128.xor(t214, v128.and(i32x4.shr_s(t214, 31), magnitude)));
    }
  }
}
