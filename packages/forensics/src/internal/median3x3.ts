function med3(a: number, b: number, c: number): number {
  return a > b ? (b > c ? b : a > c ? c : a) : a > c ? a : b > c ? c : b;
}

/**
 * 3x3 median filter with replicated borders. Uses the identity median9 = med3(max of column minima, median of column
 * medians, min of column maxima) on the three sorted columns (Paeth, Graphics Gems 1990), so each column is sorted once.
 */
export function median3x3(plane: Float32Array, width: number, height: number): Float32Array {
  const out = new Float32Array(width * height);
  const lo = new Float32Array(width);
  const mid = new Float32Array(width);
  const hi = new Float32Array(width);
  for (let y = 0; y < height; y++) {
    const up = Math.max(0, y - 1) * width;
    const row = y * width;
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
      out[row + x] = med3(maxLo, medMid, minHi);
    }
  }
  return out;
}
