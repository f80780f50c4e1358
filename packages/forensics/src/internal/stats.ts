/** `selectKth` for Float64Array only (monomorphic, so V8 keeps it fast where several array types meet). */
export function selectKth64(values: Float64Array, length: number, k: number): number {
  let lo = 0, hi = length - 1;
  while (hi > lo) {
    const pivot = values[(lo + hi) >> 1]!;
    let i = lo, j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i] = values[j]!;
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return values[k]!;
  }
  return values[k]!;
}

/** In-place quickselect on `values[0..length)`: returns the k-th smallest (0-based). Reorders `values`. */
export function selectKth(values: Float32Array | Float64Array, length: number, k: number): number {
  let lo = 0;
  let hi = length - 1;
  while (hi > lo) {
    const pivot = values[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i] = values[j]!;
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return values[k]!;
  }
  return values[k]!;
}

/** Median of the first `length` values (mean of the two middle ones for even counts, as numpy and MATLAB). Reorders. */
export function medianInPlace(values: Float32Array | Float64Array, length = values.length): number {
  if (length === 0) return Number.NaN;
  const upper = selectKth(values, length, length >> 1);
  if (length % 2 === 1) return upper;
  let lower = -Infinity;
  for (let i = 0; i < length >> 1; i++) if (values[i]! > lower) lower = values[i]!;
  return (lower + upper) / 2;
}

/** Every k-th value, k = ceil(length / max): the values themselves when there are at most `max`. */
export function evenSubsample(values: Float64Array, max: number): Float64Array {
  if (values.length <= max) return values;
  const k = Math.ceil(values.length / max);
  const out = new Float64Array(Math.ceil(values.length / k));
  for (let i = 0, j = 0; i < values.length; i += k, j++) out[j] = values[i]!;
  return out;
}

/** Finite values of an array, copied. */
export function finiteValues(values: ArrayLike<number>): Float64Array {
  let n = 0;
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i]!)) n++;
  const out = new Float64Array(n);
  for (let i = 0, j = 0; i < values.length; i++) if (Number.isFinite(values[i]!)) out[j++] = values[i]!;
  return out;
}

/** The q-quantile (0..1, nearest rank) of the finite values; NaN when there are none. Does not modify the input. */
export function quantile(values: ArrayLike<number>, q: number): number {
  if (values instanceof Float32Array && values.length >= RADIX_MIN_LENGTH) return float32Quantile(values, q);
  const v = finiteValues(values);
  if (v.length === 0) return Number.NaN;
  return selectKth(v, v.length, Math.min(v.length - 1, Math.max(0, Math.round(q * (v.length - 1)))));
}

/** Below this length copying and quickselect is as fast as the two histogram passes of `float32Quantile`. */
const RADIX_MIN_LENGTH = 1 << 16;
const BITS = new Uint32Array(1);
const BITS_AS_FLOAT = new Float32Array(BITS.buffer);

/**
 * `quantile` for large Float32 maps without a copy: the float bits, made order-preserving as unsigned integers
 * (negative values bit-flipped, positive ones with the sign bit set; -0 counts as +0), are histogrammed on their
 * upper 16 bits, then, within the bin holding the wanted rank, on their lower 16 bits. Two passes, exact: it returns
 * the same value as selecting the k-th smallest of the finite values.
 */
export function float32Quantile(values: Float32Array, q: number): number {
  return float32TwoRanks(values, (n) => {
    const k = Math.min(n - 1, Math.max(0, Math.round(q * (n - 1))));
    return [k, k];
  }).a;
}

/**
 * `quantile(values, q0)` and `quantile(values, q1)` (q0 <= q1) with one histogram pass instead of two on large float32
 * maps (`float32TwoRanks`): the same values.
 */
