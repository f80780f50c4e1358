// Ferrara et al.'s CFA block features (src/internal/cfaBlockFeatures.ts) for one row of blocks per call, with the
// values of the JavaScript passes bit for bit. The caller lays out the memory (configure) and copies the pixel rows
// in; green lines, prediction errors, the ring of horizontally filtered rows and the blocks' exponent and mantissa
// slots stay here between calls. Every step is the JavaScript one's float32 operation, same operands, same order,
// four neighbouring pixels per f32x4. The kernel's other loops over many values, the EM fit of the mixture to the
// features (mixtureStep, weightedSquares) and the 5x5 median of the pooled ratios, are at the end.

/** Half-width of the 7x7 variance window. */
const R = 3;
/** Bits of 1.0f and the mantissa field of a float32. */
const ONE_BITS = 0x3f800000, MANTISSA = 0x7fffff;
/** The smallest normal float32, 2^-126. */
const MIN_NORMAL: f32 = 1.1754943508222875e-38;

// Layout and parameters of the current image (configure). Read into locals before the loops.
let width = 0, height = 0, block = 0, blocks = 0, columns = 0, floatInput = false;
let w0: f32 = 0, w1: f32 = 0, w2: f32 = 0, w3: f32 = 0;
/** The vertical pass's weights: the taps over the window's normalisation. */
let n0: f32 = 0, n1: f32 = 0, n2: f32 = 0, n3: f32 = 0;
/** Green lines, `ringRows` of `lineBytes`, row y in slot y % ringRows: sample x at 1 + x, borders replicated at 0 and width + 1. */
let greenRing: usize = 0, lineBytes: usize = 0, ringRows = 0;
/** e and e^2 of one row as float32, sample x at 4 + x, borders replicated R each side. */
let errors: usize = 0, squares: usize = 0;
/**
 * Ring of 8 horizontally filtered rows (slot = row & 7), each an even-offset plane then an odd-offset plane of
 * `planeBytes`: per 4 pixels 32 bytes, their 4 sums of e then their 4 sums of e^2 (one address serves both).
 */
let filtered: usize = 0, planeBytes: usize = 0;
/** Row held by each slot of the ring (-1: none). */
let tags: usize = 0;
/** Per block 96 bytes: 8 mantissa products (float32), 8 exponent-field sums and 8 all-positive flags (int32), by slot. */
let state: usize = 0;
/** The float32 variances of one row, `columns` of them. */
let variances: usize = 0;
/** The features of the current row of blocks (float32), and the exponent bias of one slot's sum. */
let features: usize = 0, slotBias = 0;

/** First free byte of memory (16-aligned): the caller's layout starts there. */
export function heapBase(): usize {
  return (__heap_base + 15) & ~(<usize>15);
}

