import { DB8_DECOMPOSITION_HIGH } from '../internal/db8.js';
import { StreamedDetail16, WasmDetail16 } from '../internal/dwt.js';
import type { LumaPlanes } from '../internal/luma.js';
import { SortedFloat32 } from '../internal/sortedFloat32.js';
import { clamp01, concatFloat32, medianInPlace, medianOfNonNegativeBits, outlierFraction, quantile } from '../internal/stats.js';
import type { KernelResult, PixelBuffer } from '../types.js';
import { expectIntegerInRange, expectMinimumSize, expectNumberInRange, expectPixelBuffer } from '../validate.js';

export interface WaveletNoiseMapOptions {
  /**
   * Side, in wavelet coefficients, of the blocks the noise is estimated on (each covers 2*blockSize pixels).
   * @default 8
   */
  blockSize?: number;
  /**
   * Round the luma to integers first, as MATLAB's uint8 `rgb2ycbcr` output is.
   * @default true
   */
  roundLuma?: boolean;
  /**
   * Robust |z| above which a block's noise level counts as inconsistent in the score.
   * @default 3.5
   */
  outlierZ?: number;
}

export const waveletNoiseMapDefaults: Required<WaveletNoiseMapOptions> = { blockSize: 8, roundLuma: true, outlierZ: 3.5 };

/**
 * Local noise level from the diagonal detail subband (Mahdian and Saic 2009, "Using noise inconsistencies for blind
 * image forensics", Image and Vision Computing 27(10)): one level of a db8 wavelet analysis of the luma, HH1 cropped
 * to a multiple of `blockSize`, and per block the robust estimator sigma = median(|HH1|) / 0.6745 (Donoho 1995).
 * Splices from a source with another noise level stand out.
 *
 * Score: fraction of blocks whose sigma is a robust outlier either way (|z| > `outlierZ`).
 */
export function waveletNoiseMap(image: PixelBuffer, options: WaveletNoiseMapOptions = {}): KernelResult {
  return waveletNoiseFromLuma(image, options);
}

/** `waveletNoiseMap` on precomputed luma planes (`studioLumaPlanes`; the luma is computed row by row when not given). */
export function waveletNoiseFromLuma(image: PixelBuffer, options: WaveletNoiseMapOptions = {}, luma?: LumaPlanes): KernelResult {
  const o = waveletNoiseOptions(image, options);
  return waveletNoiseFromBands(image, [waveletNoiseBand(image, o, luma, 0, waveletBlocks(image, o.blockSize)[1])], o);
}

/** Options merged over the defaults and validated against the image (first step of `waveletNoiseMap`). */
export function waveletNoiseOptions(image: PixelBuffer, options: WaveletNoiseMapOptions = {}): Required<WaveletNoiseMapOptions> {
  const o = { ...waveletNoiseMapDefaults, ...options };
  expectPixelBuffer('image', image);
  expectIntegerInRange('blockSize', o.blockSize, 2, 256);
  expectNumberInRange('outlierZ', o.outlierZ, 0, 1e6);
  expectMinimumSize('image', image, 4 * o.blockSize);
  return o;
}

/** Blocks across and down: HH1 has floor((n + L - 1) / 2) coefficients per side, cropped to whole blocks. */
export function waveletBlocks(image: PixelBuffer, blockSize: number): [number, number] {
  const L = DB8_DECOMPOSITION_HIGH.length;
  return [Math.floor(Math.floor((image.width + L - 1) / 2) / blockSize), Math.floor(Math.floor((image.height + L - 1) / 2) / blockSize)];
}

/**
 * Noise sigma of the blocks in the rows of blocks [blockRowStart, blockRowEnd): the HH1 coefficients of each row of
 * blocks streamed from the luma rows they read (`StreamedDetail16`), then the block medians. Bands concatenate to the
 * whole map.
 */
