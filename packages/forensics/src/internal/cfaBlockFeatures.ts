import type { PixelBuffer } from '../types.js';

/**
 * Ferrara et al.'s block feature in one streaming pass over the image: per block of `block` x `block` pixels,
 * sum(log var) over the acquired lattice minus the same over the interpolated one, where var is the local weighted
 * variance of the green bilinear prediction error e = G - (G_up + G_down + G_left + G_right) / 4 (replicated
 * borders) over the pixels of the same quincunx lattice: weights g(dx) g(dy) for dx + dy even, g Gaussian with
 * `sigma`, 7x7 window, normalised by (sum(g)^2 + sum(alt)^2) / 2 with alt(d) = (-1)^d g(d), as before.
 *
 * The window restricted to dx + dy even is (even dx, even dy) plus (odd dx, odd dy), so one horizontal pass per row
 * gives the even-offset and the odd-offset partial sums of e and e^2 (4 numbers per pixel, in a ring of 7 rows) and
 * one vertical pass combines them: 8 multiply-adds per pixel and statistic instead of four full separable
 * convolutions. Intermediate sums are float64 (they were float32). Products of up to ~20 variances are multiplied
 * out before one log (kept within 1e-200..1e200 so nothing under- or overflows) instead of one log per pixel.
 *
 * Returns the feature (NaN where exactly one lattice has a zero variance, 0 where both have) for the
 * floor(width / block) x floor(height / block) full blocks.
 */