export function configure(
  imageWidth: i32, imageHeight: i32, blockSize: i32, isFloat: bool,
  g0: f32, g1: f32, g2: f32, g3: f32, v0: f32, v1: f32, v2: f32, v3: f32,
  greenPtr: usize, greenLineBytes: usize, greenRows: i32, errorsPtr: usize, squaresPtr: usize, filteredPtr: usize, tagsPtr: usize, statePtr: usize, featuresPtr: usize,
): void {
  width = imageWidth; height = imageHeight; block = blockSize; blocks = imageWidth / blockSize; columns = blocks * blockSize;
  floatInput = isFloat;
  w0 = g0; w1 = g1; w2 = g2; w3 = g3; n0 = v0; n1 = v1; n2 = v2; n3 = v3;
  features = featuresPtr; slotBias = 127 * (blockSize * blockSize / 8 + blockSize / 2);
  greenRing = greenPtr; lineBytes = greenLineBytes; ringRows = greenRows;
  errors = errorsPtr; squares = squaresPtr;
  filtered = filteredPtr; planeBytes = <usize>columns << 3;
  tags = tagsPtr; state = statePtr; variances = featuresPtr + (<usize>blocks << 2) + 15 & ~(<usize>15);
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

@inline function clampRow(y: i32, h: i32): i32 {
  return y < 0 ? 0 : y > h - 1 ? h - 1 : y;
}

@inline function greenLine(y: i32): usize {
  return greenRing + <usize>(y % ringRows) * lineBytes;
}

/**
 * e = G - (G_up + G_down + G_left + G_right) / 4 and e^2 of 8-bit samples: 4e is an integer of at most 1020 in
 * magnitude, so e = 4e / 4 and e^2 = (4e)^2 / 16 are exact in float32, as the JavaScript operations give them.
 */
function errorsOfBytes(up: usize, centre: usize, down: usize, w: i32): void {
  const e = errors + 16, e2 = squares + 16, quarter = f32x4.splat(0.25);
  for (let x = 0; x < w; x += 8) {
    const px = <usize>x;
    const c = v128.load8x8_u(centre + px, 1);
    const around = i16x8.add(i16x8.add(v128.load8x8_u(up + px, 1), v128.load8x8_u(down + px, 1)), i16x8.add(v128.load8x8_u(centre + px), v128.load8x8_u(centre + px, 2)));
    const k = i16x8.sub(i16x8.shl(c, 2), around);
    const lo = f32x4.mul(f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_s(k)), quarter);
    const hi = f32x4.mul(f32x4.convert_i32x4_s(i32x4.extend_high_i16x8_s(k)), quarter);
    const q = px << 2;
    v128.store(e + q, lo);
    v128.store(e + q, hi, 16);
    v128.store(e2 + q, f32x4.mul(lo, lo));
    v128.store(e2 + q, f32x4.mul(hi, hi), 16);
  }
}

/** The same for float32 samples, as JavaScript computes it: c - 0.25 * (((u + d) + l) + r), e * e. */
function errorsOfFloats(up: usize, centre: usize, down: usize, w: i32): void {
  const e = errors + 16, e2 = squares + 16, quarter = f32x4.splat(0.25);
  for (let x = 0; x < w; x += 4) {
    const px = <usize>x << 2;
    const u = v128.load(up + px, 4), d = v128.load(down + px, 4);
    const l = v128.load(centre + px), c = v128.load(centre + px, 4), r = v128.load(centre + px, 8);
    const v = f32x4.sub(c, f32x4.mul(quarter, f32x4.add(f32x4.add(f32x4.add(u, d), l), r)));
    v128.store(e + px, v);
    v128.store(e2 + px, f32x4.mul(v, v));
  }
}

/**
 * Even- and odd-offset sums of the values at `from` (sample x at from + 4 (4 + x)) for the first n / 4 pixels, into
 * every other 16 bytes of `even` and `odd` (the sums of e and of e^2 interleave there). A loop per statistic keeps
 * fewer vectors live than both in one.
 */
@inline function horizontalSums(from: usize, even: usize, odd: usize, n: usize, g0: v128, g1: v128, g2: v128, g3: v128): void {
  for (let o: usize = 0; o < n; o += 16) {
    const p = from + o, e = even + (o << 1), q = odd + (o << 1);
    const a0 = v128.load(p, 4), a1 = v128.load(p, 8), a2 = v128.load(p, 12), a3 = v128.load(p, 16), a4 = v128.load(p, 20), a5 = v128.load(p, 24), a6 = v128.load(p, 28);
    v128.store(e, f32x4.add(f32x4.mul(g0, a3), f32x4.mul(g2, f32x4.add(a1, a5))));
    v128.store(q, f32x4.add(f32x4.mul(g1, f32x4.add(a2, a4)), f32x4.mul(g3, f32x4.add(a0, a6))));
  }
}