export function quantilePair(values: ArrayLike<number>, q0: number, q1: number): [number, number] {
  if (!(values instanceof Float32Array && values.length >= RADIX_MIN_LENGTH) || !(q0 <= q1)) return [quantile(values, q0), quantile(values, q1)];
  const rank = (n: number, q: number): number => Math.min(n - 1, Math.max(0, Math.round(q * (n - 1))));
  const { a, b } = float32TwoRanks(values, (n) => [rank(n, q0), rank(n, q1)]);
  return [a, b];
}

/**
 * Pass 1 of the float32 rank selections: `values`' bits as signed 32-bit integers, the histogram of the upper 16 bits
 * of their order-preserving keys (negative floats bit-flipped, others and -0, as +0, with the sign bit set) and the
 * count of finite values. Signed views and keys throughout: V8 keeps int32 values unboxed, while uint32 values of 2^31
 * and above (every positive float's key) become doubles, which made these passes several times slower.
 */
function upperKeyHistogram(values: Float32Array): { bits: Int32Array; high: Int32Array; n: number } {
  const bits = new Int32Array(values.buffer, values.byteOffset, values.length);
  const high = new Int32Array(65536);
  let n = 0;
  for (let i = 0; i < bits.length; i++) {
    const u = bits[i]!;
    if ((u & 0x7f800000) === 0x7f800000) continue;
    high[(u < 0 ? (u === -0x80000000 ? 0x8000 : ~u >>> 16) : (u >>> 16) | 0x8000)]!++;
    n++;
  }
  return { bits, high, n };
}

/** The bin of `histogram` holding the value of rank `rank` (0-based) and that value's rank within the bin. */
function rankInHistogram(histogram: Int32Array, rank: number): [number, number] {
  let k = rank, bin = 0;
  while (k >= histogram[bin]!) k -= histogram[bin++]!;
  return [bin, k];
}

/**
 * The values of ranks r0 <= r1 (0-based, ascending) among the finite values of `values`, as `float32Quantile` finds
 * one: a histogram of the upper 16 bits of the order-preserving keys, then one pass over the lower 16 bits within the
 * bins holding the two ranks. `ranks` gets the count of finite values. Exact; -0 counts as +0.
 */
function float32TwoRanks(values: Float32Array, ranks: (n: number) => [number, number]): { n: number; a: number; b: number } {
  const { bits, high, n } = upperKeyHistogram(values);
  if (n === 0) return { n, a: Number.NaN, b: Number.NaN };
  const [r0, r1] = ranks(n);
  const [bin0, k0] = rankInHistogram(high, r0), [bin1, k1] = rankInHistogram(high, r1);
  const low0 = new Int32Array(65536), low1 = bin1 === bin0 ? low0 : new Int32Array(65536);
  for (let i = 0; i < bits.length; i++) {
    const u = bits[i]!;
    if ((u & 0x7f800000) === 0x7f800000) continue;
    // The order-preserving key: negative floats bit-flipped, others (and -0, as +0) with the sign bit set.
    const key = u < 0 ? (u === -0x80000000 ? -0x80000000 : ~u) : u | -0x80000000, h = key >>> 16;
    if (h === bin0) low0[key & 0xffff]!++;
    else if (h === bin1) low1[key & 0xffff]!++;
  }
  const value = (bin: number, low: Int32Array, rank: number): number => {
    let k = rank, sub = 0;
    while (k >= low[sub]!) k -= low[sub++]!;
    const key = (bin << 16) | sub;
    BITS[0] = key < 0 ? key & 0x7fffffff : ~key >>> 0;
    return BITS_AS_FLOAT[0]!;
  };
  return { n, a: value(bin0, low0, k0), b: value(bin1, low1, k1) };
}

/** The float32 value of an order-preserving int32 key (`float32TwoRanks`' keys; -0 comes back as +0). */
function keyValue(key: number): number {
  BITS[0] = key < 0 ? key & 0x7fffffff : ~key >>> 0;
  return BITS_AS_FLOAT[0]!;
}

