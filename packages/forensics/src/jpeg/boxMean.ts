/** Box mean of a per-block plane over (2r + 1)^2 blocks (clipped at the borders). */
export function boxMean(values: Float64Array, w: number, h: number, r: number): Float64Array {
  const W = w + 1;
  const sat = new Float64Array(W * (h + 1));
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) sat[(y + 1) * W + x + 1] = values[y * w + x]! + sat[(y + 1) * W + x]! + sat[y * W + x + 1]! - sat[y * W + x]!;
  const out = new Float64Array(w * h);
  for (let y = 0; y < h; y++) {
    const y0 = Math.max(0, y - r), y1 = Math.min(h, y + r + 1);
    for (let x = 0; x < w; x++) {
      const x0 = Math.max(0, x - r), x1 = Math.min(w, x + r + 1);
      out[y * w + x] = (sat[y1 * W + x1]! - sat[y0 * W + x1]! - sat[y1 * W + x0]! + sat[y0 * W + x0]!) / ((y1 - y0) * (x1 - x0));
    }
  }
  return out;
}
