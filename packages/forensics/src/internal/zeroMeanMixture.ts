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
  for (; it < maxIterations; it++) {
    let r1Sum = 0, r1x = 0, r0x2 = 0, logLik = 0;
    const resp = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const a = Math.log(1 - w) + logNormal(x[i]!, 0, s0);
      const b = Math.log(w) + logNormal(x[i]!, m1, s1);
      const m = Math.max(a, b);
      const lse = m + Math.log(Math.exp(a - m) + Math.exp(b - m));
      logLik += lse;
      const r = Math.exp(b - lse);
      resp[i] = r;
      r1Sum += r;
      r1x += r * x[i]!;
      r0x2 += (1 - r) * x[i]! * x[i]!;
    }
    const r0Sum = n - r1Sum;
    w = Math.min(1 - 1e-6, Math.max(1e-6, r1Sum / n));
    m1 = r1Sum > 0 ? r1x / r1Sum : m1;
    let v1 = 0;
    for (let i = 0; i < n; i++) v1 += resp[i]! * (x[i]! - m1) ** 2;
    s1 = Math.max(minSigma, Math.sqrt(r1Sum > 0 ? v1 / r1Sum : s1 * s1));
    s0 = Math.max(minSigma, Math.sqrt(r0Sum > 0 ? r0x2 / r0Sum : s0 * s0));
    if (Math.abs(logLik - previous) <= tolerance * Math.abs(logLik)) { it++; break; }
    previous = logLik;
  }
  return { sigma0: s0, mu1: m1, sigma1: s1, weight1: w, iterations: it };
}