/**
 * Which bins of the upper-16-bit key histogram `high` can hold the deviations |x - m| (float64) of ranks r0 and r1,
 * for a median m known to lie in [mlo, mhi], the range of the bins `bin0` to `bin1`. Float subtraction rounds
 * monotonically, so the deviations of a bin's values lie between bounds computed from its end values: bins wholly
 * below the bound B that no more than r0 deviations undercut are counted (`below`), bins wholly above the bound A that
 * r1 + 1 deviations reach are skipped, and the others (`gather`, 1 per bin; `bins`, in order) hold every deviation of
 * the two ranks; `size` values in all. Bins below the median's have bounds that grow outwards, as do those above, so
 * the bins in order of either bound are a merge of the two sides (and the median's own bins): no sort.
 */
function deviationBins(high: Int32Array, bin0: number, bin1: number, mlo: number, mhi: number, r0: number, r1: number): { gather: Uint8Array; bins: number[]; below: number; size: number } {
  const bins: number[] = [];
  for (let h = 0; h < 65536; h++) if (high[h]! > 0) bins.push(h);
  const lows = new Float64Array(bins.length), highs = new Float64Array(bins.length);
  let first = bins.length, last = -1;
  for (let i = 0; i < bins.length; i++) {
    const h = bins[i]!;
    const lo = keyValue(h << 16), hi = keyValue((h << 16) | 0xffff);
    const up = hi - mlo, down = lo - mhi;
    lows[i] = down > 0 ? down : up < 0 ? -up : 0;
    highs[i] = Math.max(Math.abs(up), Math.abs(down));
    if (h >= bin0 && h <= bin1) { first = Math.min(first, i); last = i; }
  }
  // Indices in ascending order of a bound: the median's bins first (in ascending order of the bound between them),
  // then the two sides merged outwards (ties in either order: only the bound values and their counts matter).
  const ascending = (bound: Float64Array): Int32Array => {
    const order = new Int32Array(bins.length);
    let k = 0;
    const middle: number[] = [];
    for (let i = first; i <= last; i++) middle.push(i);
    middle.sort((a, b) => bound[a]! - bound[b]!);
    let left = first - 1, right = last + 1, m = 0;
    while (k < bins.length) {
      const candidates = [m < middle.length ? middle[m]! : -1, left >= 0 ? left : -1, right < bins.length ? right : -1];
      let pick = -1, from = -1;
      for (let c = 0; c < 3; c++) if (candidates[c]! >= 0 && (pick < 0 || bound[candidates[c]!]! < bound[pick]!)) { pick = candidates[c]!; from = c; }
      order[k++] = pick;
      if (from === 0) m++;
      else if (from === 1) left--;
      else right++;
    }
    return order;
  };
  let upper = Infinity;
  const byHigh = ascending(highs);
  for (let i = 0, count = 0; i < byHigh.length; i++) {
    count += high[bins[byHigh[i]!]!]!;
    if (count >= r1 + 1) { upper = highs[byHigh[i]!]!; break; }
  }
  let lower = 0;
  const byLow = ascending(lows);
  for (let i = 0, count = 0; i < byLow.length;) {
    const d = lows[byLow[i]!]!;
    if (count > r0) break;
    lower = d;
    while (i < byLow.length && lows[byLow[i]!] === d) count += high[bins[byLow[i++]!]!]!;
  }
  const gather = new Uint8Array(65536), kept: number[] = [];
  let below = 0, size = 0;
  for (let i = 0; i < bins.length; i++) {
    const h = bins[i]!;
    if (highs[i]! < lower) below += high[h]!;
    else if (lows[i]! <= upper) { gather[h] = 1; kept.push(h); size += high[h]!; }
  }
  return { gather, bins: kept, below, size };
}

/** From this many values (a full-resolution map) `robustCenterScale` takes `float32CenterScale`. */
const CENTER_SCALE_MIN_LENGTH = 1 << 21;
/** Bins of deviations at most this many are counted value by value (`float32CenterScale`): 4 MB of histograms. */
const MAX_COUNTED_BINS = 16;

