import FFT from 'fft.js';
import type { PreparedView } from './prepare.js';

/**
 * The handcrafted features of model version 1, computed on the 256 x 256 normalised view: what the classic
 * detectors of generated images look at. Frequency-domain traces of up-sampling (Durall et al., "Watch your
 * up-convolution", CVPR 2020: the azimuthal average of the power spectrum; Frank et al., ICML 2020), and the
 * noise residual statistics and cross-channel residual correlation that camera pipelines leave (demosaicing
 * correlates the colour channels' residuals; Popescu & Farid 2005).
 */
export const HANDCRAFTED_BANDS = 16;

export const HANDCRAFTED_FEATURE_NAMES: readonly string[] = [
  ...Array.from({ length: HANDCRAFTED_BANDS }, (_, i) => `spectrum_band_${i}`),
  'spectrum_slope',
  'spectrum_peak_half',
  'spectrum_peak_quarter',
  'residual_log_std_y',
  'residual_kurtosis_y',
  'residual_log_std_cb',
  'residual_log_std_cr',
  'residual_corr_rg',
  'residual_corr_gb',
  'residual_corr_rb',
];

/** Computes {@link HANDCRAFTED_FEATURE_NAMES} of a view whose side is a power of two. */
export function handcraftedFeatures(view: PreparedView): Float32Array {
  const n = view.size;
  if ((n & (n - 1)) !== 0) throw new RangeError(`view side ${n} is not a power of two`);
  const count = n * n;
  const r = new Float64Array(count);
  const g = new Float64Array(count);
  const b = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    r[i] = view.rgb[3 * i]!;
    g[i] = view.rgb[3 * i + 1]!;
    b[i] = view.rgb[3 * i + 2]!;
  }
  const y = new Float64Array(count);
  const cb = new Float64Array(count);
  const cr = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    y[i] = 0.299 * r[i]! + 0.587 * g[i]! + 0.114 * b[i]!;
    cb[i] = b[i]! - y[i]!;
    cr[i] = r[i]! - y[i]!;
  }
  const spectrum = radialSpectrum(y, n);
  const ry = laplacian(y, n);
  const rr = laplacian(r, n);
  const rg = laplacian(g, n);
  const rb = laplacian(b, n);
  const features = [
    ...spectrum.bands,
    spectrum.slope,
    spectrum.peakHalf,
    spectrum.peakQuarter,
    Math.log(std(ry) + 1e-3),
    Math.log(kurtosis(ry) + 1e-3),
    Math.log(std(laplacian(cb, n)) + 1e-3),
    Math.log(std(laplacian(cr, n)) + 1e-3),
    correlation(rr, rg),
    correlation(rg, rb),
    correlation(rr, rb),
  ];
  return Float32Array.from(features);
}

/** 4-neighbour Laplacian residual of the interior pixels. */
function laplacian(x: Float64Array, n: number): Float64Array {
  const out = new Float64Array((n - 2) * (n - 2));
  let o = 0;
  for (let yy = 1; yy < n - 1; yy++) {
    for (let xx = 1; xx < n - 1; xx++) {
      const i = yy * n + xx;
      out[o++] = 4 * x[i]! - x[i - 1]! - x[i + 1]! - x[i - n]! - x[i + n]!;
    }
  }
  return out;
}

function mean(x: Float64Array): number {
  let s = 0;
  for (const v of x) s += v;
  return s / x.length;
}

function std(x: Float64Array): number {
  const m = mean(x);
  let s = 0;
  for (const v of x) s += (v - m) ** 2;
  return Math.sqrt(s / x.length);
}

function kurtosis(x: Float64Array): number {
  const m = mean(x);
  let s2 = 0;
  let s4 = 0;
  for (const v of x) {
    const d = (v - m) ** 2;
    s2 += d;
    s4 += d * d;
  }
  s2 /= x.length;
  return s2 === 0 ? 0 : s4 / x.length / (s2 * s2);
}

