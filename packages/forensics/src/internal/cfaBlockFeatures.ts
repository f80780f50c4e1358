import type { PixelBuffer } from '../types.js';
import { align16, wasmModule, type WasmModule } from './wasm.js';

/** Half-width of the 7x7 variance window. */
const R = 3;

/**
 * Ferrara et al.'s block feature in one streaming pass over the image: per block of `block` x `block` pixels,
 * sum(log var) over the acquired lattice minus the same over the interpolated one, where var is the local weighted
 * variance of the green bilinear prediction error e = G - (G_up + G_down + G_left + G_right) / 4 (replicated
 * borders) over the pixels of the same quincunx lattice: weights g(dx) g(dy) for dx + dy even, g Gaussian with
 * `sigma`, 7x7 window, normalised by (sum(g)^2 + sum(alt)^2) / 2 with alt(d) = (-1)^d g(d), as before.
 *
 * The window restricted to dx + dy even is (even dx, even dy) plus (odd dx, odd dy), so one horizontal pass per row
 * gives the even-offset and the odd-offset partial sums of e and e^2 (4 numbers per pixel, in a ring of 8 rows) and
 * one vertical pass combines them: 8 multiply-adds per pixel and statistic instead of four full separable
 * convolutions. e and e^2 are rounded to float32 and the variance too (as the first version stored them), the sums
 * are float64. Products of up to ~20 variances are multiplied out before one log (kept within 1e-200..1e200 so
 * nothing under- or overflows) instead of one log per pixel. Each pass is a plain function of typed arrays and
 * numbers (no closures in the loops: V8 optimises them far better), e is computed from the samples where they are
 * stored, the horizontal window rolls through locals, and the vertical pass multiplies each variance straight into
 * its block's product (no variance row). Computing e inside the horizontal loop instead of in its own pass measured
 * almost twice as slow.
 *
 * The WebAssembly module (cfaBlockFeaturesWasm below) runs the same passes with the same values, about three times
 * faster; this code remains the reference and the path when the modules are off.
 *
 * Returns the feature (NaN where exactly one lattice has a zero variance, 0 where both have) for the
 * floor(width / block) x floor(height / block) full blocks, or for the rows of blocks [blockRowStart, blockRowEnd)
 * only (a band: each row of blocks depends on the pixels alone, so bands computed apart concatenate to the whole).
 */
export function cfaBlockFeatures(image: PixelBuffer, block: number, lattice: 0 | 1, sigma: number, blockRowStart = 0, blockRowEnd = Math.floor(image.height / block)): Float32Array {
  const { data, width, height, channels } = image;
  const bw = Math.floor(width / block);
  const weights = varianceWeights(sigma);
  const module = bw > 0 && blockRowEnd > blockRowStart && (data instanceof Uint8Array || data instanceof Float32Array) ? wasmModule('cfaBlockFeatures') : undefined;
  if (module !== undefined) return cfaBlockFeaturesWasm(module, image, block, lattice, weights, blockRowStart, blockRowEnd);
  // Green samples: channel 1 (the only channel of a grey image), row y from y * rowLength + green.
  const green = Math.min(1, channels - 1), rowLength = width * channels;
  // Prediction error and its square of one row, float32 values held as float64, replicated R samples each side.
  const e = new Float64Array(width + 2 * R), e2 = new Float64Array(width + 2 * R);
  // Ring of horizontally filtered rows, slot = row & 7: even- and odd-offset sums of e and of e^2, interleaved
  // ([2x] the sum of e, [2x + 1] that of e^2) so the vertical pass reads 7 arrays instead of 14.
  const even: Float64Array[] = [], odd: Float64Array[] = [];
  for (let k = 0; k < 8; k++) { even.push(new Float64Array(2 * width)); odd.push(new Float64Array(2 * width)); }
  const filtered = new Int32Array(8).fill(-1);
  const clampRow = (y: number): number => (y < 0 ? 0 : y > height - 1 ? height - 1 : y);
  const feature = new Float32Array(bw * (blockRowEnd - blockRowStart));
  const products = new BlockProducts(bw);
  for (let by = blockRowStart; by < blockRowEnd; by++) {
    products.reset();
    for (let y = by * block; y < (by + 1) * block; y++) {
      for (let d = -R; d <= R; d++) {
        const yy = clampRow(y + d), slot = yy & 7;
        if (filtered[slot] === yy) continue;
        filtered[slot] = yy;
        predictionErrors(data, clampRow(yy - 1) * rowLength + green, yy * rowLength + green, clampRow(yy + 1) * rowLength + green, channels, e, e2, width);
        horizontalSums(e, e2, even[slot]!, odd[slot]!, bw * block, weights);
      }
      const rows: VerticalRows = [even[y & 7]!, even[clampRow(y - 2) & 7]!, even[clampRow(y + 2) & 7]!, odd[clampRow(y - 1) & 7]!, odd[clampRow(y + 1) & 7]!, odd[clampRow(y - 3) & 7]!, odd[clampRow(y + 3) & 7]!];
      // Acquired pixels are at even x offsets in a block (x0 is even) when (lattice - y) is even.
      accumulateVarianceRow(rows, weights, products, block, ((lattice - y) & 1) === 0);
    }
    products.features(feature, (by - blockRowStart) * bw);
  }
  return feature;
}