/**
 * The median and the median of |x - median| (float64) of the finite values of a large float32 map, exactly the values
 * `medianFloat64InPlace` gives of the values and then of their deviations, in two passes over the map without a copy
 * (issue 35: four passes and a 48 MB array of rounded deviations took 0.3-0.8 s per 12 MP map in fuseMaps). Pass 1
 * histograms the upper 16 bits of the order-preserving keys; the bins of the two middle ranks bound the median, which
 * bounds each bin's deviations (`deviationBins`); pass 2 histograms the lower 16 bits of the median's bins and of the
 * bins that can hold the middle deviations (at most MAX_COUNTED_BINS of them: every value there is then known with its
 * count, as in an ELA map of whole error levels), or gathers those bins' values (at most an eighth of the map); a
 * weighted selection of the exact deviations gives the two middle ones. Otherwise the exact median comes first and a
 * third pass gathers with it (no gathering at all when half the map equals the median).
 */
export function float32CenterScale(values: Float32Array): { n: number; median: number; mad: number } {
  const { bits, high, n } = upperKeyHistogram(values);
  if (n === 0) return { n, median: Number.NaN, mad: Number.NaN };
  const r0 = (n - 1) >> 1, r1 = n >> 1;
  const [bin0, k0] = rankInHistogram(high, r0), [bin1, k1] = rankInHistogram(high, r1);
  const low0 = new Int32Array(65536), low1 = bin1 === bin0 ? low0 : new Int32Array(65536);
  let plan = deviationBins(high, bin0, bin1, keyValue(bin0 << 16), keyValue((bin1 << 16) | 0xffff), r0, r1);
  // A bin's histogram costs as much as reading 65536 values: small maps gather instead.
  const counted = plan.bins.length <= Math.min(MAX_COUNTED_BINS, Math.floor(n / 65536));
  const gathering = !counted && plan.size <= n / 8;
  // Counted bins: slot + 1 by bin (0 = not counted), and one 65536-entry histogram of the lower 16 bits per slot.
  const slots = new Int32Array(counted ? 65536 : 0), lows = new Int32Array(counted ? plan.bins.length * 65536 : 0);
  if (counted) plan.bins.forEach((h, i) => { slots[h] = i + 1; });
  let gathered = new Float32Array(gathering ? plan.size : 0);
  for (let i = 0, j = 0; i < bits.length; i++) {
    const u = bits[i]!;
    if ((u & 0x7f800000) === 0x7f800000) continue;
    // The order-preserving key: negative floats bit-flipped, others (and -0, as +0) with the sign bit set.
    const key = u < 0 ? (u === -0x80000000 ? -0x80000000 : ~u) : u | -0x80000000, h = key >>> 16;
    if (h === bin0) low0[key & 0xffff]!++;
    else if (h === bin1) low1[key & 0xffff]!++;
    if (counted) {
      const slot = slots[h]!;
      if (slot > 0) lows[((slot - 1) << 16) | (key & 0xffff)]!++;
    } else if (gathering && plan.gather[h] === 1) gathered[j++] = values[i]!;
  }
  const rankValue = (bin: number, low: Int32Array, rank: number): number => {
    let k = rank, sub = 0;
    while (k >= low[sub]!) k -= low[sub++]!;
    return keyValue((bin << 16) | sub);
  };
  const a = rankValue(bin0, low0, k0), b = rankValue(bin1, low1, k1);
  const median = n % 2 === 1 ? b : (a + b) / 2;
  let deviations: Float64Array, weights: Float64Array;
  if (counted) {
    let m = 0;
    for (let i = 0; i < lows.length; i++) if (lows[i]! > 0) m++;
    deviations = new Float64Array(m);
    weights = new Float64Array(m);
    for (let i = 0, j = 0; i < lows.length; i++) {
      if (lows[i] === 0) continue;
      deviations[j] = Math.abs(keyValue((plan.bins[i >>> 16]! << 16) | (i & 0xffff)) - median);
      weights[j++] = lows[i]!;
    }
  } else {
    if (!gathering) {
      // Half the values equal to the median (a saturated or empty majority): every middle deviation is 0.
      if (a === b && low1[floatKey(b) & 0xffff]! > r1) return { n, median, mad: 0 };
      plan = deviationBins(high, bin0, bin1, median, median, r0, r1);
      gathered = new Float32Array(plan.size);
      for (let i = 0, j = 0; i < bits.length; i++) {
        const u = bits[i]!;
        if ((u & 0x7f800000) === 0x7f800000) continue;
        const key = u < 0 ? (u === -0x80000000 ? -0x80000000 : ~u) : u | -0x80000000;
        if (plan.gather[key >>> 16] === 1) gathered[j++] = values[i]!;
      }
    }
    deviations = new Float64Array(gathered.length);
    for (let i = 0; i < gathered.length; i++) deviations[i] = Math.abs(gathered[i]! - median);
    weights = new Float64Array(gathered.length).fill(1);
  }
  const lower = weightedSelect(deviations, weights, r0 - plan.below);
  const upper = weightedSelect(deviations, weights, r1 - plan.below);
  return { n, median, mad: n % 2 === 1 ? upper : (lower + upper) / 2 };
}

