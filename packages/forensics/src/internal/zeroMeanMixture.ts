import { expNegative, FRACTION, FROM_STEPS, STEPS, TO_STEPS, WHOLE } from './expNegative.js';
import { wasmModule, type WasmModule } from './wasm.js';

/** Parameters of a two-component Gaussian mixture whose first component has mean 0. */
export interface ZeroMeanMixture {
  /** Standard deviation of the zero-mean component. */
  sigma0: number;
  /** Mean and standard deviation of the free component. */
  mu1: number;
  sigma1: number;
  /** Weight of the free component. */
  weight1: number;
  iterations: number;
}

const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

export function logNormal(x: number, mu: number, sigma: number): number {
  const z = (x - mu) / sigma;
  return -0.5 * z * z - Math.log(sigma) - LOG_SQRT_2PI;
}

/**
 * Per value, logNormal(x, 0, sigma0) - logNormal(x, mu1, sigma1), x = `degenerate` where the value is not finite, as
 * float32: the same operations as the two calls, with their logs of sigma taken once.
 */
export function logLikelihoodRatios(values: Float32Array, { sigma0, mu1, sigma1 }: Pick<ZeroMeanMixture, 'sigma0' | 'mu1' | 'sigma1'>, degenerate: number): Float32Array {
  const out = new Float32Array(values.length);
  const log0 = Math.log(sigma0), log1 = Math.log(sigma1);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const x = v - v === 0 ? v : degenerate;
    const z0 = (x - 0) / sigma0, z1 = (x - mu1) / sigma1;
    out[i] = (-0.5 * z0 * z0 - log0 - LOG_SQRT_2PI) - (-0.5 * z1 * z1 - log1 - LOG_SQRT_2PI);
  }
  return out;
}

/**
 * Expectation-maximisation for x ~ (1-w) N(0, s0^2) + w N(m1, s1^2), as Ferrara et al. 2012 (section IV) fit their
 * CFA feature: the zero-mean component models regions without demosaicing traces. Standard deviations have a floor
 * of `minSigma` so a degenerate component cannot collapse onto one value.
 */
export function fitZeroMeanMixture(x: Float64Array, maxIterations = 100, tolerance = 1e-7, minSigma = 1e-3): ZeroMeanMixture {
  const n = x.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += x[i]!;
  mean /= n;
  let variance = 0;
  for (let i = 0; i < n; i++) variance += (x[i]! - mean) ** 2;
  variance /= n;
  // Start as Ferrara et al. do: the no-trace component narrower (a tenth of the variance) than the data.
  let s1 = Math.max(minSigma, Math.sqrt(variance));
  let s0 = Math.max(minSigma, Math.sqrt(variance / 10));
  let m1 = mean;
  let w = 0.5;
  let previous = -Infinity;
  let it = 0;
  const resp = new Float64Array(n);
  const wasm = n > 0 ? mixtureWasm(x) : undefined;
  for (; it < maxIterations; it++) {
    let r1Sum = 0, r1x = 0, r0x2 = 0, logMax = 0, logTerms = 0, product = 1;
    // Per sample one exponential (expNegative): with t = exp(-|a - b|), log-sum-exp = max(a, b) + log(1 + t) and the
    // responsibility of the free component is 1 / (1 + t) or t / (1 + t). The log(1 + t) terms are summed as the
    // log of their running product (each factor is in [1, 2]; flushed before 2^960).
    const logW0 = Math.log(1 - w), logW1 = Math.log(w), logS0 = Math.log(s0), logS1 = Math.log(s1);
    const c0 = logW0 - logS0 - LOG_SQRT_2PI, c1 = logW1 - logS1 - LOG_SQRT_2PI;
    if (wasm !== undefined) {
      wasm.step(wasm.x, wasm.resp, n, s0, m1, s1, c0, c1, wasm.whole, wasm.fraction, TO_STEPS, FROM_STEPS, wasm.out);
      const sums = wasm.sums();
      r1Sum = sums[0]!; r1x = sums[1]!; r0x2 = sums[2]!; logMax = sums[3]!; logTerms = sums[4]!; product = sums[5]!;
    } else for (let i = 0; i < n; i++) {
      const xi = x[i]!;
      const z0 = xi / s0, z1 = (xi - m1) / s1;
      const a = c0 - 0.5 * z0 * z0;
      const b = c1 - 0.5 * z1 * z1;
      let r: number;
      if (a >= b) {
        const t = expNegative(a - b);
        r = t / (1 + t);
        logMax += a;
        product *= 1 + t;
      } else {
        const t = expNegative(b - a);
        r = 1 / (1 + t);
        logMax += b;
        product *= 1 + t;
      }
      if (product > 1e289) { logTerms += Math.log(product); product = 1; }
      resp[i] = r;
      r1Sum += r;
      r1x += r * xi;
      r0x2 += (1 - r) * xi * xi;
    }
    const logLik = logMax + logTerms + Math.log(product);
    const r0Sum = n - r1Sum;
    w = Math.min(1 - 1e-6, Math.max(1e-6, r1Sum / n));
    m1 = r1Sum > 0 ? r1x / r1Sum : m1;
    let v1 = 0;
    if (wasm !== undefined) v1 = wasm.weightedSquares(wasm.x, wasm.resp, n, m1);
    else for (let i = 0; i < n; i++) v1 += resp[i]! * (x[i]! - m1) ** 2;
    s1 = Math.max(minSigma, Math.sqrt(r1Sum > 0 ? v1 / r1Sum : s1 * s1));
    s0 = Math.max(minSigma, Math.sqrt(r0Sum > 0 ? r0x2 / r0Sum : s0 * s0));
    if (Math.abs(logLik - previous) <= tolerance * Math.abs(logLik)) { it++; break; }
    previous = logLik;
  }
  return { sigma0: s0, mu1: m1, sigma1: s1, weight1: w, iterations: it };
}

