import type { PixelBuffer } from '../types.js';
import { align16, wasmModule, type WasmModule } from './wasm.js';

/** Half-width of the 7x7 variance window. */
const R = 3;

/**
 * Ferrara et al.'s block feature in one streaming pass over the image: per block of `block` x `block` pixels,
 * sum(log var) over the acquired lattice minus the same over the interpolated one, where var is the local weighted
 * variance of the green bilinear prediction error e = G - (G_up + G_down + G_left + G_right) / 4 (replicated
 * borders) over the pixels of the same quincunx lattice: weights g(dx) g(dy) for dx + dy even, g Gaussian with
 * `sigma`, 7x7 window, normalised by (sum(g)^2 + sum(alt)^2) / 2 with alt(d) = (-1)^d g(d).
 *
 * The window restricted to dx + dy even is (even dx, even dy) plus (odd dx, odd dy), so one horizontal pass per row
 * gives the even-offset and the odd-offset partial sums of e and e^2 (4 numbers per pixel, in a ring of 8 rows) and
 * one vertical pass combines them. Every step is float32 arithmetic in a fixed order (written out below with
 * Math.fround; the WebAssembly module runs the same operations four pixels per f32x4, so the two give the same bits):
 * for 8-bit pixels e and e^2 are exact, the window sums carry float32 rounding (about 1e-7 of the variance, which the
 * first versions rounded to float32 too). The logs are summed as a sum of binary exponents and a product of
 * mantissas in [1, 2) (`LogAccumulator`): no logarithm per pixel.
 *
 * Returns the feature (NaN where exactly one lattice has a zero variance, 0 where both have) for the
 * floor(width / block) x floor(height / block) full blocks, or for the rows of blocks [blockRowStart, blockRowEnd)
 * only (a band: each row of blocks depends on the pixels alone, so bands computed apart concatenate to the whole).
 */
export function cfaBlockFeatures(image: PixelBuffer, block: number, lattice: 0 | 1, sigma: number, blockRowStart = 0, blockRowEnd = Math.floor(image.height / block)): Float32Array {
  const { data, width, height, channels } = image;
  const bw = Math.floor(width / block);
  const weights = varianceWeights(sigma);
  const module = bw > 0 && blockRowEnd > blockRowStart && block % 4 === 0 && (data instanceof Uint8Array || data instanceof Float32Array) ? wasmModule('cfaBlockFeatures') : undefined;
  if (module !== undefined) return cfaBlockFeaturesWasm(module, image, block, lattice, weights, blockRowStart, blockRowEnd);
  // Green samples: channel 1 (the only channel of a grey image), row y from y * rowLength + green.
  const green = Math.min(1, channels - 1), rowLength = width * channels;
  // Prediction error and its square of one row, replicated R samples each side.
  const e = new Float32Array(width + 2 * R), e2 = new Float32Array(width + 2 * R);
  // Ring of horizontally filtered rows, slot = row & 7: even- and odd-offset sums of e and of e^2, interleaved
  // ([2x] the sum of e, [2x + 1] that of e^2).
  const even: Float32Array[] = [], odd: Float32Array[] = [];
  for (let k = 0; k < 8; k++) { even.push(new Float32Array(2 * width)); odd.push(new Float32Array(2 * width)); }
  const filtered = new Int32Array(8).fill(-1);
  const clampRow = (y: number): number => (y < 0 ? 0 : y > height - 1 ? height - 1 : y);
  const feature = new Float32Array(bw * (blockRowEnd - blockRowStart));
  const logs = new LogAccumulator(bw, block);
  const variance = new Float32Array(bw * block), varianceBits = new Int32Array(variance.buffer);
  for (let by = blockRowStart; by < blockRowEnd; by++) {
    logs.reset();
    for (let y = by * block; y < (by + 1) * block; y++) {
      for (let d = -R; d <= R; d++) {
        const yy = clampRow(y + d), slot = yy & 7;
        if (filtered[slot] === yy) continue;
        filtered[slot] = yy;
        predictionErrors(data, clampRow(yy - 1) * rowLength + green, yy * rowLength + green, clampRow(yy + 1) * rowLength + green, channels, e, e2, width);
        horizontalSums(e, e2, even[slot]!, odd[slot]!, bw * block, weights);
      }
      const rows: VerticalRows = [even[y & 7]!, even[clampRow(y - 2) & 7]!, even[clampRow(y + 2) & 7]!, odd[clampRow(y - 1) & 7]!, odd[clampRow(y + 1) & 7]!, odd[clampRow(y - 3) & 7]!, odd[clampRow(y + 3) & 7]!];
      varianceRow(rows, weights, variance);
      logs.addRow(variance, varianceBits, y);
    }
    logFeatures(logs.mantissas, logs.words, bw, block, feature, (by - blockRowStart) * bw, lattice);
  }
  return feature;
}

