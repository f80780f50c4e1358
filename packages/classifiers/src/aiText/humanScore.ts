import type { CalibrationBucket } from '../runtime/modelCard.js';

/**
 * Maps the model's raw output to the human score 0..100 for a text of `chars` canonical characters:
 * `100 * sigmoid(2 * (threshold - raw) / scale)` with the threshold and spread of held-apart human text of that
 * length. 50 is the decision threshold, where about 0.5% of human text of that length falls below.
 */
export function humanScore(raw: number, chars: number, buckets: readonly CalibrationBucket[]): number {
  return scoreOfLogit(humanLogit(raw, chars, buckets));
}

/** The log-odds behind `humanScore`: `2 * (threshold - raw) / scale` of the text's length bucket (0 = score 50). */
export function humanLogit(raw: number, chars: number, buckets: readonly CalibrationBucket[]): number {
  let bucket = buckets[0];
  for (const b of buckets) if (chars >= b.min_chars) bucket = b;
  if (bucket === undefined) throw new RangeError('model card has no calibration buckets');
  return (2 * (bucket.threshold - raw)) / bucket.scale;
}

/** `100 * sigmoid(logit)`. */
export function scoreOfLogit(logit: number): number {
  return 100 / (1 + Math.exp(-logit));
}

/** Human score below which a text is reported as machine-generated. */
export const HUMAN_SCORE_THRESHOLD = 50;