/** The samples, responsibilities and exp tables in the WebAssembly module, and its E and M step sums. */
interface MixtureWasm {
  x: number; resp: number; whole: number; fraction: number; out: number;
  step: (x: number, resp: number, n: number, s0: number, m1: number, s1: number, c0: number, c1: number, whole: number, fraction: number, toSteps: number, fromSteps: number, out: number) => void;
  weightedSquares: (x: number, resp: number, n: number, m1: number) => number;
  sums: () => Float64Array;
}

/**
 * The per-sample loops of fitZeroMeanMixture in the WebAssembly module of the CFA features (mixtureStep and
 * weightedSquares there): the same operations per sample, two samples per f64x2, and the sums accumulated in the same
 * order, so the fit is the same to the bit, and faster (part of cfa-variance in `benchmarks/forensics/compare.mjs`).
 * The samples are copied in once per fit (256 KB for the CFA kernel's 32768).
 */
function mixtureWasm(x: Float64Array): MixtureWasm | undefined {
  const module: WasmModule | undefined = wasmModule('cfaBlockFeatures');
  if (module === undefined) return undefined;
  const n = x.length, padded = 8 * (n + (n & 1));
  const xPtr = module.heapBase(), respPtr = xPtr + padded;
  // expNegative's tables, for the module's copy of it.
  const fractionPtr = respPtr + padded, wholePtr = fractionPtr + 8 * STEPS, outPtr = wholePtr + 8 * WHOLE.length;
  module.reserve(outPtr + 48);
  const buffer = module.memory.buffer;
  const samples = new Float64Array(buffer, xPtr, padded / 8);
  samples.set(x);
  samples.fill(0, n);
  new Float64Array(buffer, fractionPtr, STEPS).set(FRACTION);
  new Float64Array(buffer, wholePtr, WHOLE.length).set(WHOLE);
  const sums = new Float64Array(buffer, outPtr, 6);
  return {
    x: xPtr, resp: respPtr, whole: wholePtr, fraction: fractionPtr, out: outPtr,
    step: module.function('mixtureStep'), weightedSquares: module.function('weightedSquares'), sums: () => sums,
  };
}