/** The Gaussian's taps g(0..3) (horizontal pass) and the same over the window's normalisation (vertical pass), float32. */
interface VarianceWeights { w0: number; w1: number; w2: number; w3: number; n0: number; n1: number; n2: number; n3: number }

function varianceWeights(sigma: number): VarianceWeights {
  const g = new Float64Array(2 * R + 1);
  const alt = new Float64Array(2 * R + 1);
  for (let d = -R; d <= R; d++) {
    g[d + R] = Math.exp(-(d * d) / (2 * sigma * sigma));
    alt[d + R] = (d & 1 ? -1 : 1) * g[d + R]!;
  }
  const s = g.reduce((a, b) => a + b, 0);
  const sAlt = alt.reduce((a, b) => a + b, 0);
  const f = Math.fround;
  const norm = (s * s + sAlt * sAlt) / 2;
  return { w0: f(g[3]!), w1: f(g[4]!), w2: f(g[5]!), w3: f(g[6]!), n0: f(g[3]! / norm), n1: f(g[4]! / norm), n2: f(g[5]! / norm), n3: f(g[6]! / norm) };
}

/**
 * e and e^2 (float32 operations: e = c - 0.25 * (((u + d) + l) + r), exact for 8-bit samples) of the row whose green
 * samples start at `pc` in `data` (samples `stride` apart), from the rows above and below starting at `pu` and `pd`;
 * borders replicated; padded by R each side (the arrays are float32: every store rounds).
 */
function predictionErrors(data: Uint8Array | Float32Array, pu: number, pc: number, pd: number, stride: number, e: Float32Array, e2: Float32Array, width: number): void {
  const f = Math.fround;
  let left = data[pc]!, centre = left;
  for (let x = 0, i = R, q = pc; x < width; x++, i++, q += stride) {
    const right = x < width - 1 ? data[q + stride]! : centre;
    const v = f(centre - f(0.25 * f(f(f(data[pu + x * stride]! + data[pd + x * stride]!) + left) + right)));
    e[i] = v;
    e2[i] = v * v;
    left = centre;
    centre = right;
  }
  for (let k = 0; k < R; k++) {
    e[k] = e[R]!; e2[k] = e2[R]!;
    e[width + R + k] = e[width + R - 1]!; e2[width + R + k] = e2[width + R - 1]!;
  }
}

/**
 * Horizontal pass for the first n columns: even-offset w0 e(x) + w2 (e(x-2) + e(x+2)) and odd-offset
 * w1 (e(x-1) + e(x+1)) + w3 (e(x-3) + e(x+3)) sums of e and of e^2, in float32.
 */
function horizontalSums(e: Float32Array, e2: Float32Array, E: Float32Array, O: Float32Array, n: number, { w0, w1, w2, w3 }: VarianceWeights): void {
  const f = Math.fround;
  for (let x = 0, j = 0; x < n; x++, j += 2) {
    E[j] = f(w0 * e[x + 3]!) + f(w2 * f(e[x + 1]! + e[x + 5]!));
    O[j] = f(w1 * f(e[x + 2]! + e[x + 4]!)) + f(w3 * f(e[x]! + e[x + 6]!));
    E[j + 1] = f(w0 * e2[x + 3]!) + f(w2 * f(e2[x + 1]! + e2[x + 5]!));
    O[j + 1] = f(w1 * f(e2[x + 2]! + e2[x + 4]!)) + f(w3 * f(e2[x]! + e2[x + 6]!));
  }
}