/**
 * The k-th smallest (0-based) of the multiset holding each `values[i]` `weights[i]` times (positive whole weights):
 * quickselect with a three-way partition, the weights of each side summed. Reorders both arrays.
 */
function weightedSelect(values: Float64Array, weights: Float64Array, k: number): number {
  let lo = 0, hi = values.length, seed = 0x9e3779b9;
  for (;;) {
    // A pseudo-random pivot: the values come in bin order, a V of deviations on which the middle one is the least.
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const pivot = values[lo + Math.floor((seed / 4294967296) * (hi - lo))]!;
    // [lo, lt) < pivot, [lt, i) == pivot, [gt, hi) > pivot.
    let lt = lo, i = lo, gt = hi, less = 0, equal = 0;
    while (i < gt) {
      const v = values[i]!, w = weights[i]!;
      if (v < pivot) {
        values[i] = values[lt]!; weights[i] = weights[lt]!;
        values[lt] = v; weights[lt] = w;
        lt++; i++; less += w;
      } else if (v > pivot) {
        gt--;
        values[i] = values[gt]!; weights[i] = weights[gt]!;
        values[gt] = v; weights[gt] = w;
      } else { i++; equal += w; }
    }
    if (k < less) hi = lt;
    else if (k < less + equal) return pivot;
    else { k -= less + equal; lo = gt; }
  }
}

/** The order-preserving int32 key of a float32 value (`keyValue`'s inverse; -0 as +0). */
function floatKey(value: number): number {
  BITS_AS_FLOAT[0] = value;
  const u = BITS[0]! | 0;
  return u < 0 ? (u === -0x80000000 ? -0x80000000 : ~u) : u | -0x80000000;
}

/**
 * The median of |x - median| (float64) over the `n` finite values of a large float32 map, as `medianFloat64InPlace`
 * of those deviations gives it, without a float64 copy of them all and a quickselect over it (issue 35: 0.2-0.3 s per
 * 12 MP map in fuseMaps). Rounding to float32 is monotone, so the deviations in order have their rounded values in
 * order: one pass histograms the upper 16 bits of the rounded deviations' bits (non-negative floats order like their
 * bits), which gives the bins holding the two middle ranks and the ranks within them; a second pass gathers the exact
 * deviations of those bins, and a selection within them gives the values. Undefined where a deviation rounds to
 * infinity (the caller then selects over all exact deviations).
 */