/**
 * Below this many samples `fitZeroMeanMixtureBinned` fits them one by one (`fitZeroMeanMixture`, the same result to
 * the bit): binning saves little there.
 */
export const BINNED_MIN_SAMPLES = 8192;

/**
 * `fitZeroMeanMixture` on samples grouped into narrow bins: the same start, updates, iteration cap and convergence
 * test, but each E step evaluates the two densities once per occupied bin (at the mean of its samples) instead of once
 * per sample, and the M step takes each bin's exact count, sum and sum of squared deviations. The responsibilities
 * are smooth functions of x, so replacing them within a bin by their value at the bin's mean errs by the second order
 * of the bin width (about (h / sigma)^2 / 24 relative, h = 16 standard deviations / `bins`): the fit moves by about
 * 1e-5 of its values on a 12 MP photo with 4096 bins, 20 times faster. Values where a density can be narrower than a
 * bin stay single samples: exact zeros (blocks where both lattices have a zero variance, which a collapsing zero-mean
 * component fits) form one group of equal values, and values within 4 bin widths of 0 and beyond mean +- 8 standard
 * deviations are kept one by one. Under `BINNED_MIN_SAMPLES` samples this is `fitZeroMeanMixture` itself.
 */
export function fitZeroMeanMixtureBinned(x: Float64Array, bins = 4096, maxIterations = 100, tolerance = 1e-7, minSigma = 1e-3): ZeroMeanMixture {
  const n = x.length;
  if (n < BINNED_MIN_SAMPLES) return fitZeroMeanMixture(x, maxIterations, tolerance, minSigma);
  // The start of fitZeroMeanMixture, the same sums in the same order.
  let mean = 0, lowest = Infinity, highest = -Infinity;
  for (let i = 0; i < n; i++) { const v = x[i]!; mean += v; if (v < lowest) lowest = v; if (v > highest) highest = v; }
  mean /= n;
  let variance = 0;
  for (let i = 0; i < n; i++) variance += (x[i]! - mean) ** 2;
  variance /= n;
  const sd = Math.sqrt(variance);
  const lo = Math.max(lowest, mean - 8 * sd), hi = Math.min(highest, mean + 8 * sd), width = (hi - lo) / bins;
  if (!(width > 0) || !Number.isFinite(width)) return fitZeroMeanMixture(x, maxIterations, tolerance, minSigma);
  const groups = groupSamples(x, lo, hi, width, bins);
  let s1 = Math.max(minSigma, sd);
  let s0 = Math.max(minSigma, Math.sqrt(variance / 10));
  let m1 = mean;
  let w = 0.5;
  let previous = -Infinity;
  let it = 0;
  const { value, count, deviation } = groups, m = value.length;
  const resp = new Float64Array(m);
  const wasm = binnedWasm(groups);
  const sums = new Float64Array(4);
  for (; it < maxIterations; it++) {
    const logW0 = Math.log(1 - w), logW1 = Math.log(w), logS0 = Math.log(s0), logS1 = Math.log(s1);
    const c0 = logW0 - logS0 - LOG_SQRT_2PI, c1 = logW1 - logS1 - LOG_SQRT_2PI;
    if (wasm !== undefined) {
      wasm.step(wasm.value, wasm.count, wasm.deviation, wasm.resp, m, 1 / s0, m1, 1 / s1, c0, c1, wasm.whole, wasm.fraction, TO_STEPS, FROM_STEPS, wasm.out);
      sums.set(wasm.sums);
    } else binnedStep(groups, resp, 1 / s0, m1, 1 / s1, c0, c1, sums);
    const r1Sum = sums[0]!, r1x = sums[1]!, r0x2 = sums[2]!, logLik = sums[3]!;
    const r0Sum = n - r1Sum;
    w = Math.min(1 - 1e-6, Math.max(1e-6, r1Sum / n));
    m1 = r1Sum > 0 ? r1x / r1Sum : m1;
    const v1 = wasm !== undefined ? wasm.squares(wasm.value, wasm.count, wasm.deviation, wasm.resp, m, m1) : binnedSquares(groups, resp, m1);
    s1 = Math.max(minSigma, Math.sqrt(r1Sum > 0 ? v1 / r1Sum : s1 * s1));
    s0 = Math.max(minSigma, Math.sqrt(r0Sum > 0 ? r0x2 / r0Sum : s0 * s0));
    if (Math.abs(logLik - previous) <= tolerance * Math.abs(logLik)) { it++; break; }
    previous = logLik;
  }
  return { sigma0: s0, mu1: m1, sigma1: s1, weight1: w, iterations: it };
}