/** e and e^2 of row y, then its even- and odd-offset horizontal sums into ring slot `slot`. */
function filterRow(y: i32, slot: i32): void {
  const h = height, w = width;
  const up = greenLine(clampRow(y - 1, h)), centre = greenLine(y), down = greenLine(clampRow(y + 1, h));
  if (floatInput) errorsOfFloats(up, centre, down, w);
  else errorsOfBytes(up, centre, down, w);
  // Replicated borders, written after the loops (which run past the last sample).
  const first = load<f32>(errors, 16), last = load<f32>(errors + (<usize>(4 + w - 1) << 2));
  const first2 = load<f32>(squares, 16), last2 = load<f32>(squares + (<usize>(4 + w - 1) << 2));
  for (let k = 0; k < R; k++) {
    const left = <usize>(1 + k) << 2, right = <usize>(4 + w + k) << 2;
    store<f32>(errors + left, first); store<f32>(errors + right, last);
    store<f32>(squares + left, first2); store<f32>(squares + right, last2);
  }
  const even = filtered + <usize>slot * (planeBytes << 1), odd = even + planeBytes;
  const g0 = f32x4.splat(w0), g1 = f32x4.splat(w1), g2 = f32x4.splat(w2), g3 = f32x4.splat(w3);
  const n = <usize>columns << 2;
  // Samples x - 3 .. x + 3 of the windows of pixels x .. x + 3: sample x + d at errors + 4 (4 + x + d).
  horizontalSums(errors, even, odd, n, g0, g1, g2, g3);
  horizontalSums(squares, even + 16, odd + 16, n, g0, g1, g2, g3);
}

/** Every block's slots back to empty products, all positive. */
function resetState(): void {
  const one = f32x4.splat(1), zero = i32x4.splat(0), all = i32x4.splat(-1);
  for (let b = 0, p = state; b < blocks; b++, p += 96) {
    v128.store(p, one); v128.store(p, one, 16);
    v128.store(p, zero, 32); v128.store(p, zero, 48); v128.store(p, all, 64); v128.store(p, all, 80);
  }
}

/**
 * Vertical pass of row y: per 4 pixels the window means of e and e^2 from the filtered rows at y, y -+ 2
 * (even-offset sums) and y -+ 1, y -+ 3 (odd-offset sums) and the variance m2 - m1 m1 into `variances`; then each
 * variance into its block's slot (lane j of the vectors of a block is slot 4 (y & 1) + j): exponent field into the
 * sum, mantissa into the product, positivity into the flag, and the products of the row's slots renormalised. The
 * two loops apart measured 10% faster than fused (fewer live vectors).
 */
