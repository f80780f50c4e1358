/**
 * Order statistics of a block map (tens of thousands of non-negative float32 values: the wavelet noise sigmas, the
 * median residual's and ELA's block means) from one radix sort instead of a copy and a quickselect per statistic:
 * each kernel asks for a robust centre and scale, an outlier fraction and two or three quantiles, six selections over
 * the same values. A k-th smallest value is one number whichever way it is selected, so every statistic here equals
 * the one of `stats.ts` it replaces (`quantile`, `robustCenterScale`, `outlierFraction`; test/sortedFloat32.test.ts
 * compares them bit for bit). Maps with a value that is negative, -0, NaN or infinite get `undefined`: the caller
 * then takes those.
 */
export class SortedFloat32 {
  private constructor(
    /** The map's values, ascending, as float64 (what `finiteValues` would copy). */
    readonly sorted: Float64Array,
  ) {}

  /** The sorted values of `values`, or undefined when one is not a non-negative finite float (sign bit clear). */
  static of(values: Float32Array): SortedFloat32 | undefined {
    const n = values.length;
    const bits = new Uint32Array(values.buffer, values.byteOffset, n);
    // Least significant digit first, 16 bits a digit: two counting passes (the bits of non-negative floats order like
    // the values). A sign or an all-ones exponent means a value this class does not take.
    const low = new Uint32Array(65536), high = new Uint32Array(65536);
    let spoiled = 0;
    for (let i = 0; i < n; i++) {
      const u = bits[i]!;
      spoiled |= (u >>> 31) | (((u & 0x7f800000) === 0x7f800000) ? 1 : 0);
      low[u & 0xffff]!++;
      high[u >>> 16]!++;
    }
    if (spoiled !== 0) return undefined;
    exclusivePrefix(low);
    exclusivePrefix(high);
    const once = new Uint32Array(n);
    for (let i = 0; i < n; i++) { const u = bits[i]!; once[low[u & 0xffff]!++] = u; }
    const twice = new Uint32Array(n);
    for (let i = 0; i < n; i++) { const u = once[i]!; twice[high[u >>> 16]!++] = u; }
    const sorted = new Float64Array(n), floats = new Float32Array(twice.buffer);
    for (let i = 0; i < n; i++) sorted[i] = floats[i]!;
    return new SortedFloat32(sorted);
  }

  /** `quantile(values, q)`: the value of nearest rank round(q (n - 1)); NaN when there are no values. */
  quantile(q: number): number {
    const n = this.sorted.length;
    if (n === 0) return Number.NaN;
    return this.sorted[Math.min(n - 1, Math.max(0, Math.round(q * (n - 1))))]!;
  }

  /** `robustCenterScale(values)`: the median and 1.4826 times the median absolute deviation from it. */
  robustCenterScale(): { median: number; scale: number } {
    const v = this.sorted, n = v.length;
    if (n === 0) return { median: Number.NaN, scale: Number.NaN };
    const median = n % 2 === 1 ? v[n >> 1]! : (v[(n >> 1) - 1]! + v[n >> 1]!) / 2;
    // The deviations |x - median| of the values at or above the median rise with the index, those below it fall
    // (a rounded difference is monotone in x): merging the two runs outward from the median gives them in order.
    let up = 0;
    while (up < n && v[up]! < median) up++;
    let down = up - 1;
    const half = n >> 1;
    let previous = 0, current = 0;
    for (let r = 0; r <= half; r++) {
      const du = up < n ? Math.abs(v[up]! - median) : Number.POSITIVE_INFINITY;
      const dd = down >= 0 ? Math.abs(v[down]! - median) : Number.POSITIVE_INFINITY;
      previous = current;
      if (du <= dd) { current = du; up++; } else { current = dd; down--; }
    }
    const mad = n % 2 === 1 ? current : (previous + current) / 2;
    return { median, scale: 1.4826 * mad };
  }

  /**
   * `outlierFraction(values, threshold, twoSided, minScale)`: the fraction of values whose robust z-score passes the
   * threshold, the same floors on the scale. Counted on the sorted values (the count does not depend on the order).
   * `centre`: this map's `robustCenterScale()` when the caller already has it (not computed again).
   */
  outlierFraction(threshold: number, twoSided: boolean, minScale = 1e-9, centre: { median: number; scale: number } = this.robustCenterScale()): number {
    const { median, scale } = centre;
    if (!Number.isFinite(median)) return 0;
    const s = Math.max(scale, Math.abs(median) * 1e-6, minScale);
    const v = this.sorted;
    let count = 0;
    for (let i = 0; i < v.length; i++) {
      const z = (v[i]! - median) / s;
      if (z > threshold || (twoSided && z < -threshold)) count++;
    }
    return v.length === 0 ? 0 : count / v.length;
  }
}

/** Counts to the index where each bin's run starts. */
function exclusivePrefix(counts: Uint32Array): void {
  let sum = 0;
  for (let i = 0; i < counts.length; i++) { const c = counts[i]!; counts[i] = sum; sum += c; }
}
