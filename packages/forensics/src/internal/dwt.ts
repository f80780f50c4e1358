/**
 * One level of a decimated wavelet analysis along one axis with half-sample symmetric extension (MATLAB 'sym',
 * PyWavelets 'symmetric'): out[o] = sum_j f[j] x[2o + 1 - j], n_out = floor((n + L - 1) / 2). Returns the first
 * `keep` outputs of every line.
 */
function reflect(i: number, n: number): number {
  // Half-sample symmetric: x[-1] = x[0], x[n] = x[n-1]; repeated for filters longer than the signal.
  for (;;) {
    if (i < 0) i = -i - 1;
    else if (i >= n) i = 2 * n - 1 - i;
    else return i;
  }
}

/** Filters every row of `plane` (width x height) with `f` and keeps `keep` decimated outputs per row. */
export function analyseRows(plane: Float32Array, width: number, height: number, f: Float64Array, keep: number): Float32Array {
  const L = f.length;
  const out = new Float32Array(keep * height);
  const line = new Float64Array(width + 2 * L);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let i = -L; i < width + L; i++) line[i + L] = plane[row + reflect(i, width)]!;
    for (let o = 0; o < keep; o++) {
      const base = 2 * o + 1 + L;
      let s = 0;
      for (let j = 0; j < L; j++) s += f[j]! * line[base - j]!;
      out[y * keep + o] = s;
    }
  }
  return out;
}

/** Filters every column of `plane` (width x height) with `f` and keeps `keep` decimated outputs per column. */
export function analyseColumns(plane: Float32Array, width: number, height: number, f: Float64Array, keep: number): Float32Array {
  const L = f.length;
  const out = new Float32Array(width * keep);
  const acc = new Float64Array(width);
  for (let o = 0; o < keep; o++) {
    acc.fill(0);
    for (let j = 0; j < L; j++) {
      const row = reflect(2 * o + 1 - j, height) * width;
      const fj = f[j]!;
      for (let x = 0; x < width; x++) acc[x]! += fj * plane[row + x]!;
    }
    for (let x = 0; x < width; x++) out[o * width + x] = acc[x]!;
  }
  return out;
}