function varianceRow(y: i32): void {
  const h = height, slotBytes = planeBytes << 1;
  const ec = filtered + <usize>(y & 7) * slotBytes;
  const eu = filtered + <usize>(clampRow(y - 2, h) & 7) * slotBytes, ed = filtered + <usize>(clampRow(y + 2, h) & 7) * slotBytes;
  const ou = filtered + <usize>(clampRow(y - 1, h) & 7) * slotBytes + planeBytes, od = filtered + <usize>(clampRow(y + 1, h) & 7) * slotBytes + planeBytes;
  const ouu = filtered + <usize>(clampRow(y - 3, h) & 7) * slotBytes + planeBytes, odd = filtered + <usize>(clampRow(y + 3, h) & 7) * slotBytes + planeBytes;
  const g0 = f32x4.splat(n0), g1 = f32x4.splat(n1), g2 = f32x4.splat(n2), g3 = f32x4.splat(n3);
  // Sums of e at offset 0 of each address, of e^2 at offset 16.
  const end = variances + (<usize>columns << 2);
  // m1 first (into `variances`), then m2 and the variance: two loops keep fewer vectors live than one.
  for (let o: usize = 0, out = variances; out < end; o += 32, out += 16) {
    const c = ec + o, u = eu + o, d = ed + o, ou1 = ou + o, od1 = od + o, ou3 = ouu + o, od3 = odd + o;
    v128.store(out, f32x4.add(f32x4.add(f32x4.add(f32x4.mul(g0, v128.load(c)), f32x4.mul(g2, f32x4.add(v128.load(u), v128.load(d)))), f32x4.mul(g1, f32x4.add(v128.load(ou1), v128.load(od1)))), f32x4.mul(g3, f32x4.add(v128.load(ou3), v128.load(od3)))));
  }
  for (let o: usize = 16, out = variances; out < end; o += 32, out += 16) {
    const c = ec + o, u = eu + o, d = ed + o, ou1 = ou + o, od1 = od + o, ou3 = ouu + o, od3 = odd + o;
    const m2 = f32x4.add(f32x4.add(f32x4.add(f32x4.mul(g0, v128.load(c)), f32x4.mul(g2, f32x4.add(v128.load(u), v128.load(d)))), f32x4.mul(g1, f32x4.add(v128.load(ou1), v128.load(od1)))), f32x4.mul(g3, f32x4.add(v128.load(ou3), v128.load(od3))));
    const m1 = v128.load(out);
    v128.store(out, f32x4.sub(m2, f32x4.mul(m1, m1)));
  }
  const zero = f32x4.splat(0), one = i32x4.splat(ONE_BITS), mantissa = i32x4.splat(MANTISSA), normal = f32x4.splat(MIN_NORMAL);
  const half = <usize>(y & 1) << 4, vectors = block >> 2;
  let q = variances;
  for (let b = 0, st = state + half; b < blocks; b++, st += 96) {
    let product = v128.load(st), exponent = v128.load(st, 32), positives = v128.load(st, 64);
    for (let k = 0; k < vectors; k++, q += 16) {
      let v = v128.load(q);
      const positive = f32x4.gt(v, zero);
      positives = v128.and(positives, positive);
      // Positive subnormals (rare: tiny weights or float pixels): scaled by 2^24, their exponent 24 lower.
      const subnormal = v128.and(positive, f32x4.lt(v, normal));
      if (v128.any_true(subnormal)) {
        exponent = i32x4.add(exponent, v128.and(subnormal, i32x4.splat(-24)));
        v = v128.bitselect(f32x4.mul(v, f32x4.splat(16777216)), v, subnormal);
      }
      exponent = i32x4.add(exponent, i32x4.shr_u(v, 23));
      product = f32x4.mul(product, v128.or(v128.and(v, mantissa), one));
    }
    exponent = i32x4.add(exponent, i32x4.shr_u(product, 23));
    product = v128.or(v128.and(product, mantissa), one);
    v128.store(st, product); v128.store(st, exponent, 32); v128.store(st, positives, 64);
  }
}

/** ln 2 as a double (Math.LN2). */
const LN2 = 0.6931471805599453;

/**
 * log(r) for r in [1, 2) in both lanes: 2 atanh(s), s = (r - 1) / (r + 1) <= 1/3, by its series to s^19 (error under
 * 1e-11), as src/internal/cfaBlockFeatures.ts's logOfMantissa computes it.
 */
@inline function logOfMantissa(r: v128): v128 {
  const one = f64x2.splat(1);
  const s = f64x2.div(f64x2.sub(r, one), f64x2.add(r, one)), u = f64x2.mul(s, s);
  let t = f64x2.add(f64x2.splat(1.0 / 17.0), f64x2.mul(u, f64x2.splat(1.0 / 19.0)));
  t = f64x2.add(f64x2.splat(1.0 / 15.0), f64x2.mul(u, t));
  t = f64x2.add(f64x2.splat(1.0 / 13.0), f64x2.mul(u, t));
  t = f64x2.add(f64x2.splat(1.0 / 11.0), f64x2.mul(u, t));
  t = f64x2.add(f64x2.splat(1.0 / 9.0), f64x2.mul(u, t));
  t = f64x2.add(f64x2.splat(1.0 / 7.0), f64x2.mul(u, t));
  t = f64x2.add(f64x2.splat(1.0 / 5.0), f64x2.mul(u, t));
  t = f64x2.add(f64x2.splat(1.0 / 3.0), f64x2.mul(u, t));
  t = f64x2.add(one, f64x2.mul(u, t));
  return f64x2.mul(f64x2.add(s, s), t);
}

/**
 * Per block of the row, the feature log(prod acquired) - log(prod interpolated) of the lattice x + y = `lattice`
 * mod 2 into `features` (float32; 0 if both lattices have a non-positive variance, NaN if one), as
 * src/internal/cfaBlockFeatures.ts's logFeatures computes it, the even lattice in lane 0 and the odd one in lane 1.
 */