/** Horizontally filtered rows at vertical offsets 0, -2, +2 (even sums) and -1, +1, -3, +3 (odd sums). */
type VerticalRows = [Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array];

/**
 * Vertical pass of one row: per column the window means m1 of e and m2 of e^2,
 * ((n0 Ec + n2 (Eu + Ed)) + n1 (Ou + Od)) + n3 (Ouu + Odd) with n = g / norm, and the variance m2 - m1 m1, in float32.
 */
function varianceRow([Ec, Eu, Ed, Ou, Od, Ouu, Odd]: VerticalRows, { n0, n1, n2, n3 }: VarianceWeights, out: Float32Array): void {
  const f = Math.fround;
  for (let x = 0, j = 0; x < out.length; x++, j += 2) {
    const m1 = f(f(f(f(n0 * Ec[j]!) + f(n2 * f(Eu[j]! + Ed[j]!))) + f(n1 * f(Ou[j]! + Od[j]!))) + f(n3 * f(Ouu[j]! + Odd[j]!)));
    const m2 = f(f(f(f(n0 * Ec[j + 1]!) + f(n2 * f(Eu[j + 1]! + Ed[j + 1]!))) + f(n1 * f(Ou[j + 1]! + Od[j + 1]!))) + f(n3 * f(Ouu[j + 1]! + Odd[j + 1]!)));
    out[x] = m2 - f(m1 * m1);
  }
}

const FLOAT = new Float32Array(1);
const BITS = new Int32Array(FLOAT.buffer);
const DOUBLE = new Float64Array(1);
const HALVES = new Int32Array(DOUBLE.buffer);
/** Which 32-bit half of a double holds its sign and exponent. */
const HIGH = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;
const MANTISSA = 0x7fffff;
/** 2^-23: the weight of the last mantissa bit of a float32 in [1, 2). */
const MANTISSA_STEP = 1.1920928955078125e-7;
/** ln 2 as a double (Math.LN2). */
const LN2 = 0.6931471805599453;
/** 32-bit words of one block's state: 8 mantissa products (float32), 8 exponent-field sums, 8 all-positive flags. */
const STATE_WORDS = 24;

/**
 * Per block of a row of blocks, the sums of log(var) of both lattices as binary exponents and mantissas. Each block
 * has 8 slots, slot = 4 (y & 1) + ((x - x0) & 3): every pixel of a slot is on the same lattice (x + y even or odd). A
 * slot sums the exponent fields of its variances (int32, exact; the bias is taken off at the end) and multiplies
 * their mantissas, as floats in [1, 2), into a float32 product in pixel order; after each row the product's own
 * exponent field moves into the sum (the product is back in [1, 2)). A variance that is not positive (or NaN) clears
 * its slot's all-positive flag: the lattice then has no feature, and what its slots hold is never read (the module
 * multiplies such variances in, this code skips them). A positive subnormal one is scaled by 2^24 first (exactly) and
 * its exponent taken 24 lower. The WebAssembly module keeps the very same state in the same layout (`STATE_WORDS`
 * words per block), four slots per vector.
 */
class LogAccumulator {
  readonly mantissas: Float32Array;
  readonly words: Int32Array;

  constructor(readonly blocks: number, readonly block: number) {
    const state = new ArrayBuffer(4 * STATE_WORDS * blocks);
    this.mantissas = new Float32Array(state);
    this.words = new Int32Array(state);
  }

  reset(): void {
    for (let b = 0; b < this.blocks; b++) {
      const o = STATE_WORDS * b;
      this.mantissas.fill(1, o, o + 8);
      this.words.fill(0, o + 8, o + 16);
      this.words.fill(-1, o + 16, o + 24);
    }
  }

