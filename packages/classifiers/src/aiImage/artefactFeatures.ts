import FFT from 'fft.js';
import type { LumaView } from './artefactView.js';

/**
 * The artefact features of model versions 6 and 7, computed on the luma of the artefact view (artefactView.ts): what
 * generators leave in the finest pixel structure, measured separately where the picture has texture and where it
 * has none.
 *
 * - Texture groups (PatchCraft, Zhong et al. 2023: rich and poor texture patches carry different generator
 *   traces): the view is cut into 64 x 64 tiles; a tile's richness is mean |r2h| + mean |r2v| over its pixels. The
 *   tiles sorted by richness (ties by tile index, row-major) are split in two halves, `poor` and `rich`.
 * - Co-occurrences of quantised residuals (SPAM / SRM, Fridrich & Kodovsky 2012): first-order differences
 *   (r1h(i,j) = Y(i,j+1) - Y(i,j), r1v likewise, step q = 1) and second-order ones (r2h(i,j) = Y(i,j-1) - 2Y(i,j) +
 *   Y(i,j+1), r2v likewise, q = 2), each quantised to clamp(round(r / q), -2, 2). Horizontal residuals form triples
 *   along the row, vertical ones along the column, and both directions are counted into one histogram of 5^3 = 125
 *   bins per order and group. A triple belongs to the tile of its middle residual; a residual sits at (i,j).
 * - NPR (Tan et al., CVPR 2024, "Rethinking the up-sampling operations in CNN-based generative network for
 *   generalizable deepfake detection"): in every 2 x 2 block at even (i,j) the differences to its top-left pixel,
 *   a = Y(i,j+1) - Y(i,j), b = Y(i+1,j) - Y(i,j), c = Y(i+1,j+1) - Y(i,j), quantised with q = 1 into one 125-bin
 *   joint histogram per group. Nearest-neighbour up-sampling makes all three zero.
 * - Spectrum: the power spectrum of each tile's r2h + r2v (zero where a stencil leaves the view) under a periodic
 *   2-D Hann window, averaged over all tiles; its mean log10 power in 16 radial bands, and the contrast of 9 periodic
 *   frequencies against their 8 neighbours, where up-sampling leaves peaks (Frank et al., ICML 2020).
 * - Three scalars: ln(mean richness + 1e-3) of each group, and the fraction of quantised r1 residuals (both
 *   directions, whole view) that are zero.
 *
 * Rounding is half away from zero, so that negating the image maps every bin onto its negation exactly; every
 * 125-bin histogram is then sign-symmetrised into {@link SYMMETRIC_CLASSES} classes and divided by its total count
 * (all zeros when a group has no count). A triple (d1, d2, d3), each in -2..2, has the bin index
 * b = 25 (d1 + 2) + 5 (d2 + 2) + (d3 + 2), and its negation has 124 - b. Class k (0..62) merges bins 62 + k and
 * 62 - k: class 0 is the all-zero triple, and class k >= 1 is represented by bin 62 + k, the lexicographically larger
 * triple of the pair (its first non-zero entry is positive), so the classes follow the increasing bin index of their
 * representatives. For example (0,0,1) / (0,0,-1) is class 1, (1,1,1) / (-1,-1,-1) is class 31 and (2,2,2) /
 * (-2,-2,-2) is class 62.
 *
 * Columns, in order (406 in all): `cooc1_poor_<k>`, `cooc1_rich_<k>`, `cooc2_poor_<k>`, `cooc2_rich_<k>`,
 * `npr_poor_<k>`, `npr_rich_<k>` (k = 0..62 each), `spec_band_<k>` (k = 0..15), `spec_peak_<u>_<v>` for the
 * frequencies of {@link ARTEFACT_PEAKS} (u horizontal, v vertical, in cycles per 64 px), `richness_poor`,
 * `richness_rich`, `zero_fraction_r1`.
 */