function blockFeatures(lattice: i32): void {
  const bias = slotBias * 4;
  for (let b = 0, st = state, out = features; b < blocks; b++, st += 96, out += 4) {
    // Slots of x + y even: 0, 2, 5, 7; odd: 1, 3, 4, 6. A lattice is all positive when its four flags are -1.
    const allEven = (load<i32>(st, 64) & load<i32>(st, 72) & load<i32>(st, 84) & load<i32>(st, 92)) != 0;
    const allOdd = (load<i32>(st, 68) & load<i32>(st, 76) & load<i32>(st, 80) & load<i32>(st, 88)) != 0;
    if (!allEven || !allOdd) {
      store<f32>(out, !allEven && !allOdd ? 0 : NaN);
      continue;
    }
    const a = v128.load(st), c = v128.load(st, 16);
    let m = f64x2.promote_low_f32x4(a);
    m = f64x2.mul(m, f64x2.promote_low_f32x4(v128.shuffle<f32>(a, a, 2, 3, 2, 3)));
    m = f64x2.mul(m, f64x2.promote_low_f32x4(v128.shuffle<f32>(c, c, 1, 0, 1, 0)));
    m = f64x2.mul(m, f64x2.promote_low_f32x4(v128.shuffle<f32>(c, c, 3, 2, 3, 2)));
    // m = 2^k r, r in [1, 2) (m is in [1, 16)).
    const k = i64x2.shr_u(m, 52);
    const r = v128.or(v128.and(m, i64x2.splat(0x000fffffffffffff)), i64x2.splat(0x3ff0000000000000));
    const logR = logOfMantissa(r);
    const even = load<i32>(st, 32) + load<i32>(st, 40) + load<i32>(st, 52) + load<i32>(st, 60) - bias + (<i32>i64x2.extract_lane(k, 0) - 1023);
    const odd = load<i32>(st, 36) + load<i32>(st, 44) + load<i32>(st, 48) + load<i32>(st, 56) - bias + (<i32>i64x2.extract_lane(k, 1) - 1023);
    const logEven = <f64>even * LN2 + f64x2.extract_lane(logR, 0), logOdd = <f64>odd * LN2 + f64x2.extract_lane(logR, 1);
    store<f32>(out, <f32>(lattice == 0 ? logEven - logOdd : logOdd - logEven));
  }
}

/**
 * The slots of row of blocks `by` into the state (the caller takes the logs): every filtered row its window needs
 * that the ring does not hold is computed first, from the green lines (which must hold rows
 * by * block - 4 .. (by + 1) * block + 3, clamped to the image).
 */
export function blockRow(by: i32, lattice: i32): void {
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
  }
  blockFeatures(lattice);
}

// Expectation-maximisation of the mixture fitted to the block features (src/internal/zeroMeanMixture.ts): the
// per-sample work of one iteration for two samples per f64x2, the running sums in JavaScript's order in scalars.

/**
 * expNegative(d) of two lanes (d >= 0, or NaN): whole and 1/2048 steps of ln 2 from the tables (`to` turns d into
 * steps, `from` a step's remainder back into units of d), the remainder by the cubic; out of range (u >= 1075 * 2048
 * or NaN) 0 or NaN, with index 0 read meanwhile so no lane reads outside the tables. Shared by mixtureStep and
 * binnedStep.
 */