/** The Gaussian's taps g(0..3) and the variance window's normalisation. */
interface VarianceWeights { w0: number; w1: number; w2: number; w3: number; norm: number }

function varianceWeights(sigma: number): VarianceWeights {
  const g = new Float64Array(2 * R + 1);
  const alt = new Float64Array(2 * R + 1);
  for (let d = -R; d <= R; d++) {
    g[d + R] = Math.exp(-(d * d) / (2 * sigma * sigma));
    alt[d + R] = (d & 1 ? -1 : 1) * g[d + R]!;
  }
  const s = g.reduce((a, b) => a + b, 0);
  const sAlt = alt.reduce((a, b) => a + b, 0);
  return { w0: g[3]!, w1: g[4]!, w2: g[5]!, w3: g[6]!, norm: (s * s + sAlt * sAlt) / 2 };
}

/**
 * e and e^2 (each rounded to float32) of the row whose green samples start at `pc` in `data` (samples `stride`
 * apart), from the rows above and below starting at `pu` and `pd`; borders replicated; padded by R each side. The
 * samples are read where they are stored: copying the green channel into lines first measured slower.
 */
function predictionErrors(data: Uint8Array | Float32Array, pu: number, pc: number, pd: number, stride: number, e: Float64Array, e2: Float64Array, width: number): void {
  let left = data[pc]!, centre = left;
  for (let x = 0, i = R, q = pc; x < width - 1; x++, i++, q += stride) {
    const right = data[q + stride]!;
    const v = Math.fround(centre - 0.25 * (data[pu + x * stride]! + data[pd + x * stride]! + left + right));
    e[i] = v;
    e2[i] = Math.fround(v * v);
    left = centre;
    centre = right;
  }
  const last = width - 1;
  const v = Math.fround(centre - 0.25 * (data[pu + last * stride]! + data[pd + last * stride]! + left + centre));
  e[R + last] = v;
  e2[R + last] = Math.fround(v * v);
  for (let k = 0; k < R; k++) {
    e[k] = e[R]!; e2[k] = e2[R]!;
    e[width + R + k] = e[width + R - 1]!; e2[width + R + k] = e2[width + R - 1]!;
  }
}

/**
 * Horizontal pass for the first n columns: even-offset (0, +-2) and odd-offset (+-1, +-3) weighted sums of e and of
 * e^2. The seven samples of the window roll through locals so each is read once.
 */
function horizontalSums(e: Float64Array, e2: Float64Array, E: Float64Array, O: Float64Array, n: number, { w0, w1, w2, w3 }: VarianceWeights): void {
  let a0 = e[0]!, a1 = e[1]!, a2 = e[2]!, a3 = e[3]!, a4 = e[4]!, a5 = e[5]!;
  let b0 = e2[0]!, b1 = e2[1]!, b2 = e2[2]!, b3 = e2[3]!, b4 = e2[4]!, b5 = e2[5]!;
  for (let x = 0, j = 0; x < n; x++, j += 2) {
    const a6 = e[x + 6]!, b6 = e2[x + 6]!;
    E[j] = w0 * a3 + w2 * (a1 + a5);
    O[j] = w1 * (a2 + a4) + w3 * (a0 + a6);
    E[j + 1] = w0 * b3 + w2 * (b1 + b5);
    O[j + 1] = w1 * (b2 + b4) + w3 * (b0 + b6);
    a0 = a1; a1 = a2; a2 = a3; a3 = a4; a4 = a5; a5 = a6;
    b0 = b1; b1 = b2; b2 = b3; b3 = b4; b4 = b5; b5 = b6;
  }
}

