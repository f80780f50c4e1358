import FFT from 'fft.js';

/** Magnitude of the 2-D DFT of a real n x n tile (n a power of two), accumulated into `into` (n*n, unshifted). */
export function accumulateMagnitude2d(tile: Float64Array, n: number, into: Float64Array): void {
  const fft = new FFT(n);
  const rows = new Float64Array(2 * n * n);
  const out = fft.createComplexArray() as number[];
  const line = new Float64Array(n);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) line[x] = tile[y * n + x]!;
    fft.realTransform(out, line);
    fft.completeSpectrum(out);
    rows.set(out, 2 * n * y);
  }
  const column = fft.createComplexArray() as number[];
  for (let x = 0; x < n; x++) {
    for (let y = 0; y < n; y++) {
      column[2 * y] = rows[2 * n * y + 2 * x]!;
      column[2 * y + 1] = rows[2 * n * y + 2 * x + 1]!;
    }
    fft.transform(out, column);
    for (let y = 0; y < n; y++) into[y * n + x]! += Math.hypot(out[2 * y]!, out[2 * y + 1]!);
  }
}