@inline function expNegative2(d: v128, whole: usize, fraction: usize, to: v128, from: v128): v128 {
  const zero = f64x2.splat(0), one = f64x2.splat(1), half = f64x2.splat(0.5), sixth = f64x2.splat(1.0 / 6.0), nan = f64x2.splat(NaN);
  const u = f64x2.mul(d, to);
  const inRange = f64x2.lt(u, f64x2.splat(1075 * 2048));
  const k = f64x2.floor(v128.bitselect(u, zero, inRange));
  const r = f64x2.mul(f64x2.sub(v128.bitselect(u, zero, inRange), k), from);
  const ki = i32x4.trunc_sat_f64x2_s_zero(k);
  const k0 = i32x4.extract_lane(ki, 0), k1 = i32x4.extract_lane(ki, 1);
  let w = v128.load64_zero(whole + (<usize>(k0 >> 11) << 3)), f = v128.load64_zero(fraction + (<usize>(k0 & 2047) << 3));
  w = v128.load64_lane(whole + (<usize>(k1 >> 11) << 3), w, 1);
  f = v128.load64_lane(fraction + (<usize>(k1 & 2047) << 3), f, 1);
  const poly = f64x2.sub(one, f64x2.mul(r, f64x2.sub(one, f64x2.mul(r, f64x2.sub(half, f64x2.mul(r, sixth))))));
  return v128.bitselect(f64x2.mul(f64x2.mul(w, f), poly), v128.bitselect(zero, nan, f64x2.eq(u, u)), inRange);
}

/**
 * One E step over the n samples at `x` (float64, padded to an even count), as fitZeroMeanMixture's loop computes it:
 * per sample the two component log densities a and b, t = expNegative(|a - b|) (its tables at `whole` and
 * `fraction`), the responsibility of the free component into `resp`, and the sums r1Sum, r1x, r0x2, logMax,
 * logTerms and product into out[0..5].
 */