/**
 * The binned fit's E step over the groups: per group the two component log densities at its value (z by the
 * reciprocals of the standard deviations), t =
 * expNegative(|a - b|), the responsibility into `resp` and, each summed separately over the even and the odd groups
 * and then added (the module's two lanes), r1Sum, r1x, r0x2 and the log-likelihood into out[0..3].
 */
function binnedStep({ value, count, deviation }: SampleGroups, resp: Float64Array, inverse0: number, m1: number, inverse1: number, c0: number, c1: number, out: Float64Array): void {
  const r1Sum = [0, 0], r1x = [0, 0], r0x2 = [0, 0], logLik = [0, 0];
  for (let g = 0; g < value.length; g++) {
    const x = value[g]!, k = count[g]!, lane = g & 1;
    const z0 = x * inverse0, z1 = (x - m1) * inverse1;
    const a = c0 - 0.5 * z0 * z0;
    const b = c1 - 0.5 * z1 * z1;
    const ge = a >= b;
    const t = expNegative(ge ? a - b : b - a);
    const r = (ge ? t : 1) / (1 + t);
    resp[g] = r;
    logLik[lane] = logLik[lane]! + k * ((ge ? a : b) + log1pUnit(t));
    const rk = r * k;
    r1Sum[lane] = r1Sum[lane]! + rk;
    r1x[lane] = r1x[lane]! + rk * x;
    r0x2[lane] = r0x2[lane]! + (1 - r) * (deviation[g]! + k * x * x);
  }
  out[0] = r1Sum[0]! + r1Sum[1]!; out[1] = r1x[0]! + r1x[1]!; out[2] = r0x2[0]! + r0x2[1]!; out[3] = logLik[0]! + logLik[1]!;
}

/** Sum over the groups of resp * (deviation + count (value - m1)^2), even and odd groups apart, then added. */
function binnedSquares({ value, count, deviation }: SampleGroups, resp: Float64Array, m1: number): number {
  let even = 0, odd = 0;
  for (let g = 0; g < value.length; g += 2) {
    const d = value[g]! - m1;
    even += resp[g]! * (deviation[g]! + count[g]! * d * d);
    if (g + 1 < value.length) {
      const e = value[g + 1]! - m1;
      odd += resp[g + 1]! * (deviation[g + 1]! + count[g + 1]! * e * e);
    }
  }
  return even + odd;
}

/** The groups, responsibilities and exp tables in the WebAssembly module, and its binned E and M step sums. */
interface BinnedWasm {
  value: number; count: number; deviation: number; resp: number; whole: number; fraction: number; out: number;
  step: (value: number, count: number, deviation: number, resp: number, m: number, s0: number, m1: number, s1: number, c0: number, c1: number, whole: number, fraction: number, toSteps: number, fromSteps: number, out: number) => void;
  squares: (value: number, count: number, deviation: number, resp: number, m: number, m1: number) => number;
  sums: Float64Array;
}

/** Wasm binned steps ran so far (tests check that the module really ran). */
export let wasmBinnedFits = 0;

/**
 * The per-group loops of the binned fit in the WebAssembly module of the CFA features (binnedStep and binnedSquares
 * there): the same operations per group, two groups per f64x2 with the lanes summed apart as binnedStep does here,
 * so the same fit to the bit. The groups are padded to an even count (with one of count 0, which adds nothing).
 */
