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