export function mixtureStep(x: usize, resp: usize, n: i32, s0: f64, m1: f64, s1: f64, c0: f64, c1: f64, whole: usize, fraction: usize, toSteps: f64, fromSteps: f64, out: usize): void {
  const S0 = f64x2.splat(s0), M1 = f64x2.splat(m1), S1 = f64x2.splat(s1), C0 = f64x2.splat(c0), C1 = f64x2.splat(c1);
  const half = f64x2.splat(0.5), one = f64x2.splat(1);
  const to = f64x2.splat(toSteps), from = f64x2.splat(fromSteps);
  let r1Sum = 0.0, r1x = 0.0, r0x2 = 0.0, logMax = 0.0, logTerms = 0.0, product = 1.0;
  for (let i = 0; i < n; i += 2) {
    const at = <usize>i << 3;
    const xi = v128.load(x + at);
    const z0 = f64x2.div(xi, S0), z1 = f64x2.div(f64x2.sub(xi, M1), S1);
    const a = f64x2.sub(C0, f64x2.mul(f64x2.mul(half, z0), z0)), b = f64x2.sub(C1, f64x2.mul(f64x2.mul(half, z1), z1));
    // a >= b is false for NaN, which then takes the else branch, as in JavaScript.
    const ge = f64x2.ge(a, b);
    const top = v128.bitselect(a, b, ge);
    const t = expNegative2(v128.bitselect(f64x2.sub(a, b), f64x2.sub(b, a), ge), whole, fraction, to, from);
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

// The binned EM fit (fitZeroMeanMixtureBinned): per group of samples its mean value, count and sum of squared
// deviations; two groups per f64x2, each sum accumulated per lane (lane 0: even groups, lane 1: odd ones) and the two
// lanes added at the end, as the JavaScript loop does.

/**
 * One E step over the m groups (m even: the caller pads with a group of count 0): per group the two component log
 * densities a and b at its value (z = (x - mean) times the reciprocal of the standard deviation), t = expNegative(|a - b|), the responsibility of the free component into `resp`,
 * and the sums r1Sum, r1x, r0x2 and the log-likelihood into out[0..3].
 */
export function binnedStep(value: usize, count: usize, deviation: usize, resp: usize, m: i32, inverse0: f64, m1: f64, inverse1: f64, c0: f64, c1: f64, whole: usize, fraction: usize, toSteps: f64, fromSteps: f64, out: usize): void {
  const I0 = f64x2.splat(inverse0), M1 = f64x2.splat(m1), I1 = f64x2.splat(inverse1), C0 = f64x2.splat(c0), C1 = f64x2.splat(c1);
  const half = f64x2.splat(0.5), one = f64x2.splat(1), two = f64x2.splat(2), zero = f64x2.splat(0);
  const to = f64x2.splat(toSteps), from = f64x2.splat(fromSteps);
  let r1Sum = zero, r1x = zero, r0x2 = zero, logLik = zero;
  for (let g = 0; g < m; g += 2) {
    const at = <usize>g << 3;
    const x = v128.load(value + at), k = v128.load(count + at), dev = v128.load(deviation + at);
    const z0 = f64x2.mul(x, I0), z1 = f64x2.mul(f64x2.sub(x, M1), I1);
    const a = f64x2.sub(C0, f64x2.mul(f64x2.mul(half, z0), z0)), b = f64x2.sub(C1, f64x2.mul(f64x2.mul(half, z1), z1));
    // a >= b is false for NaN, which then takes the else branch, as in JavaScript.
    const ge = f64x2.ge(a, b);
    const top = v128.bitselect(a, b, ge);
    const t = expNegative2(v128.bitselect(f64x2.sub(a, b), f64x2.sub(b, a), ge), whole, fraction, to, from);
    const rs = f64x2.div(v128.bitselect(t, one, ge), f64x2.add(one, t));
    v128.store(resp + at, rs);
    // log(1 + t) by log1pUnit's series.
    const s = f64x2.div(t, f64x2.add(two, t)), q = f64x2.mul(s, s);
    let p = f64x2.add(f64x2.splat(1.0 / 17.0), f64x2.mul(q, f64x2.splat(1.0 / 19.0)));
    p = f64x2.add(f64x2.splat(1.0 / 15.0), f64x2.mul(q, p));
    p = f64x2.add(f64x2.splat(1.0 / 13.0), f64x2.mul(q, p));
    p = f64x2.add(f64x2.splat(1.0 / 11.0), f64x2.mul(q, p));
    p = f64x2.add(f64x2.splat(1.0 / 9.0), f64x2.mul(q, p));
    p = f64x2.add(f64x2.splat(1.0 / 7.0), f64x2.mul(q, p));
    p = f64x2.add(f64x2.splat(1.0 / 5.0), f64x2.mul(q, p));
    p = f64x2.add(f64x2.splat(1.0 / 3.0), f64x2.mul(q, p));
    p = f64x2.add(one, f64x2.mul(q, p));
    logLik = f64x2.add(logLik, f64x2.mul(k, f64x2.add(top, f64x2.mul(f64x2.mul(two, s), p))));
    const rk = f64x2.mul(rs, k);
    r1Sum = f64x2.add(r1Sum, rk);
    r1x = f64x2.add(r1x, f64x2.mul(rk, x));
    r0x2 = f64x2.add(r0x2, f64x2.mul(f64x2.sub(one, rs), f64x2.add(dev, f64x2.mul(f64x2.mul(k, x), x))));
  }
  store<f64>(out, f64x2.extract_lane(r1Sum, 0) + f64x2.extract_lane(r1Sum, 1));
  store<f64>(out, f64x2.extract_lane(r1x, 0) + f64x2.extract_lane(r1x, 1), 8);
  store<f64>(out, f64x2.extract_lane(r0x2, 0) + f64x2.extract_lane(r0x2, 1), 16);
  store<f64>(out, f64x2.extract_lane(logLik, 0) + f64x2.extract_lane(logLik, 1), 24);
}

/** Over the m groups (m even), the sum of resp * (deviation + count (value - m1)^2), per lane, then the lanes added. */
export function binnedSquares(value: usize, count: usize, deviation: usize, resp: usize, m: i32, m1: f64): f64 {
  const M1 = f64x2.splat(m1);
  let sum = f64x2.splat(0);
  for (let g = 0; g < m; g += 2) {
    const at = <usize>g << 3;
    const d = f64x2.sub(v128.load(value + at), M1);
    sum = f64x2.add(sum, f64x2.mul(v128.load(resp + at), f64x2.add(v128.load(deviation + at), f64x2.mul(f64x2.mul(v128.load(count + at), d), d))));
  }
  return f64x2.extract_lane(sum, 0) + f64x2.extract_lane(sum, 1);
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