/** Side of the square tiles. */
export const ARTEFACT_TILE = 64;

/** Classes of a sign-symmetrised 5^3 histogram: 62 pairs and the all-zero triple. */
export const SYMMETRIC_CLASSES = 63;

/** Radial bands of the averaged tile spectrum. */
export const ARTEFACT_SPECTRAL_BANDS = 16;

/** Frequencies (u horizontal, v vertical) whose contrast against their 8 neighbours is a feature. */
export const ARTEFACT_PEAKS: readonly (readonly [u: number, v: number])[] = [
  [32, 0], [0, 32], [32, 32], [16, 0], [0, 16], [16, 16], [8, 0], [0, 8], [8, 8],
];

const GROUPS = ['poor', 'rich'] as const;
const BINS = 125;
const CENTRE_BIN = 62;
const LOG_FLOOR = 1e-6;

const histogramNames = (prefix: string): string[] =>
  GROUPS.flatMap((group) => Array.from({ length: SYMMETRIC_CLASSES }, (_, k) => `${prefix}_${group}_${k}`));

export const ARTEFACT_FEATURE_NAMES: readonly string[] = [
  ...histogramNames('cooc1'),
  ...histogramNames('cooc2'),
  ...histogramNames('npr'),
  ...Array.from({ length: ARTEFACT_SPECTRAL_BANDS }, (_, k) => `spec_band_${k}`),
  ...ARTEFACT_PEAKS.map(([u, v]) => `spec_peak_${u}_${v}`),
  'richness_poor',
  'richness_rich',
  'zero_fraction_r1',
];

/**
 * Computes {@link ARTEFACT_FEATURE_NAMES} of a luma view whose side is a multiple of {@link ARTEFACT_TILE}.
 *
 * @throws RangeError when the side is not a positive multiple of 64 or the plane does not hold size x size values.
 */
export function artefactFeatures(view: LumaView): Float32Array {
  const n = view.size;
  if (!Number.isInteger(n) || n < ARTEFACT_TILE || n % ARTEFACT_TILE !== 0) {
    throw new RangeError(`view side must be a positive multiple of ${ARTEFACT_TILE} but is ${n}`);
  }
  if (view.y.length !== n * n) throw new RangeError(`luma plane has ${view.y.length} values, expected ${n * n}`);
  const planes = residualPlanes(view.y, n);
  const groups = textureGroups(planes.richness);
  const out = new Float32Array(ARTEFACT_FEATURE_NAMES.length);
  let o = 0;
  for (const histogram of [
    cooccurrences(planes.q1h, planes.q1v, 0, n, groups.rich),
    cooccurrences(planes.q2h, planes.q2v, 1, n, groups.rich),
    nprHistogram(view.y, n, groups.rich),
  ]) {
    for (let g = 0; g < GROUPS.length; g++) {
      out.set(symmetrise(histogram.subarray(g * BINS, (g + 1) * BINS)), o);
      o += SYMMETRIC_CLASSES;
    }
  }
  const spectrum = averageTileSpectrum(planes.r2, n);
  out.set(radialBands(spectrum), o);
  o += ARTEFACT_SPECTRAL_BANDS;
  out.set(peakContrasts(spectrum), o);
  o += ARTEFACT_PEAKS.length;
  out[o++] = Math.log(groups.meanPoor + 1e-3);
  out[o++] = Math.log(groups.meanRich + 1e-3);
  out[o++] = planes.zeroFractionR1;
  return out;
}

/** Level index 0..4 of clamp(round(r / q), -2, 2), rounding half away from zero. */
function level(r: number, q: number): number {
  const x = r / q;
  return x >= 1.5 ? 4 : x >= 0.5 ? 3 : x > -0.5 ? 2 : x > -1.5 ? 1 : 0;
}