/** Horizontally filtered rows at vertical offsets 0, -2, +2 (even sums) and -1, +1, -3, +3 (odd sums). */
type VerticalRows = [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];

/** Per block of a row of blocks: running products and flushed logs of the variances of both lattices. */
class BlockProducts {
  /** [4 bx]: product and [4 bx + 1]: sum of logs of the acquired lattice; [4 bx + 2], [4 bx + 3]: interpolated. */
  readonly state: Float64Array;
  /** [2 bx]: a variance of the acquired lattice was zero; [2 bx + 1]: one of the interpolated lattice. */
  readonly zero: Uint8Array;

  constructor(readonly blocks: number) {
    this.state = new Float64Array(4 * blocks);
    this.zero = new Uint8Array(2 * blocks);
  }

  reset(): void {
    for (let b = 0; b < this.blocks; b++) { this.state[4 * b] = 1; this.state[4 * b + 1] = 0; this.state[4 * b + 2] = 1; this.state[4 * b + 3] = 0; }
    this.zero.fill(0);
  }

  /** log(prod acquired) - log(prod interpolated) per block into out[offset..]: 0 if both have a zero, NaN if one. */
  features(out: Float32Array, offset: number): void {
    const { state, zero } = this;
    for (let b = 0; b < this.blocks; b++) {
      const za = zero[2 * b] === 1, zi = zero[2 * b + 1] === 1;
      out[offset + b] = za && zi ? 0 : za || zi ? Number.NaN : state[4 * b + 1]! + Math.log(state[4 * b]!) - (state[4 * b + 3]! + Math.log(state[4 * b + 2]!));
    }
  }
}

/**
 * Vertical pass of one row fused with the products: the local variance (float32) of each column of full blocks,
 * multiplied into its block's product of the lattice it belongs to. The two lattices alternate along the row, so
 * each step takes two columns, one of each; every product still receives its factors in pixel order.
 */
function accumulateVarianceRow([Ec, Eu, Ed, Ou, Od, Ouu, Odd]: VerticalRows, { w0, w1, w2, w3, norm }: VarianceWeights, products: BlockProducts, block: number, evenAcquired: boolean): void {
  const { state, zero } = products;
  // Slots of the lattice at even x offsets (p) and at odd ones (q) in `state` (x 2) and `zero`.
  const kp = evenAcquired ? 0 : 1, kq = 1 - kp;
  for (let bx = 0, j = 0; bx < products.blocks; bx++) {
    let p = state[4 * bx + 2 * kp]!, lp = state[4 * bx + 2 * kp + 1]!, zp = zero[2 * bx + kp]!;
    let q = state[4 * bx + 2 * kq]!, lq = state[4 * bx + 2 * kq + 1]!, zq = zero[2 * bx + kq]!;
    for (let x = 0; x < block; x += 2, j += 4) {
      const m1 = (w0 * Ec[j]! + w2 * (Eu[j]! + Ed[j]!) + w1 * (Ou[j]! + Od[j]!) + w3 * (Ouu[j]! + Odd[j]!)) / norm;
      const m2 = (w0 * Ec[j + 1]! + w2 * (Eu[j + 1]! + Ed[j + 1]!) + w1 * (Ou[j + 1]! + Od[j + 1]!) + w3 * (Ouu[j + 1]! + Odd[j + 1]!)) / norm;
      const v = Math.fround(m2 - m1 * m1);
      if (v > 0) {
        p *= v;
        if (p < 1e-200 || p > 1e200) { lp += Math.log(p); p = 1; }
      } else zp = 1;
      const n1 = (w0 * Ec[j + 2]! + w2 * (Eu[j + 2]! + Ed[j + 2]!) + w1 * (Ou[j + 2]! + Od[j + 2]!) + w3 * (Ouu[j + 2]! + Odd[j + 2]!)) / norm;
      const n2 = (w0 * Ec[j + 3]! + w2 * (Eu[j + 3]! + Ed[j + 3]!) + w1 * (Ou[j + 3]! + Od[j + 3]!) + w3 * (Ouu[j + 3]! + Odd[j + 3]!)) / norm;
      const u = Math.fround(n2 - n1 * n1);
      if (u > 0) {
        q *= u;
        if (q < 1e-200 || q > 1e200) { lq += Math.log(q); q = 1; }
      } else zq = 1;
    }
    state[4 * bx + 2 * kp] = p; state[4 * bx + 2 * kp + 1] = lp; zero[2 * bx + kp] = zp;
    state[4 * bx + 2 * kq] = q; state[4 * bx + 2 * kq + 1] = lq; zero[2 * bx + kq] = zq;
  }
}