function correlation(a: Float64Array, b: Float64Array): number {
  const ma = mean(a);
  const mb = mean(b);
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < a.length; i++) {
    const da = a[i]! - ma;
    const db = b[i]! - mb;
    sab += da * db;
    saa += da * da;
    sbb += db * db;
  }
  return saa === 0 || sbb === 0 ? 0 : sab / Math.sqrt(saa * sbb);
}

/**
 * Log power spectrum of the Hann-windowed, mean-removed luma: its azimuthal average in {@link HANDCRAFTED_BANDS}
 * equal bands of radius (relative to the mean over all bands), the slope of log power against log frequency, and
 * the peak-to-ring ratio at the half and quarter sampling frequencies (where up-sampling leaves periodic peaks).
 */
function radialSpectrum(x: Float64Array, n: number): { bands: number[]; slope: number; peakHalf: number; peakQuarter: number } {
  const m = mean(x);
  const window = new Float64Array(n);
  for (let i = 0; i < n; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1));
  const fft = new FFT(n);
  const rows = new Float64Array(2 * n * n);
  const out = fft.createComplexArray() as number[];
  const line = new Array<number>(n);
  for (let yy = 0; yy < n; yy++) {
    for (let xx = 0; xx < n; xx++) line[xx] = (x[yy * n + xx]! - m) * window[yy]! * window[xx]!;
    fft.realTransform(out, line);
    fft.completeSpectrum(out);
    for (let k = 0; k < 2 * n; k++) rows[2 * n * yy + k] = out[k]!;
  }
  const power = new Float64Array(n * n);
  const column = fft.createComplexArray() as number[];
  for (let xx = 0; xx < n; xx++) {
    for (let yy = 0; yy < n; yy++) {
      column[2 * yy] = rows[2 * n * yy + 2 * xx]!;
      column[2 * yy + 1] = rows[2 * n * yy + 2 * xx + 1]!;
    }
    fft.transform(out, column);
    for (let yy = 0; yy < n; yy++) power[yy * n + xx] = out[2 * yy]! ** 2 + out[2 * yy + 1]! ** 2;
  }
  const half = n / 2;
  const sums = new Float64Array(HANDCRAFTED_BANDS);
  const counts = new Float64Array(HANDCRAFTED_BANDS);
  const ringSums = new Float64Array(half + 1);
  const ringCounts = new Float64Array(half + 1);
  for (let v = 0; v < n; v++) {
    const fy = v <= half ? v : v - n;
    for (let u = 0; u < n; u++) {
      const fx = u <= half ? u : u - n;
      const radius = Math.hypot(fx, fy);
      if (radius < 1 || radius > half) continue;
      const logPower = Math.log(power[v * n + u]! + 1e-9);
      const band = Math.min(HANDCRAFTED_BANDS - 1, Math.floor(((radius - 1) / (half - 1)) * HANDCRAFTED_BANDS));
      sums[band] = sums[band]! + logPower;
      counts[band] = counts[band]! + 1;
      const ring = Math.round(radius);
      ringSums[ring] = ringSums[ring]! + logPower;
      ringCounts[ring] = ringCounts[ring]! + 1;
    }
  }
  const bands = Array.from(sums, (s, i) => s / Math.max(1, counts[i]!));
  const overall = bands.reduce((a, v) => a + v, 0) / bands.length;
  // Least-squares slope of ring log power against log radius.
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let sxy = 0;
  let k = 0;
  for (let ring = 2; ring <= half; ring++) {
    if (ringCounts[ring] === 0) continue;
    const lx = Math.log(ring);
    const ly = ringSums[ring]! / ringCounts[ring]!;
    sx += lx;
    sy += ly;
    sxx += lx * lx;
    sxy += lx * ly;
    k++;
  }
  const slope = (k * sxy - sx * sy) / (k * sxx - sx * sx);
  const peak = (f: number): number => {
    const ring = ringSums[f]! / Math.max(1, ringCounts[f]!);
    const points = [
      [f, 0],
      [0, f],
      [f, f],
    ].map(([u, v]) => Math.log(power[(v! % n) * n + (u! % n)]! + 1e-9));
    return Math.max(...points) - ring;
  };
  return { bands: bands.map((v) => v - overall), slope, peakHalf: peak(half), peakQuarter: peak(n / 4) };
}
