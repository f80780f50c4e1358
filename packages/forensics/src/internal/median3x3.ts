function med3(a: number, b: number, c: number): number {
  return a > b ? (b > c ? b : a > c ? c : a) : a > c ? a : b > c ? c : b;
}

/**
 * 3x3 median filter with replicated borders. Uses the identity median9 = med3(max of column minima, median of column
 * medians, min of column maxima) on the three sorted columns (Paeth, Graphics Gems 1990), so each column is sorted once.
 */
export function median3x3(plane: Float32Array, width: number, height: number): Float32Array {
  return nonNegative(plane, 0, plane.length) ? median3x3Bits(plane, width, height, 0, height, false) : median3x3Compare(plane, width, height, 0, height, false);
}

/**
 * |plane - median3x3(plane)| for the rows [y0, y1) only (the median reads the rows y0 - 1 and y1 as well, clamped to
 * the image): a band of the median residual, computed without the full median plane.
 */
export function medianResidualRows(plane: Float32Array, width: number, height: number, y0: number, y1: number): Float32Array {
  const from = Math.max(0, y0 - 1) * width, to = Math.min(height, y1 + 1) * width;
  return nonNegative(plane, from, to) ? median3x3Bits(plane, width, height, y0, y1, true) : median3x3Compare(plane, width, height, y0, y1, true);
}

/** True when every sample in [from, to) has its sign bit clear (no negative values, no -0): the bits sort as int32. */
function nonNegative(plane: Float32Array, from: number, to: number): boolean {
  const bits = new Int32Array(plane.buffer, plane.byteOffset, plane.length);
  let any = 0;
  for (let i = from; i < to; i++) any |= bits[i]!;
  return any >= 0;
}

/**
 * The same network on the samples' bit patterns: for non-negative float32 values (luma of any 8-bit image) the int32
 * bit patterns order like the values and differ by less than 2^31, so min and max are branch-free integer arithmetic
 * (d = a - b, m = d >> 31, min = b + (d & m), max = a - (d & m)). Compare-and-branch on noisy data mispredicts about
 * every other time; this is several times faster and returns the very same samples.
 */
function median3x3Bits(plane: Float32Array, width: number, height: number, y0: number, y1: number, residual: boolean): Float32Array {
  const out = new Float32Array(width * (y1 - y0));
  const p = new Int32Array(plane.buffer, plane.byteOffset, plane.length);
  const o = new Int32Array(out.buffer);
  const lo = new Int32Array(width + 2), mid = new Int32Array(width + 2), hi = new Int32Array(width + 2);
  for (let y = y0; y < y1; y++) {
    const up = Math.max(0, y - 1) * width, row = y * width, down = Math.min(height - 1, y + 1) * width;
    const at = (y - y0) * width;
    for (let x = 0; x < width; x++) {
      const a = p[up + x]!, b = p[row + x]!, c = p[down + x]!;
      let d = a - b, m = d >> 31;
      const ab = b + (d & m), AB = a - (d & m);
      d = ab - c; m = d >> 31;
      lo[x + 1] = c + (d & m);
      d = AB - c; m = d >> 31;
      hi[x + 1] = AB - (d & m);
      const u = c + (d & m);
      d = ab - u; m = d >> 31;
      mid[x + 1] = ab - (d & m);
    }
    lo[0] = lo[1]!; mid[0] = mid[1]!; hi[0] = hi[1]!;
    lo[width + 1] = lo[width]!; mid[width + 1] = mid[width]!; hi[width + 1] = hi[width]!;
    for (let x = 0; x < width; x++) {
      let a = lo[x]!, b = lo[x + 1]!, c = lo[x + 2]!;
      let d = a - b, m = d >> 31;
      let e = a - (d & m);
      d = e - c; m = d >> 31;
      const maxLo = e - (d & m);
      a = hi[x]!; b = hi[x + 1]!; c = hi[x + 2]!;
      d = a - b; m = d >> 31;
      e = b + (d & m);
      d = e - c; m = d >> 31;
      const minHi = c + (d & m);
      a = mid[x]!; b = mid[x + 1]!; c = mid[x + 2]!;
      const medMid = median3(a, b, c);
      o[at + x] = median3(maxLo, medMid, minHi);
    }
    if (residual) for (let x = 0; x < width; x++) out[at + x] = Math.abs(plane[row + x]! - out[at + x]!);
  }
  return out;
}

/** Branch-free median of three int32 values whose pairwise differences fit in int32. */
function median3(a: number, b: number, c: number): number {
  let d = a - b, m = d >> 31;
  const lo = b + (d & m), hi = a - (d & m);
  d = hi - c; m = d >> 31;
  const h = c + (d & m);
  d = lo - h; m = d >> 31;
  return lo - (d & m);
}

function median3x3Compare(plane: Float32Array, width: number, height: number, y0: number, y1: number, residual: boolean): Float32Array {
  const out = new Float32Array(width * (y1 - y0));
  const lo = new Float32Array(width);
  const mid = new Float32Array(width);
  const hi = new Float32Array(width);
  for (let y = y0; y < y1; y++) {
    const up = Math.max(0, y - 1) * width;
    const row = y * width;
    const at = (y - y0) * width;
    const down = Math.min(height - 1, y + 1) * width;
    for (let x = 0; x < width; x++) {
      let a = plane[up + x]!, b = plane[row + x]!, c = plane[down + x]!, t: number;
      if (a > b) { t = a; a = b; b = t; }
      if (b > c) { t = b; b = c; c = t; }
      if (a > b) { t = a; a = b; b = t; }
      lo[x] = a; mid[x] = b; hi[x] = c;
    }
    for (let x = 0; x < width; x++) {
      const l = x > 0 ? x - 1 : 0;
      const r = x < width - 1 ? x + 1 : width - 1;
      const maxLo = Math.max(lo[l]!, lo[x]!, lo[r]!);
      const medMid = med3(mid[l]!, mid[x]!, mid[r]!);
      const minHi = Math.min(hi[l]!, hi[x]!, hi[r]!);
      const median = med3(maxLo, medMid, minHi);
      out[at + x] = residual ? Math.abs(plane[row + x]! - median) : median;
    }
  }
  return out;
}
