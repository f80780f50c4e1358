import FFT from 'fft.js';
import { finiteHypot, hypot } from './hypot.js';

/** The transform and work buffers of one tile size, kept per thread: a 512 x 512 tile needs 4 MB of rows. */
interface Fft2Work {
  fft: FFT;
  /** Row spectra, n complex values a row. */
  rows: Float64Array;
  out: Float64Array;
  /** Four columns gathered at once. */
  columns: Float64Array[];
}

const works = new Map<number, Fft2Work>();

function workOf(n: number): Fft2Work {
  let work = works.get(n);
  if (!work) {
    // fft.js only indexes its arrays; Float64Arrays keep the doubles unboxed (its own createComplexArray is a plain
    // array, whose reads and writes dominated this function).
    work = { fft: new FFT(n), rows: new Float64Array(2 * n * n), out: new Float64Array(2 * n), columns: [0, 1, 2, 3].map(() => new Float64Array(2 * n)) };
    works.set(n, work);
  }
  return work;
}

/**
 * Magnitude of the 2-D DFT of a real n x n tile (n a power of two), accumulated into `into` (n*n, unshifted): rows
 * by fft.js's real transform, then columns by its complex one. Buffers are reused between calls of one size.
 */
export function accumulateMagnitude2d(tile: Float64Array, n: number, into: Float64Array): void {
  const { fft, rows, out, columns } = workOf(n);
  // fft.js reads and writes by index only: each row transforms straight from the tile into its place in `rows`.
  for (let y = 0; y < n; y++) {
    const spectrum = rows.subarray(2 * n * y, 2 * n * (y + 1)) as unknown as number[];
    fft.realTransform(spectrum, tile.subarray(n * y, n * (y + 1)) as unknown as number[]);
    fft.completeSpectrum(spectrum);
  }
  const result = out as unknown as number[];
  // Columns are gathered four at a time so each strided read brings a whole cache line (4 complex values) in.
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
      fft.transform(result, columns[j]! as unknown as number[]);
      const x = x0 + j;
      // Finite tiles give finite spectra: finiteHypot (branch-free, the same value) unless a tile held NaN or infinity.
      for (let y = 0; y < n; y++) {
        const a = out[2 * y]!, b = out[2 * y + 1]!;
        into[y * n + x]! += a - a === 0 && b - b === 0 ? finiteHypot(a, b) : hypot(a, b);
      }
    }
  }
}