function binnedWasm({ value, count, deviation }: SampleGroups): BinnedWasm | undefined {
  const module: WasmModule | undefined = wasmModule('cfaBlockFeatures');
  if (module === undefined) return undefined;
  wasmBinnedFits++;
  const m = value.length, bytes = 8 * (m + (m & 1));
  const valuePtr = module.heapBase(), countPtr = valuePtr + bytes, deviationPtr = countPtr + bytes, respPtr = deviationPtr + bytes;
  const fractionPtr = respPtr + bytes, wholePtr = fractionPtr + 8 * STEPS, outPtr = wholePtr + 8 * WHOLE.length;
  module.reserve(outPtr + 32);
  const buffer = module.memory.buffer;
  for (const [ptr, array] of [[valuePtr, value], [countPtr, count], [deviationPtr, deviation]] as const) {
    const target = new Float64Array(buffer, ptr, bytes / 8);
    target.set(array);
    target.fill(0, m);
  }
  new Float64Array(buffer, fractionPtr, STEPS).set(FRACTION);
  new Float64Array(buffer, wholePtr, WHOLE.length).set(WHOLE);
  return {
    value: valuePtr, count: countPtr, deviation: deviationPtr, resp: respPtr, whole: wholePtr, fraction: fractionPtr, out: outPtr,
    step: module.function('binnedStep'), squares: module.function('binnedSquares'), sums: new Float64Array(buffer, outPtr, 4),
  };
}

/** Samples grouped for the binned fit: per group the mean of its samples, their count and sum of (x - mean)^2. */
interface SampleGroups { value: Float64Array; count: Float64Array; deviation: Float64Array }

/**
 * Bins of `width` over [lo, hi] (bin of x: floor((x - lo) / width), the last one closed), the exact zeros as one group,
 * and as single samples the values within 4 widths of 0 and outside [lo, hi]. Groups in order: bins, zeros, singles.
 */
function groupSamples(x: Float64Array, lo: number, hi: number, width: number, bins: number): SampleGroups {
  const n = x.length, near = 4 * width;
  // Per sample its bin, `bins` for a zero or -1 for a single.
  const slot = new Int32Array(n);
  const count = new Float64Array(bins + 1), sum = new Float64Array(bins + 1);
  let singles = 0;
  for (let i = 0; i < n; i++) {
    const v = x[i]!;
    let s: number;
    if (v === 0) s = bins;
    else if (Math.abs(v) < near || !(v >= lo && v <= hi)) { s = -1; singles++; }
    else s = Math.min(bins - 1, Math.floor((v - lo) / width));
    slot[i] = s;
    if (s >= 0) { count[s]!++; sum[s]! += x[i]!; }
  }
  // Group index of each occupied bin.
  const index = new Int32Array(bins + 1).fill(-1);
  let groups = 0;
  for (let s = 0; s <= bins; s++) if (count[s]! > 0) index[s] = groups++;
  const value = new Float64Array(groups + singles), counts = new Float64Array(groups + singles), deviation = new Float64Array(groups + singles);
  for (let s = 0; s <= bins; s++) if (count[s]! > 0) { value[index[s]!] = sum[s]! / count[s]!; counts[index[s]!] = count[s]!; }
  let single = groups;
  for (let i = 0; i < n; i++) {
    const s = slot[i]!;
    if (s < 0) { value[single] = x[i]!; counts[single++] = 1; continue; }
    const d = x[i]! - value[index[s]!]!;
    deviation[index[s]!]! += d * d;
  }
  return { value, count: counts, deviation };
}

/**
 * log(1 + t) for t in [0, 1] to within 1e-11 (the binned fit's log-likelihood, whose only use is the convergence test
 * at 1e-7 of its value): 2 atanh(s), s = t / (2 + t) <= 1/3, by its series to s^19 (next term under (1/3)^21 / 21).
 */
function log1pUnit(t: number): number {
  const s = t / (2 + t), u = s * s;
  return 2 * s * (1 + u * (1 / 3 + u * (1 / 5 + u * (1 / 7 + u * (1 / 9 + u * (1 / 11 + u * (1 / 13 + u * (1 / 15 + u * (1 / 17 + u * (1 / 19))))))))));
}
