import { medianInPlace } from './stats.js';

/** Separable convolution with replicated borders: `kx` along rows, then `ky` along columns; both odd-length. */
export function separableConvolve(plane: Float32Array, width: number, height: number, kx: Float64Array, ky: Float64Array): Float32Array {
  const tmp = new Float32Array(width * height);
  const rx = kx.length >> 1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      let s = 0;
      if (x >= rx && x < width - rx) {
        for (let j = 0; j < kx.length; j++) s += kx[j]! * plane[row + x + j - rx]!;
      } else {
        for (let j = 0; j < kx.length; j++) s += kx[j]! * plane[row + Math.min(width - 1, Math.max(0, x + j - rx))]!;
      }
      tmp[row + x] = s;
    }
  }
  const out = new Float32Array(width * height);
  const ry = ky.length >> 1;
  const acc = new Float64Array(width);
  for (let y = 0; y < height; y++) {
    acc.fill(0);
    for (let j = 0; j < ky.length; j++) {
      const src = Math.min(height - 1, Math.max(0, y + j - ry)) * width;
      const k = ky[j]!;
      for (let x = 0; x < width; x++) acc[x]! += k * tmp[src + x]!;
    }
    for (let x = 0; x < width; x++) out[y * width + x] = acc[x]!;
  }
  return out;
}

/** Sum over a (2r+1) x (2r+1) window with replicated borders, for small maps. */
export function windowSum(map: Float32Array, width: number, height: number, r: number): Float32Array {
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let s = 0;
      for (let v = -r; v <= r; v++) {
        const yy = Math.min(height - 1, Math.max(0, y + v)) * width;
        for (let u = -r; u <= r; u++) s += map[yy + Math.min(width - 1, Math.max(0, x + u))]!;
      }
      out[y * width + x] = s;
    }
  }
  return out;
}

/** Median over a (2r+1) x (2r+1) window, the window clipped at the borders, for small maps. */
export function windowMedian(map: Float32Array, width: number, height: number, r: number): Float32Array {
  const out = new Float32Array(width * height);
  const scratch = new Float64Array((2 * r + 1) ** 2);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let n = 0;
      for (let v = Math.max(0, y - r); v <= Math.min(height - 1, y + r); v++) {
        for (let u = Math.max(0, x - r); u <= Math.min(width - 1, x + r); u++) scratch[n++] = map[v * width + u]!;
      }
      out[y * width + x] = medianInPlace(scratch, n);
    }
  }
  return out;
}
