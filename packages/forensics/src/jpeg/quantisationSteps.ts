import type { DctPlane } from './blockDct.js';

/**
 * Coefficients within this distance of a multiple of a step count as on it (pixel rounding adds about 0.3 rms);
 * a quarter of the step for steps below 4, so that chance stays at half at most.
 */
const ON_LATTICE = 1;
const tolerance = (step: number): number => Math.min(ON_LATTICE, step / 4);
/** Fewer nonzero coefficients than this leave a frequency's step unknown (1). */
const MIN_SAMPLES = 24;

/**
 * How well the values sit on multiples of `step`, corrected for chance: (share within t = min(1, step / 4) of a
 * nonzero multiple - 2 t / step) / (1 - 2 t / step); values within 1 of 0 say nothing and are skipped. 1 = every value on the lattice, 0 = as random.
 */
export function latticeFit(values: Float32Array, count: number, step: number): { fit: number; samples: number } {
  const t = tolerance(step);
  let on = 0, samples = 0;
  for (let i = 0; i < count; i++) {
    const c = values[i]!;
    if (Math.abs(c) <= ON_LATTICE) continue;
    samples++;
    const d = Math.abs(c - step * Math.floor(c / step + 0.5));
    if (d <= t && Math.abs(c) >= step - t) on++;
  }
  const chance = Math.min(1, (2 * t) / step);
  return { fit: samples === 0 || chance >= 1 ? 0 : (on / samples - chance) / (1 - chance), samples };
}

/**
 * The quantisation step of one frequency estimated from the histogram of its coefficients (a decoded JPEG's are
 * multiples of the step up to rounding): the largest step from 2 to `maxStep` whose lattice fit is at least 0.9 of
 * the best and above `minFit`; 1 (unknown or unquantised) otherwise. Divisors of the true step fit too, hence the
 * largest; multiples of it fit about half as well.
 */
export function estimateStep(values: Float32Array, count: number, maxStep = 64, minFit = 0.25): { step: number; fit: number } {
  const fits = new Float64Array(maxStep + 1);
  let best = 0;
  for (let q = 2; q <= maxStep; q++) {
    const { fit, samples } = latticeFit(values, count, q);
    if (samples < MIN_SAMPLES) break;
    fits[q] = fit;
    if (fit > best) best = fit;
  }
  if (best < minFit) return { step: 1, fit: best };
  for (let q = maxStep; q >= 2; q--) if (fits[q]! >= 0.9 * best) return { step: q, fit: fits[q]! };
  return { step: 1, fit: best };
}

/** The coefficients of frequency k (8 u + v) of the listed blocks (all when `blocks` is undefined; a sampled plane's own). */
export function frequencyValues(plane: DctPlane, k: number, blocks?: Int32Array): Float32Array {
  if (plane.sampled) {
    // A sampled plane holds exactly its listed blocks, in order (the same list the caller sampled).
    const out = new Float32Array(plane.sampled.length);
    for (let i = 0; i < out.length; i++) out[i] = plane.coefficients[i * 64 + k]!;
    return out;
  }
  const n = blocks ? blocks.length : plane.blocksX * plane.blocksY;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = plane.coefficients[(blocks ? blocks[i]! : i) * 64 + k]!;
  return out;
}

/**
 * `frequencyValues(plane, k)` of every listed frequency of a whole (not sampled) plane, in one pass over its blocks
 * (each block's coefficients are read together instead of one strided pass over the plane per frequency).
 */
export function frequencyColumns(plane: DctPlane, frequencies: readonly number[]): Float32Array[] {
  const n = plane.blocksX * plane.blocksY, f = frequencies.length;
  const columns = frequencies.map(() => new Float32Array(n));
  const ks = Int32Array.from(frequencies), c = plane.coefficients;
  for (let b = 0, o = 0; b < n; b++, o += 64) for (let i = 0; i < f; i++) columns[i]![b] = c[o + ks[i]!]!;
  return columns;
}

/**
 * Quantisation steps of the listed frequencies: the plane's own table when it came from a JPEG file, else estimated
 * from the coefficient histograms (`estimateStep`).
 */
export function quantisationSteps(plane: DctPlane, frequencies: readonly number[], blocks?: Int32Array): { steps: Uint16Array; fits: Float64Array } {
  const steps = new Uint16Array(64).fill(1), fits = new Float64Array(64);
  for (const k of frequencies) {
    if (plane.table) { steps[k] = plane.table[k]!; fits[k] = 1; continue; }
    const values = frequencyValues(plane, k, blocks);
    const { step, fit } = estimateStep(values, values.length);
    steps[k] = step;
    fits[k] = fit;
  }
  return { steps, fits };
}

/** `count` block indices spread evenly over a plane of `total` blocks (all when count >= total). */
export function sampleBlocks(total: number, count: number): Int32Array {
  // Loops, not Int32Array.from with a map function (V8's iterator path, several times slower at 40,000 blocks).
  const n = Math.min(count, total), out = new Int32Array(n);
  if (count >= total) for (let i = 0; i < n; i++) out[i] = i;
  else for (let i = 0; i < n; i++) out[i] = Math.floor(((i + 0.5) * total) / count);
  return out;
}