interface ResidualPlanes {
  /** Quantised residual levels (0..4), row-major; positions whose stencil leaves the view are never read. */
  q1h: Uint8Array;
  q1v: Uint8Array;
  q2h: Uint8Array;
  q2v: Uint8Array;
  /** r2h + r2v, each 0 where its stencil leaves the view. */
  r2: Float64Array;
  /** Per tile (row-major): mean |r2h| + mean |r2v| over the tile's positions where each is defined. */
  richness: Float64Array;
  zeroFractionR1: number;
}

/** All four residuals in one pass over the view, with the tiles' richness. */
function residualPlanes(y: Float32Array, n: number): ResidualPlanes {
  const count = n * n;
  const q1h = new Uint8Array(count);
  const q1v = new Uint8Array(count);
  const q2h = new Uint8Array(count);
  const q2v = new Uint8Array(count);
  const r2 = new Float64Array(count);
  const tilesPerSide = n / ARTEFACT_TILE;
  const sumH = new Float64Array(tilesPerSide * tilesPerSide);
  const sumV = new Float64Array(tilesPerSide * tilesPerSide);
  const countH = new Float64Array(tilesPerSide * tilesPerSide);
  const countV = new Float64Array(tilesPerSide * tilesPerSide);
  let zerosR1 = 0;
  for (let i = 0; i < n; i++) {
    const tileRow = Math.floor(i / ARTEFACT_TILE) * tilesPerSide;
    const hasBelow = i + 1 < n;
    const hasVertical = i > 0 && hasBelow;
    for (let tx = 0; tx < tilesPerSide; tx++) {
      let absH = 0;
      let absV = 0;
      let cntH = 0;
      for (let j = tx * ARTEFACT_TILE, end = j + ARTEFACT_TILE; j < end; j++) {
        const p = i * n + j;
        const c = y[p]!;
        let r2sum = 0;
        if (j + 1 < n) {
          const l = level(y[p + 1]! - c, 1);
          q1h[p] = l;
          if (l === 2) zerosR1++;
          if (j > 0) {
            const r = y[p - 1]! - 2 * c + y[p + 1]!;
            q2h[p] = level(r, 2);
            absH += Math.abs(r);
            cntH++;
            r2sum = r;
          }
        }
        if (hasBelow) {
          const l = level(y[p + n]! - c, 1);
          q1v[p] = l;
          if (l === 2) zerosR1++;
          if (hasVertical) {
            const r = y[p - n]! - 2 * c + y[p + n]!;
            q2v[p] = level(r, 2);
            absV += Math.abs(r);
            r2sum += r;
          }
        }
        r2[p] = r2sum;
      }
      const tile = tileRow + tx;
      sumH[tile] = sumH[tile]! + absH;
      countH[tile] = countH[tile]! + cntH;
      if (hasVertical) {
        sumV[tile] = sumV[tile]! + absV;
        countV[tile] = countV[tile]! + ARTEFACT_TILE;
      }
    }
  }
  const richness = sumH.map((s, t) => s / countH[t]! + sumV[t]! / countV[t]!);
  return { q1h, q1v, q2h, q2v, r2, richness, zeroFractionR1: zerosR1 / (2 * n * (n - 1)) };
}

/** Marks the richer half of the tiles (1 = rich) and gives each half's mean richness. */
function textureGroups(richness: Float64Array): { rich: Uint8Array; meanPoor: number; meanRich: number } {
  const order = Array.from(richness.keys()).sort((a, b) => richness[a]! - richness[b]! || a - b);
  const half = order.length >> 1;
  const rich = new Uint8Array(order.length);
  let poorSum = 0;
  let richSum = 0;
  order.forEach((tile, rank) => {
    if (rank < half) {
      poorSum += richness[tile]!;
    } else {
      rich[tile] = 1;
      richSum += richness[tile]!;
    }
  });
  return { rich, meanPoor: poorSum / half, meanRich: richSum / (order.length - half) };
}