export function cfaBlockFeatures(image: PixelBuffer, block: number, lattice: 0 | 1, sigma: number): Float32Array {
  const { data, width, height, channels } = image;
  const bw = Math.floor(width / block), bh = Math.floor(height / block);
  const r = 3;
  const g = new Float64Array(2 * r + 1);
  const alt = new Float64Array(2 * r + 1);
  for (let d = -r; d <= r; d++) {
    g[d + r] = Math.exp(-(d * d) / (2 * sigma * sigma));
    alt[d + r] = (d & 1 ? -1 : 1) * g[d + r]!;
  }
  const s = g.reduce((a, b) => a + b, 0);
  const sAlt = alt.reduce((a, b) => a + b, 0);
  const norm = (s * s + sAlt * sAlt) / 2;
  const w0 = g[3]!, w1 = g[4]!, w2 = g[5]!, w3 = g[6]!;

  const c = Math.min(1, channels - 1);
  const e = new Float32Array(width + 2 * r), e2 = new Float32Array(width + 2 * r);
  // Ring of horizontally filtered rows, slot = row & 7: even- and odd-offset sums of e and of e^2.
  const even1: Float64Array[] = [], odd1: Float64Array[] = [], even2: Float64Array[] = [], odd2: Float64Array[] = [];
  for (let k = 0; k < 8; k++) {
    even1.push(new Float64Array(width)); odd1.push(new Float64Array(width));
    even2.push(new Float64Array(width)); odd2.push(new Float64Array(width));
  }
  const loaded = new Int32Array(8).fill(-1);
  const filterRow = (y: number): void => {
    const slot = y & 7;
    if (loaded[slot] === y) return;
    loaded[slot] = y;
    const up = Math.max(0, y - 1) * width, row = y * width, down = Math.min(height - 1, y + 1) * width;
    for (let x = 0; x < width; x++) {
      const l = x > 0 ? x - 1 : 0, rr = x < width - 1 ? x + 1 : width - 1;
      const v = data[(row + x) * channels + c]! - 0.25 * (data[(up + x) * channels + c]! + data[(down + x) * channels + c]! + data[(row + l) * channels + c]! + data[(row + rr) * channels + c]!);
      e[x + r] = v;
      e2[x + r] = e[x + r]! * e[x + r]!;
    }
    for (let k = 0; k < r; k++) {
      e[k] = e[r]!; e2[k] = e2[r]!;
      e[width + r + k] = e[width + r - 1]!; e2[width + r + k] = e2[width + r - 1]!;
    }
    const E1 = even1[slot]!, O1 = odd1[slot]!, E2 = even2[slot]!, O2 = odd2[slot]!;
    for (let x = 0, i = r; x < width; x++, i++) {
      E1[x] = w0 * e[i]! + w2 * (e[i - 2]! + e[i + 2]!);
      O1[x] = w1 * (e[i - 1]! + e[i + 1]!) + w3 * (e[i - 3]! + e[i + 3]!);
      E2[x] = w0 * e2[i]! + w2 * (e2[i - 2]! + e2[i + 2]!);
      O2[x] = w1 * (e2[i - 1]! + e2[i + 1]!) + w3 * (e2[i - 3]! + e2[i + 3]!);
    }
  };

  const feature = new Float32Array(bw * bh);
  const prodA = new Float64Array(bw), logA = new Float64Array(bw), prodI = new Float64Array(bw), logI = new Float64Array(bw);
  const zeroA = new Uint8Array(bw), zeroI = new Uint8Array(bw);
  const clampRow = (y: number): number => (y < 0 ? 0 : y > height - 1 ? height - 1 : y);
  for (let by = 0; by < bh; by++) {
    prodA.fill(1); logA.fill(0); prodI.fill(1); logI.fill(0); zeroA.fill(0); zeroI.fill(0);
    for (let y = by * block; y < (by + 1) * block; y++) {
      for (let d = -r; d <= r; d++) filterRow(clampRow(y + d));
      const Ec1 = even1[y & 7]!, Eu1 = even1[clampRow(y - 2) & 7]!, Ed1 = even1[clampRow(y + 2) & 7]!;
      const Ou1 = odd1[clampRow(y - 1) & 7]!, Od1 = odd1[clampRow(y + 1) & 7]!, Ouu1 = odd1[clampRow(y - 3) & 7]!, Odd1 = odd1[clampRow(y + 3) & 7]!;
      const Ec2 = even2[y & 7]!, Eu2 = even2[clampRow(y - 2) & 7]!, Ed2 = even2[clampRow(y + 2) & 7]!;
      const Ou2 = odd2[clampRow(y - 1) & 7]!, Od2 = odd2[clampRow(y + 1) & 7]!, Ouu2 = odd2[clampRow(y - 3) & 7]!, Odd2 = odd2[clampRow(y + 3) & 7]!;
      for (let bx = 0; bx < bw; bx++) {
        let pa = prodA[bx]!, la = logA[bx]!, pi = prodI[bx]!, li = logI[bx]!, za = zeroA[bx]!, zi = zeroI[bx]!;
        for (let x = bx * block, end = x + block; x < end; x++) {
          const m1 = (w0 * Ec1[x]! + w2 * (Eu1[x]! + Ed1[x]!) + w1 * (Ou1[x]! + Od1[x]!) + w3 * (Ouu1[x]! + Odd1[x]!)) / norm;
          const m2 = (w0 * Ec2[x]! + w2 * (Eu2[x]! + Ed2[x]!) + w1 * (Ou2[x]! + Od2[x]!) + w3 * (Ouu2[x]! + Odd2[x]!)) / norm;
          const variance = Math.fround(Math.max(0, m2 - m1 * m1));
          if (((x + y) & 1) === lattice) {
            if (variance > 0) {
              pa *= variance;
              if (pa < 1e-200 || pa > 1e200) { la += Math.log(pa); pa = 1; }
            } else za = 1;
          } else if (variance > 0) {
            pi *= variance;
            if (pi < 1e-200 || pi > 1e200) { li += Math.log(pi); pi = 1; }
          } else zi = 1;
        }
        prodA[bx] = pa; logA[bx] = la; prodI[bx] = pi; logI[bx] = li; zeroA[bx] = za; zeroI[bx] = zi;
      }
    }
    for (let bx = 0; bx < bw; bx++) {
      const za = zeroA[bx] === 1, zi = zeroI[bx] === 1;
      feature[by * bw + bx] = za && zi ? 0 : za || zi ? Number.NaN : logA[bx]! + Math.log(prodA[bx]!) - (logI[bx]! + Math.log(prodI[bx]!));
    }
  }
  return feature;
}