function float32MedianDeviation(values: Float32Array, median: number, n: number): number | undefined {
  const rounded = new Float32Array(values.length);
  const keys = new Int32Array(rounded.buffer);
  const high = new Int32Array(65536);
  let zeros = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i]!;
    // Non-finite values get the key -1, which no bin holds.
    if (x - x === 0) {
      const d = Math.abs(x - median);
      rounded[i] = d;
      high[keys[i]! >>> 16]!++;
      if (d === 0) zeros++;
    } else keys[i] = -1;
  }
  if (high[0x7f80]! > 0) return undefined;
  const r0 = (n - 1) >> 1, r1 = n >> 1;
  // Half the values equal to the median (a map with a saturated or empty majority): the median deviation is 0.
  if (r1 < zeros) return 0;
  const [bin0, k0] = rankInHistogram(high, r0), [bin1, k1] = rankInHistogram(high, r1);
  const exact0 = new Float64Array(high[bin0]!), exact1 = bin1 === bin0 ? exact0 : new Float64Array(high[bin1]!);
  for (let i = 0, j0 = 0, j1 = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key < 0) continue;
    const bin = key >>> 16;
    if (bin === bin0) exact0[j0++] = Math.abs(values[i]! - median);
    else if (bin === bin1) exact1[j1++] = Math.abs(values[i]! - median);
  }
  const lower = selectKth64(exact0, exact0.length, k0);
  const upper = selectKth64(exact1, exact1.length, k1);
  return n % 2 === 1 ? upper : (lower + upper) / 2;
}


/** Mean and population standard deviation of the finite values. */
export function meanStd(values: ArrayLike<number>): { mean: number; std: number; count: number } {
  let s = 0;
  let s2 = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i]!;
    if (!Number.isFinite(x)) continue;
    s += x;
    s2 += x * x;
    n++;
  }
  if (n === 0) return { mean: Number.NaN, std: Number.NaN, count: 0 };
  const mean = s / n;
  return { mean, std: Math.sqrt(Math.max(0, s2 / n - mean * mean)), count: n };
}

/** Median and MAD scaled to a Gaussian sigma (1.4826 * median |x - median|) of the finite values. */
export function robustCenterScale(values: ArrayLike<number>): { median: number; scale: number } {
  if (values instanceof Float32Array && values.length >= RADIX_MIN_LENGTH) {
    // A large float32 map (full-resolution ELA and median residual maps, 12 M values at 12 MP): its median by two
    // histogram passes on the float bits instead of a copy and a quickselect; the same values either way.
    if (values.length >= CENTER_SCALE_MIN_LENGTH) {
      const { n, median, mad } = float32CenterScale(values);
      if (n === 0) return { median: Number.NaN, scale: Number.NaN };
      return { median, scale: 1.4826 * mad };
    }
    // Maps of cells (a few hundred thousand values): two histogram passes for the median and two for the MAD cost
    // less than float32CenterScale's planning there.
    const { n, a, b } = float32TwoRanks(values, (count) => [(count - 1) >> 1, count >> 1]);
    if (n === 0) return { median: Number.NaN, scale: Number.NaN };
    const median = n % 2 === 1 ? b : (a + b) / 2;
    const mad = float32MedianDeviation(values, median, n);
    if (mad !== undefined) return { median, scale: 1.4826 * mad };
    const d = new Float64Array(n);
    for (let i = 0, j = 0; i < values.length; i++) {
      const x = values[i]!;
      if (Number.isFinite(x)) d[j++] = Math.abs(x - median);
    }
    return { median, scale: 1.4826 * medianFloat64InPlace(d, n) };
  }
  const v = finiteValues(values);
  if (v.length === 0) return { median: Number.NaN, scale: Number.NaN };
  // finiteValues gives a Float64Array: the monomorphic selection (same algorithm as medianInPlace, same values) is
  // several times faster on the full-resolution maps fuseMaps standardises.
  const median = medianFloat64InPlace(v, v.length);
  for (let i = 0; i < v.length; i++) v[i] = Math.abs(v[i]! - median);
  return { median, scale: 1.4826 * medianFloat64InPlace(v, v.length) };
}

