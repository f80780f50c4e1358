// Finite-sample bounds on the false-positive rate of a threshold set on a sample of human texts.
//
// A threshold t is the (n - j)-th smallest of n human scores (so j scores lie above it). When the scores are i.i.d.
// draws of a continuous distribution, the share of that distribution above t is Beta(j + 1, n - j) distributed
// (order statistics of uniforms), whatever the distribution is; so P(FPR(t) > e) = P(Binomial(n, e) <= j). The
// (1 - delta) quantile of that Beta is the Clopper-Pearson upper bound for j events in n trials (Clopper & Pearson
// 1934): with probability at least 1 - delta over the sample, the threshold's false-positive rate is below it.

/** P(Binomial(n, p) <= k), summed in log space (stable for n in the millions and small p). */
export function binomialCdf(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n || p <= 0) return 1;
  if (p >= 1) return 0;
  const logP = Math.log(p);
  const logQ = Math.log1p(-p);
  // log C(n, i) built up term by term from log C(n, 0) = 0.
  let logChoose = 0;
  let sum = 0;
  let max = -Infinity;
  const terms: number[] = [];
  for (let i = 0; i <= k; i++) {
    if (i > 0) logChoose += Math.log(n - i + 1) - Math.log(i);
    const term = logChoose + i * logP + (n - i) * logQ;
    terms.push(term);
    if (term > max) max = term;
  }
  for (const term of terms) sum += Math.exp(term - max);
  return Math.min(1, Math.exp(max + Math.log(sum)));
}

/**
 * Clopper-Pearson upper bound at `confidence` for `k` events in `n` trials: the `p` at which P(Binomial(n, p) <= k)
 * falls to 1 - confidence (bisection to 1e-12). 1 when n is 0 or k = n.
 */
export function clopperPearsonUpper(k: number, n: number, confidence: number): number {
  checkCounts(k, n);
  checkConfidence(confidence);
  if (n === 0 || k >= n) return 1;
  const delta = 1 - confidence;
  let lo = k / n;
  let hi = 1;
  for (let i = 0; i < 100 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (binomialCdf(k, n, mid) > delta) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * The most human scores of a sample of `n` that may lie above the threshold while its false-positive rate stays at
 * most `targetFpr` with probability `confidence`: the largest j with P(Binomial(n, targetFpr) <= j) <= 1 - confidence.
 * -1 when even j = 0 cannot promise it (n < log(1 - confidence) / log(1 - targetFpr): 299 texts for 1% at 95%).
 */
export function maxExceedances(n: number, targetFpr: number, confidence: number): number {
  checkCounts(0, n);
  if (!(targetFpr > 0 && targetFpr < 1)) throw new RangeError(`Expected number in (0, 1) for targetFpr but received ${targetFpr}`);
  checkConfidence(confidence);
  const delta = 1 - confidence;
  // The CDF grows with j; O(j^2) terms in all, a few million for a sample of 100,000 at 1%.
  let j = -1;
  while (j + 1 < n && binomialCdf(j + 1, n, targetFpr) <= delta) j++;
  return j;
}

/** The fewest human texts with which `targetFpr` can be promised at `confidence` (j = 0). */
export function minimumSample(targetFpr: number, confidence: number): number {
  checkConfidence(confidence);
  if (!(targetFpr > 0 && targetFpr < 1)) throw new RangeError(`Expected number in (0, 1) for targetFpr but received ${targetFpr}`);
  return Math.ceil(Math.log(1 - confidence) / Math.log1p(-targetFpr));
}

function checkCounts(k: number, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`Expected non-negative integer for n but received ${n}`);
  if (!Number.isSafeInteger(k) || k < 0) throw new RangeError(`Expected non-negative integer for k but received ${k}`);
}

function checkConfidence(confidence: number): void {
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`Expected number in (0, 1) for confidence but received ${confidence}`);
}
