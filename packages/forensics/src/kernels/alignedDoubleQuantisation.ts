import { blockDct, blocksToCells, jpegLuma, jpegLumaBlocks, ZIGZAG } from '../jpeg/blockDct.js';
import type { DctPlane } from '../jpeg/blockDct.js';
import { binHistogram, fitFirstStep } from '../jpeg/doubleQuantisation.js';
import { boxMean } from '../jpeg/boxMean.js';
import { estimateJpegGrid } from '../jpeg/jpegGrid.js';
import { frequencyColumns, frequencyValues, quantisationSteps, sampleBlocks } from '../jpeg/quantisationSteps.js';
import { largestOutlierRegion } from '../internal/outlierRegion.js';
import type { KernelResult, PixelBuffer } from '../types.js';
import { expectIntegerInRange, expectMinimumSize, expectNumberInRange, expectPixelBuffer } from '../validate.js';

export interface AlignedDoubleQuantisationOptions {
  /**
   * AC frequencies used, in zig-zag order from the first.
   * @default 12
   */
  frequencies?: number;
  /**
   * Largest first quantisation step tried.
   * @default 40
   */
  maxFirstStep?: number;
  /**
   * Rounding noise between the two compressions, in coefficient units (about 0.3 per rounding to 8-bit pixels).
   * @default 0.6
   */
  sigma?: number;
  /**
   * Log-likelihood gain per coefficient below which a frequency counts as singly quantised and is left out.
   * @default 0.005
   */
  minGain?: number;
  /**
   * Each block's log-likelihood ratio clamp per frequency, so one odd coefficient cannot decide a block.
   * @default 3
   */
  clamp?: number;
  /**
   * Half-width in blocks of the window each block's log-likelihood ratio is averaged over (0: the block alone, as in
   * the paper; chosen on the copy-move half of the CASIA samples, see the README).
   * @default 3
   */
  radius?: number;
}

export const alignedDoubleQuantisationDefaults: Readonly<Required<AlignedDoubleQuantisationOptions>> = Object.freeze({
  frequencies: 12, maxFirstStep: 40, sigma: 0.6, minGain: 0.005, clamp: 3, radius: 3,
});

/** Blocks used to estimate the steps and the calibration histogram (all blocks when fewer). */
const SAMPLE_BLOCKS = 40_000;
/** Bins kept each side of 0; coefficients beyond say nothing. */
const HALF_BINS = 100;

/**
 * Aligned double JPEG quantisation (A-DQ) likelihood map, after Bianchi and Piva 2012 (IEEE TIFS 7(3)) and Lin et
 * al. 2009 (Pattern Recognition 42(11)): on the last JPEG grid (the file's, or estimated from blocking), the last
 * steps q2 (the file's table, or estimated from the coefficient histograms), the singly quantised distribution from
 * the DCT on the grid shifted by (4, 4) (its calibration), the first step q1 per frequency by EM, and per block the
 * summed log-likelihood ratio L of double over single quantisation. Map `adq-single-probability` = 1 / (1 + e^L): the
 * probability that a block was compressed only once, as a region pasted into a twice compressed JPEG is.
 */
export function alignedDoubleQuantisation(image: PixelBuffer, options: AlignedDoubleQuantisationOptions = {}, dct?: DctPlane): KernelResult {
  expectPixelBuffer('image', image);
  expectMinimumSize('image', image, 32);
  const o = { ...alignedDoubleQuantisationDefaults, ...options };
  expectIntegerInRange('frequencies', o.frequencies, 1, 63);
  expectIntegerInRange('maxFirstStep', o.maxFirstStep, 2, 255);
  expectNumberInRange('sigma', o.sigma, 0, 10);
  expectNumberInRange('minGain', o.minGain, 0, 10);
  expectNumberInRange('clamp', o.clamp, 0, 100);
  expectIntegerInRange('radius', o.radius, 0, 64);
  const { width, height } = image;
  const luma = dct ? undefined : jpegLuma(image);
  const grid = luma ? estimateJpegGrid(luma, width, height) : undefined;
  const plane = dct ?? blockDct(luma!, width, height, grid!.offsetX, grid!.offsetY);
  const blocks = plane.blocksX * plane.blocksY;
  const sample = sampleBlocks(blocks, SAMPLE_BLOCKS);
  const freqs = ZIGZAG.slice(1, 1 + o.frequencies);
  const { steps } = quantisationSteps(plane, freqs, sample);
  // Calibration: the grid shifted by half a block sees no quantisation lattice (Bianchi and Piva's estimate of the
  // singly quantised distribution). From a file's coefficients, the sampled blocks' luma alone is computed.
  const cx = (plane.offsetX + 4) % 8, cy = (plane.offsetY + 4) % 8;
  const calBlocksX = Math.floor((width - cx) / 8), calBlocksY = Math.floor((height - cy) / 8);
  const calSample = sampleBlocks(calBlocksX * calBlocksY, SAMPLE_BLOCKS);
  const calibration = luma
    ? blockDct(luma, width, height, cx, cy, calSample)
    : { ...blockDct(jpegLumaBlocks(image, cx, cy, calBlocksX, calSample), 8, 8 * calSample.length), blocksX: calBlocksX, blocksY: calBlocksY, offsetX: cx, offsetY: cy, sampled: calSample };
  const llr = new Float64Array(blocks);
  let used = 0, alphaSum = 0;
  const firstSteps: number[] = [];
  const columns = plane.sampled ? undefined : frequencyColumns(plane, freqs.filter((k) => steps[k]! >= 2));
  let column = 0;
  for (const k of freqs) {
    const q2 = steps[k]!;
    if (q2 < 2) continue;
    const values = columns ? columns[column++]! : frequencyValues(plane, k);
    const h = binHistogram(values, q2, HALF_BINS);
    const single = binHistogram(frequencyValues(calibration, k, calSample), q2, HALF_BINS, 0.5);
    const fit = fitFirstStep(h, single, q2, o.maxFirstStep, o.sigma, o.minGain);
    if (fit.q1 === 0) continue;
    used++;
    alphaSum += fit.alpha;
    firstSteps.push(fit.q1);
    const clamped = fit.logRatio.map((l) => (l > o.clamp ? o.clamp : l < -o.clamp ? -o.clamp : l));
    for (let b = 0; b < blocks; b++) {
      const x = Math.round(values[b]! / q2);
      if (x < -HALF_BINS || x > HALF_BINS) continue;
      llr[b]! += clamped[x + HALF_BINS]!;
    }
  }
  const pooled = o.radius > 0 ? boxMean(llr, plane.blocksX, plane.blocksY, o.radius) : llr;
  // A loop, not Float32Array.from with a map function (which V8 runs through the iterator protocol, 5x slower).
  const probability = new Float32Array(pooled.length);
  for (let b = 0; b < pooled.length; b++) probability[b] = 1 / (1 + Math.exp(pooled[b]!));
  const cells = blocksToCells(probability, plane, width, height);
  const score = used === 0 ? 0 : largestOutlierRegion(cells.data, cells.width, cells.height, 2, false, 0.05);
  return {
    maps: [{ name: 'adq-single-probability', data: cells.data, width: cells.width, height: cells.height, cellSize: 8, displayRange: [0, 1] }],
    stats: {
      offsetX: plane.offsetX, offsetY: plane.offsetY, frequenciesUsed: used, meanAlpha: used ? alphaSum / used : 0,
      fromFile: dct ? 1 : 0, firstStepDc1: firstSteps[0] ?? 0,
    },
    score,
  };
}