/**
 * Fraction of finite cells whose robust z-score exceeds `threshold` (`twoSided`: |z|). The scale has a floor of
 * 1e-6 of the median's magnitude plus `minScale`, so a flat map does not turn rounding noise into outliers.
 * `centre`: `robustCenterScale(values)` when the caller already has it (not computed again).
 */
export function outlierFraction(values: ArrayLike<number>, threshold: number, twoSided: boolean, minScale = 1e-9, centre: { median: number; scale: number } = robustCenterScale(values)): number {
  const { median, scale } = centre;
  if (!Number.isFinite(median)) return 0;
  const s = Math.max(scale, Math.abs(median) * 1e-6, minScale);
  let count = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i]!;
    if (!Number.isFinite(x)) continue;
    n++;
    const z = (x - median) / s;
    if (z > threshold || (twoSided && z < -threshold)) count++;
  }
  return n === 0 ? 0 : count / n;
}

/** Pearson correlation of the pairs where both values are finite. */
export function pearson(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let n = 0, sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!, y = b[i]!;
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    n++; sa += x; sb += y; saa += x * x; sbb += y * y; sab += x * y;
  }
  const cov = sab - (sa * sb) / n;
  return cov / Math.sqrt((saa - (sa * sa) / n) * (sbb - (sb * sb) / n));
}

export function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : Number.isFinite(x) ? x : 0;
}

/** The arrays one after another in a new Float32Array. */
export function concatFloat32(parts: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) { out.set(p, offset); offset += p.length; }
  return out;
}

/** The arrays one after another in a new Float64Array. */
export function concatFloat64(parts: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) { out.set(p, offset); offset += p.length; }
  return out;
}

/**
 * The `m` largest values of a Float32Array (as a multiset, in no particular order; -0 as +0), from the same two
 * histogram passes as `float32Quantile`: values above the bin of the m-th largest are copied in the second pass, those
 * in it are rebuilt from their bits. Undefined when a value is not finite. The m-th largest value of the union of
 * such lists from parts of an array is the m-th largest of the whole array, so quantiles near 1 of a map split into
 * bands come from short lists instead of the whole map.
 */
export function float32Largest(values: Float32Array, m: number): Float32Array | undefined {
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length);
  const key = (u: number): number => (u === 0x80000000 ? 0x80000000 : u & 0x80000000 ? ~u >>> 0 : (u | 0x80000000) >>> 0);
  const high = new Uint32Array(65536);
  for (let i = 0; i < bits.length; i++) {
    const u = bits[i]!;
    if ((u & 0x7f800000) === 0x7f800000) return undefined;
    high[key(u) >>> 16]!++;
  }
  if (m >= values.length) return Float32Array.from(values, (v) => v + 0);
  const out = new Float32Array(Math.max(0, m));
  if (m <= 0) return out;
  let need = m, bin = 65535;
  while (need > high[bin]!) need -= high[bin--]!;
  const low = high.fill(0);
  let j = 0;
  for (let i = 0; i < bits.length; i++) {
    const k = key(bits[i]!);
    if (k >>> 16 > bin) out[j++] = values[i]!;
    else if (k >>> 16 === bin) low[k & 0xffff]!++;
  }
  for (let l = 65535; need > 0; l--) {
    const take = Math.min(need, low[l]!);
    if (take === 0) continue;
    const k = ((bin << 16) | l) >>> 0;
    BITS[0] = k & 0x80000000 ? k & 0x7fffffff : ~k >>> 0;
    out.fill(BITS_AS_FLOAT[0]!, j, j + take);
    j += take;
    need -= take;
  }
  return out;
}

/**
 * `float32Largest(values, m)` for finite non-negative values (sign bit clear) whose histogram of bits >>> 16 is
 * already known (`high`, 32768 bins used; counted while the values were computed): one pass instead of two, the same
 * multiset of the m largest values. `values` may be any subset that holds every value whose bits >>> 16 are the m-th
 * largest's or more (the sweep's candidates): only those are read, and the multiset is the same (its order may not be).
 */
