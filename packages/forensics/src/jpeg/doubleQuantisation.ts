/**
 * The aligned double-quantisation model of Bianchi and Piva 2012 ("Image forgery localization via block-grained
 * analysis of JPEG artifacts", IEEE TIFS 7(3) 1003-1017), in our own formulation. A coefficient quantised with step
 * q1 and then q2 lands in bin x of q2 with probability p(x) n(x), where p is its singly quantised distribution and
 * n(x) = (q1 / q2) * sum_m P(m q1 + e in [q2 (x - 1/2), q2 (x + 1/2))), e ~ N(0, sigma) the rounding noise between
 * the two compressions: the share of q1's bins that fall into x, 1 on average. Lin, He, Tang and Tang 2009 (Pattern
 * Recognition 42(11) 2492-2501) read the same periodic pattern off the histogram to tell doubly from singly
 * compressed blocks.
 */

const SQRT2 = Math.SQRT2;

/** Abramowitz-Stegun 7.1.26 erf (absolute error below 1.5e-7): enough for bin probabilities. */
function erf(x: number): number {
  const s = x < 0 ? -1 : 1;
  const a = Math.abs(x), t = 1 / (1 + 0.3275911 * a);
  const y = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-a * a);
  return s * y;
}

function phi(x: number): number {
  return 0.5 * (1 + erf(x / SQRT2));
}

/** n(x) for bins x = -half..half (index x + half) of step q2 after a first quantisation with step q1. */
export function doubleQuantisationRatio(q1: number, q2: number, half: number, sigma: number): Float64Array {
  const out = new Float64Array(2 * half + 1);
  for (let x = -half; x <= half; x++) {
    const lo = q2 * (x - 0.5), hi = q2 * (x + 0.5);
    const m0 = Math.floor((lo - 4 * sigma) / q1), m1 = Math.ceil((hi + 4 * sigma) / q1);
    let mass = 0;
    for (let m = m0; m <= m1; m++) {
      const c = m * q1;
      mass += sigma > 0 ? phi((hi - c) / sigma) - phi((lo - c) / sigma) : c >= lo && c < hi ? 1 : 0;
    }
    out[x + half] = (q1 / q2) * mass;
  }
  return out;
}

/** Histogram of round(v / step) over bins -half..half (values outside are dropped), plus `prior` per bin. */
export function binHistogram(values: Float32Array, step: number, half: number, prior = 0): Float64Array {
  const h = new Float64Array(2 * half + 1).fill(prior);
  for (let i = 0; i < values.length; i++) {
    const x = Math.round(values[i]! / step);
    if (x >= -half && x <= half) h[x + half]!++;
  }
  return h;
}

export interface FirstStepFit {
  /** The estimated first step q1, or 0 when no q1 explains the histogram better than single quantisation. */
  q1: number;
  /** Share of doubly quantised coefficients in the mixture. */
  alpha: number;
  /** Log-likelihood gain per coefficient over single quantisation. */
  gain: number;
  /** log(p_DQ / p_SQ) per bin (index x + half): a coefficient's evidence for double quantisation. */
  logRatio: Float64Array;
}

/**
 * Fits the mixture alpha p_DQ + (1 - alpha) p_SQ to the histogram `h` of a frequency's bins by EM for each candidate
 * q1 (1..maxQ1, not q2) and keeps the most likely; p_SQ is `single` (the calibration histogram), p_DQ = p_SQ n / Z.
 */
export function fitFirstStep(h: Float64Array, single: Float64Array, q2: number, maxQ1: number, sigma: number, minGain: number): FirstStepFit {
  const half = (h.length - 1) / 2;
  const total = h.reduce((s, v) => s + v, 0);
  const sumSingle = single.reduce((s, v) => s + v, 0);
  const pS = new Float64Array(single.length);
  for (let i = 0; i < pS.length; i++) pS[i] = single[i]! / sumSingle;
  let base = 0;
  for (let i = 0; i < h.length; i++) if (h[i]! > 0) base += h[i]! * Math.log(pS[i]!);
  let best: FirstStepFit = { q1: 0, alpha: 0, gain: 0, logRatio: new Float64Array(h.length) };
  if (total === 0) return best;
  for (let q1 = 1; q1 <= maxQ1; q1++) {
    if (q1 === q2) continue;
    const n = doubleQuantisationRatio(q1, q2, half, sigma);
    let z = 0;
    for (let i = 0; i < n.length; i++) z += pS[i]! * n[i]!;
    if (!(z > 0)) continue;
    const pD = new Float64Array(n.length);
    for (let i = 0; i < pD.length; i++) pD[i] = (pS[i]! * n[i]!) / z;
    let alpha = 0.5;
    for (let it = 0; it < 30; it++) {
      let r = 0;
      for (let i = 0; i < h.length; i++) {
        if (h[i] === 0) continue;
        const d = alpha * pD[i]!, s = (1 - alpha) * pS[i]!;
        r += (h[i]! * d) / (d + s);
      }
      alpha = Math.min(1, Math.max(0, r / total));
    }
    let ll = 0;
    for (let i = 0; i < h.length; i++) if (h[i]! > 0) ll += h[i]! * Math.log(alpha * pD[i]! + (1 - alpha) * pS[i]!);
    const gain = (ll - base) / total;
    if (gain > best.gain) {
      const logRatio = new Float64Array(pD.length);
      for (let i = 0; i < pD.length; i++) logRatio[i] = Math.log(Math.max(pD[i]!, 1e-12) / pS[i]!);
      best = { q1, alpha, gain, logRatio };
    }
  }
  return best.gain >= minGain ? best : { q1: 0, alpha: 0, gain: best.gain, logRatio: new Float64Array(h.length) };
}
