import { medianInPlace, selectKth64 } from './stats.js';

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

/**
 * Median over a (2r+1) x (2r+1) window, the window clipped at the borders, for small maps. Full windows (odd count)
 * use a quickselect specialised to Float64Array (the shared `medianInPlace` sees several array types and is slower
 * for it); clipped windows use `medianInPlace`. Same values either way: the median of a multiset does not depend on
 * how it is selected.
 */
export function windowMedian(map: Float32Array, width: number, height: number, r: number): Float32Array {
  const out = new Float32Array(width * height);
  const side = 2 * r + 1, full = side * side, half = full >> 1;
  const scratch = new Float64Array(full);
  const sliding = noNaN(map) && width > 2 * r + 1 ? slidingMedianRow(map, width, r) : undefined;
  for (let y = 0; y < height; y++) {
    const inside = y >= r && y < height - r;
    if (inside && sliding) sliding(y, out);
    for (let x = 0; x < width; x++) {
      if (inside && x >= r && x < width - r) {
        if (sliding) continue;
        for (let v = 0, n = 0, p = (y - r) * width + x - r; v < side; v++, p += width) for (let u = 0; u < side; u++) scratch[n++] = map[p + u]!;
        out[y * width + x] = selectKth64(scratch, full, half);
        continue;
      }
      let n = 0;
      for (let v = Math.max(0, y - r); v <= Math.min(height - 1, y + r); v++) {
        for (let u = Math.max(0, x - r); u <= Math.min(width - 1, x + r); u++) scratch[n++] = map[v * width + u]!;
      }
      out[y * width + x] = medianInPlace(scratch, n);
    }
  }
  return out;
}

function noNaN(map: Float32Array): boolean {
  for (let i = 0; i < map.length; i++) if (map[i] !== map[i]) return false;
  return true;
}

/**
 * The full windows of one row by a sliding sorted window: sorted once at the row's first window, then per step each
 * value of the column leaving is overwritten by the value of the column entering and moved to its place (a few
 * positions on average) instead of a new selection among (2r+1)^2 values. The middle of the sorted window is the
 * median: the same value as the selection's (no NaN in the map, where order is total up to -0 = +0).
 */
function slidingMedianRow(map: Float32Array, width: number, r: number): (y: number, out: Float32Array) => void {
  const side = 2 * r + 1, full = side * side, half = full >> 1;
  const sorted = new Float64Array(full);
  return (y, out) => {
    for (let v = 0, n = 0, p = (y - r) * width; v < side; v++, p += width) for (let u = 0; u < side; u++) sorted[n++] = map[p + u]!;
    sorted.sort();
    out[y * width + r] = sorted[half]!;
    for (let x = r + 1; x < width - r; x++) {
      for (let v = 0, p = (y - r) * width; v < side; v++, p += width) {
        const leaving = map[p + x - r - 1]!, entering = map[p + x + r]!;
        // Any slot holding the leaving value will do: binary search for it.
        let lo = 0, hi = full - 1;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (sorted[mid]! < leaving) lo = mid + 1; else hi = mid;
        }
        let i = lo;
        while (i > 0 && sorted[i - 1]! > entering) { sorted[i] = sorted[i - 1]!; i--; }
        while (i < full - 1 && sorted[i + 1]! < entering) { sorted[i] = sorted[i + 1]!; i++; }
        sorted[i] = entering;
      }
      out[y * width + x] = sorted[half]!;
    }
  };
}
