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