  /**
   * The variances of row y (the full blocks' columns; `bits`: the same memory as int32) into their slots, then every
   * touched product renormalised. A mantissa as a float is 1 + (bits & 0x7fffff) 2^-23 (exact), and the product of
   * two float32 values is exact in float64, so storing it rounds once: the float32 multiplication.
   */
  addRow(variance: Float32Array, bits: Int32Array, y: number): void {
    const { mantissas, words, block } = this, p = 4 * (y & 1);
    for (let b = 0, x = 0; b < this.blocks; b++) {
      const o = STATE_WORDS * b + p;
      for (let k = 0; k < block; k++, x++) {
        const s = o + (k & 3), v = variance[x]!;
        if (!(v > 0)) { words[s + 16] = 0; continue; }
        let u = bits[x]!;
        if (u < 0x800000) {
          // Subnormal: scaled by 2^24 (exact), exponent 24 lower.
          FLOAT[0] = v * 16777216;
          u = BITS[0]!;
          words[s + 8] = words[s + 8]! - 24;
        }
        words[s + 8] = words[s + 8]! + (u >>> 23);
        mantissas[s] = mantissas[s]! * (1 + (u & MANTISSA) * MANTISSA_STEP);
      }
      for (let s = o; s < o + 4; s++) {
        const u = words[s]!;
        words[s + 8] = words[s + 8]! + (u >>> 23);
        mantissas[s] = 1 + (u & MANTISSA) * MANTISSA_STEP;
      }
    }
  }
}

/**
 * log(r) for r in [1, 2): 2 atanh(s), s = (r - 1) / (r + 1) <= 1/3, by its series to s^19 (error under 1e-11),
 * float64 operations in the module's order (logOfMantissa there).
 */
function logOfMantissa(r: number): number {
  const s = (r - 1) / (r + 1), u = s * s;
  let t = 1 / 17 + u * (1 / 19);
  t = 1 / 15 + u * t;
  t = 1 / 13 + u * t;
  t = 1 / 11 + u * t;
  t = 1 / 9 + u * t;
  t = 1 / 7 + u * t;
  t = 1 / 5 + u * t;
  t = 1 / 3 + u * t;
  t = 1 + u * t;
  return (s + s) * t;
}

/**
 * log of a lattice: its exponent sum `exponent` (bias taken off) plus the log of the product m in [1, 16) of its four
 * mantissa products, m = 2^k r with r in [1, 2): (exponent + k) ln 2 + log(r).
 */
function latticeLog(exponent: number, m: number): number {
  DOUBLE[0] = m;
  const high = HALVES[HIGH]!;
  HALVES[HIGH] = (high & 0xfffff) | 0x3ff00000;
  return (exponent + ((high >>> 20) - 1023)) * LN2 + logOfMantissa(DOUBLE[0]!);
}

/**
 * Per block of the state (`STATE_WORDS` words per block), log(prod acquired) - log(prod interpolated)
 * into out[offset..] (0 if both lattices have a non-positive variance, NaN if one): per lattice, `latticeLog` of its
 * four slots' exponents (less the bias: 127 per factor and per renormalisation) and of their mantissas' product
 * (float64, slots in order). The acquired lattice is x + y = `lattice` mod 2. Swapping the lattices negates the
 * feature exactly (+0 and NaN stay).
 */
