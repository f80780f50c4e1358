import { clopperPearsonUpper, maxExceedances } from './fprBound.js';
import type { ProfileBucket } from './calibrationProfile.js';

/** One scored range of a human text: its length in canonical characters and the raw output (higher = machine). */
export interface ScoredRange {
  chars: number;
  raw: number;
}

/** Options of `calibrateThresholds`. */
export interface CalibrateThresholdsOptions {
  /**
   * Largest false-positive rate to promise, in (0, 1).
   */
  targetFpr: number;
  /**
   * Probability over the human sample with which each bucket's bound holds.
   * @default 0.95
   */
  confidence?: number;
  /**
   * Lower ends of the length buckets, ascending, starting at 0.
   * @default DEFAULT_PROFILE_BUCKETS
   */
  bucketChars?: readonly number[];
}

/**
 * Length buckets of a profile: sentence windows (250 characters and up) fall in the first two, documents in the rest.
 */
export const DEFAULT_PROFILE_BUCKETS: readonly number[] = Object.freeze([0, 300, 600, 1200, 2400]);
export const DEFAULT_PROFILE_CONFIDENCE = 0.95;

/** The leading-window lengths to score every human text at, so that each bucket gets one range per text. */
export function profileWindowChars(bucketChars: readonly number[] = DEFAULT_PROFILE_BUCKETS): number[] {
  return bucketChars.map((min) => (min === 0 ? 200 : min));
}

/**
 * Sets a threshold per length bucket from human texts, each given as its scored ranges (the whole text first, then
 * leading parts). Each text gives a bucket at most one range (the whole text when its length falls there, else its
 * shortest leading part that does), so a bucket's ranges are as independent as the texts. In a bucket of n ranges
 * the threshold is the (n - j)-th smallest raw output, j the most ranges that may lie above it while the
 * Clopper-Pearson bound at `confidence` stays at most `targetFpr` (`fprBound.ts`). A bucket with too few ranges for
 * the target (299 for 1% at 95%) takes the threshold of the nearest bucket that has enough (shorter first) and states
 * the bound its own ranges give. Returns no buckets when none has enough.
 */
export function calibrateThresholds(texts: readonly (readonly ScoredRange[])[], options: CalibrateThresholdsOptions): ProfileBucket[] {
  const confidence = options.confidence ?? DEFAULT_PROFILE_CONFIDENCE;
  const bucketChars = options.bucketChars ?? DEFAULT_PROFILE_BUCKETS;
  checkBuckets(bucketChars);
  const byBucket: number[][] = bucketChars.map(() => []);
  for (const ranges of texts) {
    const taken = new Set<number>();
    for (const range of ranges) {
      const k = bucketOf(range.chars, bucketChars);
      if (taken.has(k) || !Number.isFinite(range.raw)) continue;
      taken.add(k);
      byBucket[k]!.push(range.raw);
    }
  }
  const own = byBucket.map((raws) => {
    const sorted = Float64Array.from(raws).sort();
    const j = maxExceedances(sorted.length, options.targetFpr, confidence);
    return { sorted, j, threshold: j < 0 ? undefined : sorted[sorted.length - 1 - j]! };
  });
  const calibrated = own.flatMap((b, k) => (b.threshold === undefined ? [] : [k]));
  if (calibrated.length === 0) return [];
  return own.map(({ sorted, j, threshold }, k) => {
    const from = threshold === undefined ? nearest(k, calibrated) : k;
    const t = own[from]!.threshold!;
    const exceedances = threshold === undefined ? countAbove(sorted, t) : j;
    const fprBound = clopperPearsonUpper(exceedances, sorted.length, confidence);
    return {
      min_chars: bucketChars[k]!,
      n_human: sorted.length,
      threshold: t,
      scale: spread(sorted.length >= 2 ? sorted : own[from]!.sorted),
      exceedances,
      fpr_bound: fprBound,
      meets_target: fprBound <= options.targetFpr,
      ...(from === k ? {} : { inherited_from: bucketChars[from]! }),
    };
  });
}

function checkBuckets(bucketChars: readonly number[]): void {
  if (bucketChars.length === 0 || bucketChars[0] !== 0) throw new RangeError('Expected bucketChars to start at 0');
  for (let k = 1; k < bucketChars.length; k++) {
    if (!Number.isSafeInteger(bucketChars[k]) || bucketChars[k]! <= bucketChars[k - 1]!) {
      throw new RangeError(`Expected ascending integers for bucketChars but received ${bucketChars.join(', ')}`);
    }
  }
}

function bucketOf(chars: number, bucketChars: readonly number[]): number {
  let k = 0;
  while (k + 1 < bucketChars.length && chars >= bucketChars[k + 1]!) k++;
  return k;
}

// The calibrated bucket closest to k, the shorter one on a tie (short texts score higher, so its threshold is safer).
function nearest(k: number, calibrated: readonly number[]): number {
  let best = calibrated[0]!;
  for (const c of calibrated) if (Math.abs(c - k) < Math.abs(best - k) || (Math.abs(c - k) === Math.abs(best - k) && c < best)) best = c;
  return best;
}

function countAbove(sorted: Float64Array, threshold: number): number {
  let count = 0;
  for (const v of sorted) if (v > threshold) count++;
  return count;
}

// Standard deviation of human outputs: the width of the score's sigmoid (as the model cards' calibration).
function spread(values: Float64Array): number {
  if (values.length < 2) return 1;
  let mean = 0;
  for (const v of values) mean += v / values.length;
  let sum = 0;
  for (const v of values) sum += (v - mean) ** 2;
  const sd = Math.sqrt(sum / (values.length - 1));
  return sd > 0 ? sd : 1;
}