export function waveletNoiseBand(image: PixelBuffer, o: Required<WaveletNoiseMapOptions>, luma: LumaPlanes | undefined, blockRowStart: number, blockRowEnd: number): Float32Array {
  const [bw] = waveletBlocks(image, o.blockSize);
  const B = o.blockSize, keepW = bw * B;
  const plane = luma ? (o.roundLuma ? luma.rounded : luma.luma) : undefined;
  const wasm = WasmDetail16.create(image, o.roundLuma, DB8_DECOMPOSITION_HIGH, keepW, plane, B);
  if (wasm) return waveletNoiseBandWasm(wasm, bw, B, blockRowStart, blockRowEnd);
  // HH one row of blocks at a time (B rows of coefficients), streamed: no full-size intermediate planes.
  const detail = new StreamedDetail16(image, o.roundLuma, DB8_DECOMPOSITION_HIGH, keepW, plane);
  const hh = new Float32Array(B * keepW);
  const map = new Float32Array(bw * (blockRowEnd - blockRowStart));
  const scratch = new Float64Array(B * B);
  // |HH| as float32 bit patterns (sign bit cleared): selected by integer compares without branches.
  const hhBits = new Int32Array(hh.buffer);
  const bits = new Int32Array(B * B), floats = new Float32Array(bits.buffer);
  for (let by = 0; by < blockRowEnd - blockRowStart; by++) {
    for (let v = 0; v < B; v++) detail.detailRow((blockRowStart + by) * B + v, hh, v * keepW);
    for (let bx = 0; bx < bw; bx++) {
      let n = 0, nan = 0;
      for (let v = 0; v < B; v++) {
        const row = v * keepW + bx * B;
        for (let u = 0; u < B; u++) {
          const b = hhBits[row + u]! & 0x7fffffff;
          nan |= 0x7f800000 - b;
          bits[n++] = b;
        }
      }
      if (nan >= 0) {
        map[by * bw + bx] = medianOfNonNegativeBits(bits, floats, n) / 0.6745;
        continue;
      }
      // A NaN coefficient (float pixels holding NaN): the comparison-based median, as before.
      n = 0;
      for (let v = 0; v < B; v++) {
        const row = v * keepW + bx * B;
        for (let u = 0; u < B; u++) scratch[n++] = Math.abs(hh[row + u]!);
      }
      map[by * bw + bx] = medianInPlace(scratch, n) / 0.6745;
    }
  }
  return map;
}

/**
 * `waveletNoiseBand` in WebAssembly: HH rows and block medians in the module, a row of blocks per round trip. Blocks
 * holding a NaN (float pixels holding NaN) take the JavaScript comparison-based median, as on the JavaScript path.
 */
function waveletNoiseBandWasm(wasm: WasmDetail16, bw: number, B: number, blockRowStart: number, blockRowEnd: number): Float32Array {
  const map = new Float32Array(bw * (blockRowEnd - blockRowStart));
  const { detail, stride, medians, flags } = wasm;
  const scratch = new Float64Array(B * B);
  for (let by = 0; by < blockRowEnd - blockRowStart; by++) {
    for (let v = 0; v < B; v += 8) wasm.rows((blockRowStart + by) * B + v, Math.min(8, B - v), v);
    const nan = wasm.blockMedians(bw);
    map.set(medians.subarray(0, bw), by * bw);
    if (nan === 0) continue;
    for (let bx = 0; bx < bw; bx++) {
      if (flags[bx] === 0) continue;
      let n = 0;
      for (let v = 0; v < B; v++) {
        const row = v * stride + bx * B;
        for (let u = 0; u < B; u++) scratch[n++] = Math.abs(detail[row + u]!);
      }
      map[by * bw + bx] = medianInPlace(scratch, n) / 0.6745;
    }
  }
  return map;
}

/** Last step of `waveletNoiseMap`: map, stats and score from the bands in order. */
export function waveletNoiseFromBands(image: PixelBuffer, bands: Float32Array[], o: Required<WaveletNoiseMapOptions>): KernelResult {
  const [bw, bh] = waveletBlocks(image, o.blockSize);
  const map = bands.length === 1 ? bands[0]! : concatFloat32(bands);
  // One sort of the sigmas for every order statistic (the same values as `outlierFraction` and `quantile`).
  const sorted = SortedFloat32.of(map);
  const inconsistent = sorted ? sorted.outlierFraction(o.outlierZ, true, 0.05) : outlierFraction(map, o.outlierZ, true, 0.05);
  const sigmaQuantile = (q: number): number => (sorted ? sorted.quantile(q) : quantile(map, q));
  const p99 = sigmaQuantile(0.99);
  return {
    maps: [{ name: 'noise-sigma', data: map, width: bw, height: bh, cellSize: 2 * o.blockSize, displayRange: [0, Math.max(1e-6, p99)] }],
    stats: { medianSigma: sigmaQuantile(0.5), p99Sigma: p99, maxSigma: sigmaQuantile(1), inconsistentBlockFraction: inconsistent },
    score: clamp01(inconsistent),
  };
}