/**
 * Counts of horizontal and vertical triples of one residual order, [poor 125 bins, rich 125 bins]. `margin` is how
 * far the residual's stencil reaches back (0 for r1, 1 for r2); residuals exist at positions margin..n-2.
 */
function cooccurrences(qh: Uint8Array, qv: Uint8Array, margin: number, n: number, rich: Uint8Array): Int32Array {
  const counts = new Int32Array(GROUPS.length * BINS);
  const tilesPerSide = n / ARTEFACT_TILE;
  const tileColumn = tileColumns(n);
  for (let i = 0; i < n; i++) {
    const tileRow = Math.floor(i / ARTEFACT_TILE) * tilesPerSide;
    for (let j = margin + 1; j < n - 2; j++) {
      const p = i * n + j;
      const bin = 25 * qh[p - 1]! + 5 * qh[p]! + qh[p + 1]!;
      const k = rich[tileRow + tileColumn[j]!]! * BINS + bin;
      counts[k] = counts[k]! + 1;
    }
  }
  for (let i = margin + 1; i < n - 2; i++) {
    const tileRow = Math.floor(i / ARTEFACT_TILE) * tilesPerSide;
    for (let j = 0; j < n; j++) {
      const p = i * n + j;
      const bin = 25 * qv[p - n]! + 5 * qv[p]! + qv[p + n]!;
      const k = rich[tileRow + tileColumn[j]!]! * BINS + bin;
      counts[k] = counts[k]! + 1;
    }
  }
  return counts;
}

/** Counts of the quantised NPR triples (a, b, c) of the 2 x 2 blocks, [poor 125 bins, rich 125 bins]. */
function nprHistogram(y: Float32Array, n: number, rich: Uint8Array): Int32Array {
  const counts = new Int32Array(GROUPS.length * BINS);
  const tilesPerSide = n / ARTEFACT_TILE;
  const tileColumn = tileColumns(n);
  for (let i = 0; i < n; i += 2) {
    const tileRow = Math.floor(i / ARTEFACT_TILE) * tilesPerSide;
    for (let j = 0; j < n; j += 2) {
      const p = i * n + j;
      const c = y[p]!;
      const bin = 25 * level(y[p + 1]! - c, 1) + 5 * level(y[p + n]! - c, 1) + level(y[p + n + 1]! - c, 1);
      const k = rich[tileRow + tileColumn[j]!]! * BINS + bin;
      counts[k] = counts[k]! + 1;
    }
  }
  return counts;
}

/** Tile column of each pixel column. */
function tileColumns(n: number): Int32Array {
  return Int32Array.from({ length: n }, (_, j) => Math.floor(j / ARTEFACT_TILE));
}

/** Merges bin b with its negation 124 - b into class |b - 62| and divides by the total count. */
function symmetrise(counts: Int32Array): Float64Array {
  const classes = new Float64Array(SYMMETRIC_CLASSES);
  let total = 0;
  for (let b = 0; b < BINS; b++) {
    const k = Math.abs(b - CENTRE_BIN);
    classes[k] = classes[k]! + counts[b]!;
    total += counts[b]!;
  }
  if (total > 0) for (let k = 0; k < SYMMETRIC_CLASSES; k++) classes[k] = classes[k]! / total;
  return classes;
}

