import { CHROMA_CONVENTIONS, type ChromaConvention } from './chromaPlane.js';
import { conventionVotes } from './conventionVotes.js';
import { foldVotes } from './dwtDctBlockBits.js';
import { WATERMARK_PAYLOADS, type WatermarkPayload } from './payloads.js';

/** Options of {@link decodeInvisibleWatermark}. */
export interface DecodeInvisibleWatermarkOptions {
  /**
   * Largest chance probability of the matched bits (binomial tail, p = 1/2 per bit) that still counts as a
   * detection. 1e-5 means 39/48 bits for SDXL, 28/32 for SD2, 40/46 for FLUX, 85/136 for SD1; with 16 tests per
   * image (4 payloads x 4 pixel conventions) the chance of a false alarm on random bits stays under 2e-4.
   * @default 1e-5
   */
  maxChanceProbability?: number;
  /**
   * Quantisation step of the mark in the U-channel DWT-DCT domain (invisible-watermark `scales=[0,36,36]`).
   * @default 36
   */
  scale?: number;
}

/** One payload read under one pixel convention. */
export interface WatermarkMatch {
  payload: WatermarkPayload['id'];
  issuer: string;
  convention: ChromaConvention;
  matchedBits: number;
  totalBits: number;
  /** Probability that random bits match at least this well. */
  chanceProbability: number;
}

/** What the pixel decoder found: every payload's best convention, and those over the threshold. */
export interface InvisibleWatermarkResult {
  /**
   * Per payload, the convention whose reading is least likely by chance (lowest `chanceProbability`, then most bits
   * matched, then the first convention). A reading whose bits are all, or all but two, equal carries no mark and has
   * chance 1, so it is best only when no convention reads better. That is the rule on large photos without a mark:
   * each payload bit averages thousands of block votes, whose rate sits below the fold's 127/255 on natural images
   * (a low-chroma U plane gives coefficients near 2 x 128 = 256, 4 mod 36, in 8 bits and near 1 in float32: both vote
   * 0), so every bit folds to 0 and each payload reads as its count of zeros (sd1 68/136, sd2 19/32, sdxl 21/48, flux
   * 18/46) at chance 1, the same for every such photo (`test/watermark.test.ts`, the 12 MP camera photos).
   */
  best: WatermarkMatch[];
  /** The best readings with `chanceProbability` at most the threshold: what counts as a decoded mark. */
  detections: WatermarkMatch[];
}

/**
 * Decodes the `dwtDct` invisible watermark of Stable Diffusion 1/2, SDXL and FLUX from interleaved 8-bit RGB(A)
 * pixels (at least 256x256 for a meaningful answer). Pure and synchronous.
 */
export function decodeInvisibleWatermark(
  pixels: Uint8Array,
  width: number,
  height: number,
  channels: number,
  options: DecodeInvisibleWatermarkOptions = {},
): InvisibleWatermarkResult {
  const threshold = options.maxChanceProbability ?? 1e-5;
  const scale = options.scale ?? 36;
  if (!(threshold > 0 && threshold < 1)) throw new RangeError(`Expected a probability in (0, 1) for maxChanceProbability but received ${threshold}`);
  if (!(scale > 0)) throw new RangeError(`Expected a positive number for scale but received ${scale}`);
  const best = new Map<WatermarkPayload['id'], WatermarkMatch>();
  // The votes of chromaPlane + dwtDctBlockBits under every convention, from one pass over the pixels.
  const allVotes = conventionVotes(pixels, width, height, channels, scale);
  for (const convention of CHROMA_CONVENTIONS) {
    const votes = allVotes[convention];
    if (votes.length === 0) continue;
    for (const payload of WATERMARK_PAYLOADS) {
      const bits = foldVotes(votes, payload.bits.length);
      let ones = 0;
      let matched = 0;
      for (let i = 0; i < bits.length; i++) {
        ones += bits[i]!;
        if (bits[i] === payload.bits[i]) matched++;
      }
      // A flat chroma plane decodes to (nearly) constant bits; that is not a mark, whatever it matches.
      const constant = ones <= 2 || ones >= bits.length - 2;
      const match: WatermarkMatch = {
        payload: payload.id,
        issuer: payload.issuer,
        convention,
        matchedBits: matched,
        totalBits: bits.length,
        chanceProbability: constant ? 1 : binomialTail(bits.length, matched),
      };
      // Ranked by chance, not by bits matched: a constant reading (chance 1) may match more bits than an informative
      // one (it matches the payload's count of zeros or ones) but says nothing, so it must not stand for the payload.
      const previous = best.get(payload.id);
      if (!previous || moreTelling(match, previous)) best.set(payload.id, match);
    }
  }
  const all = [...best.values()];
  return { best: all, detections: all.filter((m) => m.chanceProbability <= threshold) };
}

/** Whether `a` is less likely by chance than `b`, or as likely with more bits matched (ties keep the earlier). */
function moreTelling(a: WatermarkMatch, b: WatermarkMatch): boolean {
  if (a.chanceProbability !== b.chanceProbability) return a.chanceProbability < b.chanceProbability;
  return a.matchedBits > b.matchedBits;
}

/** P(X >= k) for X ~ Binomial(n, 1/2), exact in log space. */
export function binomialTail(n: number, k: number): number {
  let total = 0;
  for (let i = k; i <= n; i++) total += Math.exp(logChoose(n, i) - n * Math.LN2);
  return Math.min(1, total);
}

function logChoose(n: number, k: number): number {
  let sum = 0;
  for (let i = 1; i <= k; i++) sum += Math.log(n - k + i) - Math.log(i);
  return sum;
}