/** Rows of blocks computed by the WebAssembly module so far (tests check that the module really ran). */
export let wasmBlockRows = 0;

/** Rows of pixels copied into the module per call of its greenRows. */
const STAGED_ROWS = 16;

/**
 * `cfaBlockFeatures` in the WebAssembly module (assembly/cfaBlockFeatures.ts): the same passes with the same float64
 * operations in the same order, two pixels per f64x2 (for the products, one pixel of each lattice), and e, e^2 of
 * 8-bit samples from integers (exact, see errorsOfBytes there). Per row of blocks the pixel rows it newly needs are
 * copied in, the module fills its ring of filtered rows and the blocks' running products, and the logs are taken
 * here as in `BlockProducts.features`. The memory holds a ring of block + 8 green lines, 8 filtered rows and 16 pixel
 * rows: about 1.5 MB for a 4000-pixel-wide RGB image in blocks of 8.
 */
function cfaBlockFeaturesWasm(module: WasmModule, image: PixelBuffer, block: number, lattice: 0 | 1, { w0, w1, w2, w3, norm }: VarianceWeights, blockRowStart: number, blockRowEnd: number): Float32Array {
  const { data, width, height, channels } = image;
  const bw = Math.floor(width / block), floatInput = data instanceof Float32Array, bytes = floatInput ? 4 : 1;
  const green = Math.min(1, channels - 1), rowLength = width * channels;
  const ringRows = block + 8, lineBytes = align16((width + 32) * bytes);
  const greenPtr = module.heapBase();
  const errorsPtr = greenPtr + ringRows * lineBytes, squaresPtr = errorsPtr + align16((width + 32) * 8);
  const filteredPtr = squaresPtr + align16((width + 32) * 8), tagsPtr = filteredPtr + 8 * bw * block * 32;
  const statePtr = tagsPtr + 32, variancesPtr = statePtr + 48 * bw, stagePtr = variancesPtr + 8 * bw * block;
  // 64 bytes of slack: greenOfThree reads up to 16 bytes at a time, one past the last pixel of the last row.
  module.reserve(stagePtr + STAGED_ROWS * rowLength * bytes + 64);
  const buffer = module.memory.buffer;
  const stage = floatInput ? new Float32Array(buffer, stagePtr, STAGED_ROWS * rowLength) : new Uint8Array(buffer, stagePtr, STAGED_ROWS * rowLength);
  const products = new Float64Array(buffer, statePtr, 6 * bw), zeros = new Int32Array(buffer, statePtr, 12 * bw);
  module.function<(...args: number[]) => void>('configure')(width, height, block, lattice, floatInput ? 1 : 0, w0, w1, w2, w3, norm, greenPtr, lineBytes, ringRows, errorsPtr, squaresPtr, filteredPtr, tagsPtr, statePtr, variancesPtr);
  const greenRows = module.function<(src: number, firstRow: number, count: number, channels: number, green: number) => void>('greenRows');
  const blockRow = module.function<(by: number) => void>('blockRow');
  const feature = new Float32Array(bw * (blockRowEnd - blockRowStart));
  let loaded = 0; // rows before this one are in the ring of green lines (or no longer needed)
  for (let by = blockRowStart; by < blockRowEnd; by++) {
    // blockRow needs the green lines of rows by * block - 4 .. (by + 1) * block + 3 (clamped): ringRows of them.
    let row = Math.max(loaded, by * block - 4, 0);
    const end = Math.min(height, (by + 1) * block + 4);
    while (row < end) {
      const count = Math.min(STAGED_ROWS, end - row);
      stage.set(data.subarray(row * rowLength, (row + count) * rowLength));
      greenRows(stagePtr, row, count, channels, green);
      row += count;
    }
    loaded = end;
    blockRow(by);
    wasmBlockRows++;
    // Per block: products (acquired, interpolated), their flushed logs, zero flags (int32 words 8 and 10 of 12).
    for (let b = 0, o = (by - blockRowStart) * bw; b < bw; b++) {
      const za = zeros[12 * b + 8] !== 0, zi = zeros[12 * b + 10] !== 0;
      feature[o + b] = za && zi ? 0 : za || zi ? Number.NaN : products[6 * b + 2]! + Math.log(products[6 * b]!) - (products[6 * b + 3]! + Math.log(products[6 * b + 1]!));
    }
  }
  return feature;
}
