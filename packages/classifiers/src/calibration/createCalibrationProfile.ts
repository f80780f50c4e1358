import { createHash } from 'node:crypto';
import { InsufficientHumanTextError } from '../errors.js';
import { CALIBRATION_PROFILE_FORMAT, CALIBRATION_PROFILE_KIND } from './calibrationProfile.js';
import type { CalibratedDetector, CalibrationProfile } from './calibrationProfile.js';
import { calibrateThresholds, DEFAULT_PROFILE_BUCKETS, DEFAULT_PROFILE_CONFIDENCE, profileWindowChars } from './calibrateThresholds.js';
import type { CalibrateThresholdsOptions, ScoredRange } from './calibrateThresholds.js';
import { minimumSample } from './fprBound.js';

/**
 * What a calibration needs of a detector: which one it is, and its raw output (higher = machine) on a text and on
 * the text's leading parts cut at `windowChars` (whole text first). `createAiTextScorer` is one; a custom model's
 * scorer is another.
 */
export interface CalibrationScorer {
  detector: CalibratedDetector;
  /**
   * Raw outputs of the whole text, then of its leading parts of at least each of `windowChars` characters. `skip`:
   * a reason the detector would refuse the text (length, language), and it is left out.
   */
  score(text: string, windowChars: readonly number[]): Promise<{ ranges: ScoredRange[] } | { skip: string }>;
}

/** Options of `createCalibrationProfile`. */
export interface CreateCalibrationProfileOptions extends CalibrateThresholdsOptions {
  /**
   * Where the texts came from, recorded in the profile (a file or folder name).
   * @default undefined
   */
  source?: string;
  /**
   * Creation time recorded in the profile.
   * @default new Date()
   */
  now?: Date;
}

/** What a calibration left out, by reason, beside the profile. */
export interface CalibrationOutcome {
  profile: CalibrationProfile;
  /** Texts read, texts used, and texts left out by reason (`duplicate`, and the scorer's reasons). */
  read: number;
  used: number;
  skipped: Record<string, number>;
}

/**
 * Scores a deployment's human texts with `scorer` and sets its thresholds (`calibrateThresholds`). Exact duplicate
 * texts count once (the bound needs independent texts). Throws `InsufficientHumanTextError` when no length bucket
 * has enough texts for the target.
 */
export async function createCalibrationProfile(
  texts: Iterable<string> | AsyncIterable<string>,
  scorer: CalibrationScorer,
  options: CreateCalibrationProfileOptions,
): Promise<CalibrationOutcome> {
  const confidence = options.confidence ?? DEFAULT_PROFILE_CONFIDENCE;
  const bucketChars = options.bucketChars ?? DEFAULT_PROFILE_BUCKETS;
  minimumSample(options.targetFpr, confidence); // checks both
  const windows = profileWindowChars(bucketChars);
  const seen = new Set<string>();
  const scored: ScoredRange[][] = [];
  const skipped: Record<string, number> = {};
  let read = 0;
  for await (const text of texts) {
    read++;
    const digest = createHash('sha256').update(text).digest('base64');
    if (seen.has(digest)) {
      skipped.duplicate = (skipped.duplicate ?? 0) + 1;
      continue;
    }
    seen.add(digest);
    const outcome = await scorer.score(text, windows);
    if ('skip' in outcome) skipped[outcome.skip] = (skipped[outcome.skip] ?? 0) + 1;
    else if (outcome.ranges.length > 0) scored.push(outcome.ranges);
  }
  const buckets = calibrateThresholds(scored, { ...options, confidence, bucketChars });
  if (buckets.length === 0) {
    throw new InsufficientHumanTextError(scored.length, minimumSample(options.targetFpr, confidence), options.targetFpr, confidence);
  }
  const profile: CalibrationProfile = {
    kind: CALIBRATION_PROFILE_KIND,
    format: CALIBRATION_PROFILE_FORMAT,
    detector: { ...scorer.detector },
    created: (options.now ?? new Date()).toISOString(),
    target_fpr: options.targetFpr,
    confidence,
    method: PROFILE_METHOD,
    human_texts: scored.length,
    ...(options.source === undefined ? {} : { source: options.source }),
    buckets,
  };
  return { profile, read, used: scored.length, skipped };
}

/** The profile's `method`, in words. */
export const PROFILE_METHOD =
  'order statistic with a Clopper-Pearson bound: per length bucket, each human text gives one score (the whole text, ' +
  'or its leading part of that length); with n scores, the threshold is the (n-j)-th smallest, j the largest count ' +
  'for which the exact binomial (Clopper-Pearson) upper bound on the false-positive rate at the stated confidence is ' +
  'at most target_fpr; fpr_bound is that bound. It holds for human texts drawn independently from the same source ' +
  'as the calibration texts; a bucket with meets_target false had too few texts and took a neighbour\'s threshold.';
