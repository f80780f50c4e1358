import { blockDct, blocksToCells, jpegLuma, ZIGZAG } from '../jpeg/blockDct.js';
import { estimateStep, frequencyValues, sampleBlocks } from '../jpeg/quantisationSteps.js';
import { largestOutlierRegion } from '../internal/outlierRegion.js';
import { medianFloat64InPlace } from '../internal/stats.js';
import type { KernelResult, PixelBuffer } from '../types.js';
import { expectIntegerInRange, expectMinimumSize, expectNumberInRange, expectPixelBuffer } from '../validate.js';

export interface NonAlignedDoubleQuantisationOptions {
  /**
   * Frequencies used, in zig-zag order from the DC.
   * @default 10
   */
  frequencies?: number;
  /**
   * Blocks sampled per candidate grid when searching for the first compression's grid.
   * @default 4096
   */
  searchBlocks?: number;
  /**
   * Mean lattice fit (0..1) the best shifted grid needs over the median shift to count as found.
   * @default 0.05
   */
  minContrast?: number;
  /**
   * Per-coefficient log-likelihood ratio clamp.
   * @default 2
   */
  clamp?: number;
}

export const nonAlignedDoubleQuantisationDefaults: Readonly<Required<NonAlignedDoubleQuantisationOptions>> = Object.freeze({
  frequencies: 10, searchBlocks: 4096, minContrast: 0.05, clamp: 2,
});

/** Largest first step looked for on a shifted grid. */
const MAX_STEP = 40;
/** Blocks the first steps and their spreads are estimated from (all blocks when fewer). */
const FIT_BLOCKS = 40_000;

/**
 * Non-aligned double JPEG compression (NA-DQ) map, after Bianchi and Piva 2012 (IEEE TIFS 7(3)): an image whose
 * first compression had another 8x8 grid (it was cropped, or the region was pasted off the grid) keeps, on that grid,
 * DCT coefficients near multiples of the first steps. On a sample of blocks per grid shift, the mean chance-corrected
 * lattice fit of the first frequencies (`estimateStep`) gives the last grid (the best fit) and the first (the best of
 * the 49 shifts that share no axis with the last, if it stands out from their median); on it, each
 * block's log-likelihood ratio of "on the lattice" (wrapped distance d to the nearest multiple, Gaussian of the robust
 * spread of d) against "uniform" (1 / q1) is summed. Map `nadq-absent-probability` = 1 / (1 + e^L), the probability
 * that a block lacks the first grid; uniform 0.5 with stat `found` 0 when no shifted grid stands out.
 */
export function nonAlignedDoubleQuantisation(image: PixelBuffer, options: NonAlignedDoubleQuantisationOptions = {}): KernelResult {
  expectPixelBuffer('image', image);
  expectMinimumSize('image', image, 32);
  const o = { ...nonAlignedDoubleQuantisationDefaults, ...options };
  expectIntegerInRange('frequencies', o.frequencies, 1, 64);
  expectIntegerInRange('searchBlocks', o.searchBlocks, 64, 1 << 24);
  expectNumberInRange('minContrast', o.minContrast, 0, 1);
  expectNumberInRange('clamp', o.clamp, 0, 100);
  const { width, height } = image;
  const luma = jpegLuma(image);
  const freqs = ZIGZAG.slice(0, o.frequencies);
  // Lattice fit of every grid shift on a sample of its blocks. The last compression's grid fits best (its
  // coefficients are multiples of the steps up to rounding); blocking alone can point at a coarser first grid.
  const fits = new Float64Array(64);
  for (let s = 0; s < 64; s++) {
    const sx = s & 7, sy = s >> 3;
    const total = Math.floor((width - sx) / 8) * Math.floor((height - sy) / 8);
    const sample = sampleBlocks(total, o.searchBlocks);
    const plane = blockDct(luma, width, height, sx, sy, sample);
    let sum = 0;
    for (const k of freqs) sum += estimateStep(frequencyValues(plane, k, sample), sample.length, MAX_STEP, 0).fit;
    fits[s] = sum / freqs.length;
  }
  let lastShift = 0;
  for (let s = 1; s < 64; s++) if (fits[s]! > fits[lastShift]!) lastShift = s;
  const last = { offsetX: lastShift & 7, offsetY: lastShift >> 3 };
  let best = -1, bestFit = -Infinity;
  for (let s = 0; s < 64; s++) {
    // A shift that keeps one axis of the last grid still sees that axis's quantisation in the frequencies along it.
    if ((s & 7) === last.offsetX || s >> 3 === last.offsetY) continue;
    if (fits[s]! > bestFit) { bestFit = fits[s]!; best = s; }
  }
  const others = Float64Array.from(fits.filter((_, s) => (s & 7) !== last.offsetX && s >> 3 !== last.offsetY));
  const contrast = bestFit - medianFloat64InPlace(others, others.length);
  const sx = best & 7, sy = best >> 3;
  const found = contrast >= o.minContrast;
  // Without a first grid the map is uniform: the full-size DCT is computed only when there is one.
  const plane = found
    ? blockDct(luma, width, height, sx, sy)
    : { blocksX: Math.floor((width - sx) / 8), blocksY: Math.floor((height - sy) / 8), offsetX: sx, offsetY: sy };
  const blocks = plane.blocksX * plane.blocksY;
  const llr = new Float64Array(blocks);
  let used = 0;
  if ('coefficients' in plane) {
    // Steps and spreads from at most FIT_BLOCKS blocks spread over the image (all of them below 2.6 MP).
    const fitSample = sampleBlocks(blocks, FIT_BLOCKS);
    for (const k of freqs) {
      const values = frequencyValues(plane, k);
      const sampled = frequencyValues(plane, k, fitSample);
      const { step: q1 } = estimateStep(sampled, sampled.length, MAX_STEP);
      if (q1 < 2) continue;
      const d = new Float64Array(sampled.length);
      let m = 0;
      for (let i = 0; i < sampled.length; i++) {
        const c = sampled[i]!;
        if (Math.abs(c) < q1 / 2) continue;
        d[m++] = Math.abs(c - q1 * Math.round(c / q1));
      }
      if (m < 24) continue;
      const sigma = Math.max(0.3, 1.4826 * medianFloat64InPlace(d, m));
      if (sigma > q1 / 3) continue;
      used++;
      const norm = Math.log(q1 / (Math.sqrt(2 * Math.PI) * sigma));
      for (let b = 0; b < blocks; b++) {
        const c = values[b]!;
        if (Math.abs(c) < q1 / 2) continue;
        const e = c - q1 * Math.round(c / q1);
        const l = norm - (e * e) / (2 * sigma * sigma);
        llr[b]! += l > o.clamp ? o.clamp : l < -o.clamp ? -o.clamp : l;
      }
    }
  }
  const probability = new Float32Array(llr.length);
  for (let b = 0; b < llr.length; b++) probability[b] = 1 / (1 + Math.exp(llr[b]!));
  const cells = blocksToCells(probability, plane, width, height);
  const score = used === 0 ? 0 : largestOutlierRegion(cells.data, cells.width, cells.height, 2, false, 0.05);
  return {
    maps: [{ name: 'nadq-absent-probability', data: cells.data, width: cells.width, height: cells.height, cellSize: 8, displayRange: [0, 1] }],
    stats: { found: used > 0 ? 1 : 0, shiftX: sx, shiftY: sy, gridContrast: contrast, frequenciesUsed: used, lastOffsetX: last.offsetX, lastOffsetY: last.offsetY },
    score,
  };
}