export function float32LargestNonNegative(values: Float32Array, high: Uint32Array, m: number): Float32Array {
  if (m >= values.length) return Float32Array.from(values);
  const out = new Float32Array(Math.max(0, m));
  if (m <= 0) return out;
  let need = m, bin = 0x7fff;
  while (need > high[bin]!) need -= high[bin--]!;
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length);
  const low = new Uint32Array(65536);
  let j = 0;
  for (let i = 0; i < bits.length; i++) {
    const b = bits[i]! >>> 16;
    if (b < bin) continue;
    if (b > bin) out[j++] = values[i]!;
    else low[bits[i]! & 0xffff]!++;
  }
  for (let l = 65535; need > 0; l--) {
    const take = Math.min(need, low[l]!);
    if (take === 0) continue;
    BITS[0] = ((bin << 16) | l) >>> 0;
    out.fill(BITS_AS_FLOAT[0]!, j, j + take);
    j += take;
    need -= take;
  }
  return out;
}

/**
 * `medianInPlace` for a Float64Array only (monomorphic, so V8 keeps it fast; the shared one sees several array types):
 * the same value, the median of a multiset not depending on how it is selected. Reorders `values`.
 */
export function medianFloat64InPlace(values: Float64Array, length: number): number {
  const half = length >> 1;
  const upper = selectKth64(values, length, half);
  if (length % 2 === 1) return upper;
  let lower = -Infinity;
  for (let i = 0; i < half; i++) if (values[i]! > lower) lower = values[i]!;
  return (lower + upper) / 2;
}

/**
 * The median (mean of the two middle values for even counts, as `medianInPlace`) of `n` non-negative, non-NaN
 * float32 values given as their int32 bit patterns, which order like the values. Selection by a branch-free Lomuto
 * partition (every element swapped, the store index advanced by the sign bit of x - pivot): quickselect's compares on
 * noise mispredict about half the time, which dominated the per-block medians. Runs equal to the pivot are split off
 * by a second pass (x <= pivot), so many equal values (flat regions) stay linear. Reorders `bits`; `floats` is a
 * Float32Array view of the same memory (to read the values back).
 */
export function medianOfNonNegativeBits(bits: Int32Array, floats: Float32Array, n: number): number {
  const half = n >> 1;
  const upper = selectBits(bits, n, half);
  if (n % 2 === 1) return floats[upper]!;
  // Everything before the upper middle's index is <= it; the lower middle is their maximum.
  let lower = 0;
  for (let i = 0; i < upper; i++) {
    const d = bits[i]! - lower;
    lower += d & ~(d >> 31);
  }
  BITS[0] = lower;
  return (BITS_AS_FLOAT[0]! + floats[upper]!) / 2;
}

/** Index (always `k`) holding the k-th smallest of bits[0..n) after a partial sort: everything before it is <= it. */
function selectBits(v: Int32Array, n: number, k: number): number {
  let lo = 0, hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const pivot = v[mid]!;
    v[mid] = v[hi]!;
    v[hi] = pivot;
    let store = lo;
    for (let i = lo; i < hi; i++) {
      const x = v[i]!;
      v[i] = v[store]!;
      v[store] = x;
      store += (x - pivot) >>> 31;
    }
    v[hi] = v[store]!;
    v[store] = pivot;
    if (store === k) return k;
    if (store > k) { hi = store - 1; continue; }
    // Split the values equal to the pivot off the right part: [store + 1, equalEnd) == pivot.
    let equalEnd = store + 1;
    for (let i = store + 1; i <= hi; i++) {
      const x = v[i]!;
      v[i] = v[equalEnd]!;
      v[equalEnd] = x;
      equalEnd += (x - pivot - 1) >>> 31;
    }
    if (k < equalEnd) return k;
    lo = equalEnd;
  }
  return k;
}
