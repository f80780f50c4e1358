import { CalibrationMismatchError, InvalidCalibrationProfileError } from '../errors.js';
import type { CalibrationBucket } from '../runtime/modelCard.js';

/** The `kind` every calibration profile carries, and the format version this runtime reads. */
export const CALIBRATION_PROFILE_KIND = 'content-analysis/calibration-profile';
export const CALIBRATION_PROFILE_FORMAT = 1;

/** The detector a profile was measured with: its scores mean nothing to another model or version. */
export interface CalibratedDetector {
  /** Model id in the registry (`ai-text`, or a custom model's id such as `custom:essays`). */
  model: string;
  /** Exact model version (never `latest`). */
  version: string;
  /** Optional content fingerprint of the model files; when both sides have one, they must be equal. */
  fingerprint?: string;
}

/** One length bucket of a deployment's calibration. */
export interface ProfileBucket extends CalibrationBucket {
  /** Human texts (or leading parts of longer ones, one per text) of this length the threshold was set on. */
  n_human: number;
  /** How many of them score above the threshold (flagged). */
  exceedances: number;
  /**
   * Upper bound, at the profile's confidence, on the share of human text of this length the threshold flags:
   * the Clopper-Pearson bound for `exceedances` of `n_human`.
   */
  fpr_bound: number;
  /** Whether `fpr_bound` is at most the profile's target. */
  meets_target: boolean;
  /** Set when the bucket had too few texts of its own and took the threshold of the bucket starting here. */
  inherited_from?: number;
}

/** A deployment's calibration: what a human score of 50 means, measured on its own human writing. */
export interface CalibrationProfile {
  kind: typeof CALIBRATION_PROFILE_KIND;
  format: typeof CALIBRATION_PROFILE_FORMAT;
  detector: CalibratedDetector;
  /** ISO 8601 time of creation. */
  created: string;
  /** False-positive rate asked for. */
  target_fpr: number;
  /** Probability, over the draw of the human sample, with which every bucket's `fpr_bound` holds. */
  confidence: number;
  /** The rule and bound used, in words. */
  method: string;
  /** Number of human texts read (before cutting into length buckets). */
  human_texts: number;
  /** Where the human texts came from (a file or folder name), as the caller described it. */
  source?: string;
  /** Ascending by `min_chars`, the first at 0. */
  buckets: ProfileBucket[];
}

/**
 * Checks that `value` (parsed JSON) is a calibration profile this runtime can apply and returns it typed. Throws
 * `InvalidCalibrationProfileError` naming the first problem and `origin` (a file name) when given.
 */
export function parseCalibrationProfile(value: unknown, origin = 'calibration profile'): CalibrationProfile {
  const fail = (problem: string): never => {
    throw new InvalidCalibrationProfileError(origin, problem);
  };
  if (!isRecord(value)) return fail(`expected a JSON object but received ${describe(value)}`);
  if (value.kind !== CALIBRATION_PROFILE_KIND) return fail(`kind must be "${CALIBRATION_PROFILE_KIND}" but is ${describe(value.kind)}`);
  if (value.format !== CALIBRATION_PROFILE_FORMAT) {
    return fail(`format ${describe(value.format)} is not readable by this version (reads ${CALIBRATION_PROFILE_FORMAT})`);
  }
  const detector = value.detector;
  if (!isRecord(detector) || !nonEmpty(detector.model) || !nonEmpty(detector.version)) {
    return fail('detector must be an object with a model id and a version');
  }
  if (detector.version === 'latest') return fail('detector.version must be an exact version, not latest');
  if (detector.fingerprint !== undefined && !nonEmpty(detector.fingerprint)) return fail('detector.fingerprint must be a non-empty string');
  const target = value.target_fpr;
  if (!isProbability(target)) return fail(`target_fpr must be a number in (0, 1) but is ${describe(target)}`);
  if (!isProbability(value.confidence)) return fail(`confidence must be a number in (0, 1) but is ${describe(value.confidence)}`);
  if (!nonEmpty(value.method)) return fail('method must say how the thresholds were set');
  if (typeof value.created !== 'string' || Number.isNaN(Date.parse(value.created))) return fail('created must be an ISO 8601 time');
  if (!Number.isSafeInteger(value.human_texts) || (value.human_texts as number) < 1) return fail('human_texts must be a positive integer');
  if (value.source !== undefined && typeof value.source !== 'string') return fail('source must be a string');
  const buckets = value.buckets;
  if (!Array.isArray(buckets) || buckets.length === 0) return fail('buckets must be a non-empty array');
  for (const [i, bucket] of (buckets as unknown[]).entries()) {
    const at = `buckets[${i}]`;
    if (!isRecord(bucket)) return fail(`${at} must be an object`);
    for (const key of ['min_chars', 'n_human', 'exceedances'] as const) {
      if (!Number.isSafeInteger(bucket[key]) || (bucket[key] as number) < 0) fail(`${at}.${key} must be a non-negative integer`);
    }
    if (!Number.isFinite(bucket.threshold)) fail(`${at}.threshold must be a finite number`);
    if (!(Number.isFinite(bucket.scale) && (bucket.scale as number) > 0)) fail(`${at}.scale must be a positive number`);
    if (!(typeof bucket.fpr_bound === 'number' && bucket.fpr_bound >= 0 && bucket.fpr_bound <= 1)) fail(`${at}.fpr_bound must be in [0, 1]`);
    if (typeof bucket.meets_target !== 'boolean') fail(`${at}.meets_target must be a boolean`);
    if (bucket.meets_target !== (bucket.fpr_bound as number) <= (target as number)) {
      fail(`${at}.meets_target contradicts its fpr_bound ${String(bucket.fpr_bound)} and target_fpr ${String(target)}`);
    }
    if ((bucket.exceedances as number) > (bucket.n_human as number)) fail(`${at}.exceedances exceeds its n_human`);
    if (bucket.inherited_from !== undefined && !Number.isSafeInteger(bucket.inherited_from)) fail(`${at}.inherited_from must be an integer`);
    if (i === 0 && bucket.min_chars !== 0) fail('buckets[0].min_chars must be 0 (every text length needs a bucket)');
    if (i > 0 && (bucket.min_chars as number) <= (buckets[i - 1] as { min_chars: number }).min_chars) {
      fail(`${at}.min_chars must be greater than the previous bucket's`);
    }
  }
  return value as unknown as CalibrationProfile;
}

/**
 * Throws `CalibrationMismatchError` unless `profile` was made with `detector` (same model id and version, and the
 * same fingerprint when both have one): another model's scores are on another scale.
 */
export function assertProfileFor(profile: CalibrationProfile, detector: CalibratedDetector): void {
  const made = profile.detector;
  const sameFingerprint = made.fingerprint === undefined || detector.fingerprint === undefined || made.fingerprint === detector.fingerprint;
  if (made.model !== detector.model || made.version !== detector.version || !sameFingerprint) {
    throw new CalibrationMismatchError(made, detector);
  }
}

/** Whether the profile promises its target in every length bucket. */
export function profileMeetsTarget(profile: CalibrationProfile): boolean {
  return profile.buckets.every((b) => b.meets_target);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function isProbability(value: unknown): value is number {
  return typeof value === 'number' && value > 0 && value < 1;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  return JSON.stringify(value)?.slice(0, 60) ?? String(value);
}