function logFeatures(mantissas: Float32Array, words: Int32Array, blocks: number, block: number, out: Float32Array, offset: number, lattice: 0 | 1): void {
  const bias = 4 * 127 * (block * block / 8 + block / 2);
  for (let b = 0, o = 0; b < blocks; b++, o += STATE_WORDS) {
    // Slots of x + y even: (p 0, j 0), (0, 2), (1, 1), (1, 3); odd: (0, 1), (0, 3), (1, 0), (1, 2).
    const allEven = (words[o + 16]! & words[o + 18]! & words[o + 21]! & words[o + 23]!) !== 0;
    const allOdd = (words[o + 17]! & words[o + 19]! & words[o + 20]! & words[o + 22]!) !== 0;
    if (!allEven || !allOdd) { out[offset + b] = !allEven && !allOdd ? 0 : Number.NaN; continue; }
    const logEven = latticeLog(words[o + 8]! + words[o + 10]! + words[o + 13]! + words[o + 15]! - bias, mantissas[o]! * mantissas[o + 2]! * mantissas[o + 5]! * mantissas[o + 7]!);
    const logOdd = latticeLog(words[o + 9]! + words[o + 11]! + words[o + 12]! + words[o + 14]! - bias, mantissas[o + 1]! * mantissas[o + 3]! * mantissas[o + 4]! * mantissas[o + 6]!);
    out[offset + b] = lattice === 0 ? logEven - logOdd : logOdd - logEven;
  }
}

/** Rows of blocks computed by the WebAssembly module so far (tests check that the module really ran). */
export let wasmBlockRows = 0;

/** Rows of pixels copied into the module per call of its greenRows. */
const STAGED_ROWS = 16;

/**
 * `cfaBlockFeatures` in the WebAssembly module (assembly/cfaBlockFeatures.ts; blocks of a multiple of 4 pixels): the
 * same float32 operations four pixels per f32x4, e and e^2 of 8-bit samples from integers (exact), the same slots of
 * exponents and mantissas in the same layout. Per row of blocks the pixel rows it newly needs are copied in, the
 * module fills its ring of filtered rows and the blocks' state, and the logs are taken here (`logFeatures`). The
 * memory holds a ring of block + 8 green lines, 8 filtered rows and 16 pixel rows: about 1.3 MB for a
 * 4000-pixel-wide RGB image in blocks of 8.
 */
function cfaBlockFeaturesWasm(module: WasmModule, image: PixelBuffer, block: number, lattice: 0 | 1, { w0, w1, w2, w3, n0, n1, n2, n3 }: VarianceWeights, blockRowStart: number, blockRowEnd: number): Float32Array {
  const { data, width, height, channels } = image;
  const bw = Math.floor(width / block), floatInput = data instanceof Float32Array, bytes = floatInput ? 4 : 1;
  const green = Math.min(1, channels - 1), rowLength = width * channels;
  const ringRows = block + 8, lineBytes = align16((width + 32) * bytes);
  const greenPtr = module.heapBase();
  const errorsPtr = greenPtr + ringRows * lineBytes, squaresPtr = errorsPtr + align16((width + 32) * 4);
  const filteredPtr = squaresPtr + align16((width + 32) * 4), tagsPtr = filteredPtr + 8 * bw * block * 16;
  const statePtr = tagsPtr + 32, featuresPtr = statePtr + 4 * STATE_WORDS * bw, stagePtr = align16(featuresPtr + 4 * bw) + 4 * bw * block;
  // 64 bytes of slack: greenOfThree reads up to 16 bytes at a time, one past the last pixel of the last row.
  module.reserve(stagePtr + STAGED_ROWS * rowLength * bytes + 64);
  const buffer = module.memory.buffer;
  const stage = floatInput ? new Float32Array(buffer, stagePtr, STAGED_ROWS * rowLength) : new Uint8Array(buffer, stagePtr, STAGED_ROWS * rowLength);
  const rowFeatures = new Float32Array(buffer, featuresPtr, bw);
  module.function<(...args: number[]) => void>('configure')(width, height, block, floatInput ? 1 : 0, w0, w1, w2, w3, n0, n1, n2, n3, greenPtr, lineBytes, ringRows, errorsPtr, squaresPtr, filteredPtr, tagsPtr, statePtr, featuresPtr);
  const greenRows = module.function<(src: number, firstRow: number, count: number, channels: number, green: number) => void>('greenRows');
  const blockRow = module.function<(by: number, lattice: number) => void>('blockRow');
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
    blockRow(by, lattice);
    wasmBlockRows++;
    feature.set(rowFeatures, (by - blockRowStart) * bw);
  }
  return feature;
}
