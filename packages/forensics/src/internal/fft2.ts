import FFT from 'fft.js';
import { finiteHypot, hypot } from './hypot.js';

/** Magnitude of the 2-D DFT of a real n x n tile (n a power of two), accumulated into `into` (n*n, unshifted). */
export function accumulateMagnitude2d(tile: Float64Array, n: number, into: Float64Array): void {
  const fft = new FFT(n);
  const rows = new Float64Array(2 * n * n);
  // fft.js only indexes its arrays; Float64Arrays keep the doubles unboxed (its own createComplexArray is a plain
  // array, whose reads and writes dominated this function).
  const out = new Float64Array(2 * n) as unknown as number[];
  const line = new Float64Array(n);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) line[x] = tile[y * n + x]!;
    fft.realTransform(out, line);
    fft.completeSpectrum(out);
    rows.set(out, 2 * n * y);
  }
  // Columns are gathered four at a time so each strided read brings a whole cache line (4 complex values) in.
  const columns = [0, 1, 2, 3].map(() => new Float64Array(2 * n));
  for (let x0 = 0; x0 < n; x0 += 4) {
    const k = Math.min(4, n - x0);
    for (let y = 0; y < n; y++) {
      const o = 2 * n * y + 2 * x0;
      for (let j = 0; j < k; j++) {
        columns[j]![2 * y] = rows[o + 2 * j]!;
        columns[j]![2 * y + 1] = rows[o + 2 * j + 1]!;
      }
    }
    for (let j = 0; j < k; j++) {
      fft.transform(out, columns[j]! as unknown as number[]);
      const x = x0 + j;
      // Finite tiles give finite spectra: finiteHypot (branch-free, the same value) unless a tile held NaN or infinity.
      for (let y = 0; y < n; y++) {
        const a = out[2 * y]!, b = out[2 * y + 1]!;
        into[y * n + x]! += a - a === 0 && b - b === 0 ? finiteHypot(a, b) : hypot(a, b);
      }
    }
  }
}
