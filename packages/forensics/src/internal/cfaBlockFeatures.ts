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
 * floor(width / block) x floor(height / block) full blocks, or for the rows of blocks [blockRowStart, blockRowEnd)
 * only (a band: each row of blocks depends on the pixels alone, so bands computed apart concatenate to the whole).
 */
export function cfaBlockFeatures(image: PixelBuffer, block: number, lattice: 0 | 1, sigma: number, blockRowStart = 0, blockRowEnd = Math.floor(image.height / block)): Float32Array {
  const { data, width, height, channels } = image;
  const bw = Math.floor(width / block);
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
  // Green rows as Float64 lines with the border sample replicated each side (sample x at x + 1), ring of 4.
  const green: Float64Array[] = Array.from({ length: 4 }, () => new Float64Array(width + 2));
  const greenLoaded = new Int32Array(4).fill(-1);
  const greenRow = (y: number): Float64Array => {
    const line = green[y & 3]!;
    if (greenLoaded[y & 3] !== y) {
      greenLoaded[y & 3] = y;
      for (let x = 0, p = y * width * channels + c; x < width; x++, p += channels) line[x + 1] = data[p]!;
      line[0] = line[1]!;
      line[width + 1] = line[width]!;
    }
    return line;
  };
  const e = new Float32Array(width + 2 * r), e2 = new Float32Array(width + 2 * r);
  // Ring of horizontally filtered rows, slot = row & 7: even- and odd-offset sums of e and of e^2, interleaved
  // ([2x] the sum of e, [2x + 1] that of e^2) so the vertical pass reads 7 arrays instead of 14.
  const even: Float64Array[] = [], odd: Float64Array[] = [];
  for (let k = 0; k < 8; k++) { even.push(new Float64Array(2 * width)); odd.push(new Float64Array(2 * width)); }
  const loaded = new Int32Array(8).fill(-1);
  const filterRow = (y: number): void => {
    const slot = y & 7;
    if (loaded[slot] === y) return;
    loaded[slot] = y;
    const U = greenRow(Math.max(0, y - 1)), R = greenRow(y), D = greenRow(Math.min(height - 1, y + 1));
    for (let x = 0, i = r; x < width; x++, i++) {
      const v = R[x + 1]! - 0.25 * (U[x + 1]! + D[x + 1]! + R[x]! + R[x + 2]!);
      e[i] = v;
      e2[i] = e[i]! * e[i]!;
    }
    for (let k = 0; k < r; k++) {
      e[k] = e[r]!; e2[k] = e2[r]!;
      e[width + r + k] = e[width + r - 1]!; e2[width + r + k] = e2[width + r - 1]!;
    }
    const E = even[slot]!, O = odd[slot]!;
    for (let x = 0, i = r, j = 0; x < width; x++, i++, j += 2) {
      E[j] = w0 * e[i]! + w2 * (e[i - 2]! + e[i + 2]!);
      O[j] = w1 * (e[i - 1]! + e[i + 1]!) + w3 * (e[i - 3]! + e[i + 3]!);
      E[j + 1] = w0 * e2[i]! + w2 * (e2[i - 2]! + e2[i + 2]!);
      O[j + 1] = w1 * (e2[i - 1]! + e2[i + 1]!) + w3 * (e2[i - 3]! + e2[i + 3]!);
    }
  };

  const feature = new Float32Array(bw * (blockRowEnd - blockRowStart));
  const prodA = new Float64Array(bw), logA = new Float64Array(bw), prodI = new Float64Array(bw), logI = new Float64Array(bw);
  const zeroA = new Uint8Array(bw), zeroI = new Uint8Array(bw);
  const variance = new Float32Array(bw * block);
  const clampRow = (y: number): number => (y < 0 ? 0 : y > height - 1 ? height - 1 : y);
  for (let by = blockRowStart; by < blockRowEnd; by++) {
    prodA.fill(1); logA.fill(0); prodI.fill(1); logI.fill(0); zeroA.fill(0); zeroI.fill(0);
    for (let y = by * block; y < (by + 1) * block; y++) {
      for (let d = -r; d <= r; d++) filterRow(clampRow(y + d));
      const Ec = even[y & 7]!, Eu = even[clampRow(y - 2) & 7]!, Ed = even[clampRow(y + 2) & 7]!;
      const Ou = odd[clampRow(y - 1) & 7]!, Od = odd[clampRow(y + 1) & 7]!, Ouu = odd[clampRow(y - 3) & 7]!, Odd = odd[clampRow(y + 3) & 7]!;
      // Vertical pass: the local variance of the row (float32, as before) for the columns of full blocks.
      for (let x = 0, j = 0, end = bw * block; x < end; x++, j += 2) {
        const m1 = (w0 * Ec[j]! + w2 * (Eu[j]! + Ed[j]!) + w1 * (Ou[j]! + Od[j]!) + w3 * (Ouu[j]! + Odd[j]!)) / norm;
        const m2 = (w0 * Ec[j + 1]! + w2 * (Eu[j + 1]! + Ed[j + 1]!) + w1 * (Ou[j + 1]! + Od[j + 1]!) + w3 * (Ouu[j + 1]! + Odd[j + 1]!)) / norm;
        variance[x] = m2 - m1 * m1;
      }
      // Acquired and interpolated pixels alternate along the row: each class is walked with step 2, in pixel order,
      // so its running product is the same as with one branch per pixel.
      const firstAcquired = (lattice - y) & 1;
      for (let bx = 0; bx < bw; bx++) {
        const x0 = bx * block, end = x0 + block;
        let p = prodA[bx]!, l = logA[bx]!, z = zeroA[bx]!;
        for (let x = x0 + firstAcquired; x < end; x += 2) {
          const v = variance[x]!;
          if (v > 0) {
            p *= v;
            if (p < 1e-200 || p > 1e200) { l += Math.log(p); p = 1; }
          } else z = 1;
        }
        prodA[bx] = p; logA[bx] = l; zeroA[bx] = z;
        p = prodI[bx]!; l = logI[bx]!; z = zeroI[bx]!;
        for (let x = x0 + 1 - firstAcquired; x < end; x += 2) {
          const v = variance[x]!;
          if (v > 0) {
            p *= v;
            if (p < 1e-200 || p > 1e200) { l += Math.log(p); p = 1; }
          } else z = 1;
        }
        prodI[bx] = p; logI[bx] = l; zeroI[bx] = z;
      }
    }
    for (let bx = 0; bx < bw; bx++) {
      const za = zeroA[bx] === 1, zi = zeroI[bx] === 1;
      feature[(by - blockRowStart) * bw + bx] = za && zi ? 0 : za || zi ? Number.NaN : logA[bx]! + Math.log(prodA[bx]!) - (logI[bx]! + Math.log(prodI[bx]!));
    }
  }
  return feature;
}