/** Mean over the tiles of the power spectrum of each Hann-windowed tile, 64 x 64, row-major [v][u], DC at (0,0). */
function averageTileSpectrum(residual: Float64Array, n: number): Float64Array {
  const size = ARTEFACT_TILE;
  const half = size / 2;
  const tilesPerSide = n / size;
  const fft = new FFT(size);
  const hann = Float64Array.from({ length: size }, (_, k) => 0.5 - 0.5 * Math.cos((2 * Math.PI * k) / size));
  // Row transforms of a real tile: only the columns u = 0..32 are kept; the others follow by conjugate symmetry.
  const stride = 2 * (half + 1);
  const rows = new Float64Array(size * stride);
  const line = new Float64Array(size);
  const rowOut = new Float64Array(2 * size);
  const column = new Float64Array(2 * size);
  const columnOut = new Float64Array(2 * size);
  const power = new Float64Array(size * size);
  for (let ty = 0; ty < tilesPerSide; ty++) {
    for (let tx = 0; tx < tilesPerSide; tx++) {
      for (let yy = 0; yy < size; yy++) {
        const base = (ty * size + yy) * n + tx * size;
        const wy = hann[yy]!;
        for (let xx = 0; xx < size; xx++) line[xx] = residual[base + xx]! * wy * hann[xx]!;
        fft.realTransform(rowOut, line);
        rows.set(rowOut.subarray(0, stride), yy * stride);
      }
      for (let u = 0; u <= half; u++) {
        for (let yy = 0; yy < size; yy++) {
          column[2 * yy] = rows[yy * stride + 2 * u]!;
          column[2 * yy + 1] = rows[yy * stride + 2 * u + 1]!;
        }
        fft.transform(columnOut, column);
        for (let v = 0; v < size; v++) power[v * size + u] = power[v * size + u]! + columnOut[2 * v]! ** 2 + columnOut[2 * v + 1]! ** 2;
      }
    }
  }
  const tiles = tilesPerSide * tilesPerSide;
  for (let v = 0; v < size; v++) for (let u = 0; u <= half; u++) power[v * size + u] = power[v * size + u]! / tiles;
  for (let v = 0; v < size; v++) {
    for (let u = half + 1; u < size; u++) power[v * size + u] = power[((size - v) % size) * size + (size - u)]!;
  }
  return power;
}

/**
 * Mean log10 power in each radial band k = floor(radius / (32 sqrt 2) * 16), clamped to 15, DC in band 0. The band
 * is found in integers (8 k^2 <= fu^2 + fv^2 < 8 (k + 1)^2), so the diagonal frequencies (2k, 2k), which lie exactly
 * on a band edge, fall in band k whatever the floating-point rounding of the radius.
 */
function radialBands(power: Float64Array): Float64Array {
  const size = ARTEFACT_TILE;
  const edgeSquared = (2 * (size / 2) ** 2) / ARTEFACT_SPECTRAL_BANDS ** 2;
  const sums = new Float64Array(ARTEFACT_SPECTRAL_BANDS);
  const counts = new Float64Array(ARTEFACT_SPECTRAL_BANDS);
  for (let v = 0; v < size; v++) {
    const fv = Math.min(v, size - v);
    for (let u = 0; u < size; u++) {
      const fu = Math.min(u, size - u);
      const radiusSquared = fu * fu + fv * fv;
      let band = Math.floor(Math.sqrt(radiusSquared / edgeSquared));
      if (edgeSquared * (band + 1) ** 2 <= radiusSquared) band++;
      if (edgeSquared * band ** 2 > radiusSquared) band--;
      band = Math.min(ARTEFACT_SPECTRAL_BANDS - 1, band);
      sums[band] = sums[band]! + Math.log10(power[v * size + u]! + LOG_FLOOR);
      counts[band] = counts[band]! + 1;
    }
  }
  return sums.map((s, k) => s / Math.max(1, counts[k]!));
}

/** log10 power at each of {@link ARTEFACT_PEAKS} minus the mean log10 power of its 8 neighbours (indices wrap). */
function peakContrasts(power: Float64Array): Float64Array {
  const size = ARTEFACT_TILE;
  const logPower = (u: number, v: number): number =>
    Math.log10(power[((v + size) % size) * size + ((u + size) % size)]! + LOG_FLOOR);
  return Float64Array.from(ARTEFACT_PEAKS, ([u, v]) => {
    let ring = 0;
    for (let dv = -1; dv <= 1; dv++) for (let du = -1; du <= 1; du++) if (du !== 0 || dv !== 0) ring += logPower(u + du, v + dv);
    return logPower(u, v) - ring / 8;
  });
}
