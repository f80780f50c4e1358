// The guarded shipped calibration (training/v32/calibrate.mjs, training/v32/compare.mjs): per length bucket, the
// pooled Clopper-Pearson threshold (calibrateThresholds, the rule of `content-analysis calibrate ai-text`) raised to
// every human domain's split-conformal quantile (guardThresholds, src/calibration/guardThresholds.ts).
import { calibrateThresholds, DEFAULT_PROFILE_BUCKETS, guardThresholds } from '../../dist/index.js';

/**
 * @param {{domain: string, ranges: {chars: number, raw: number}[]}[]} human scored human texts (whole text first)
 * @returns {{buckets: object[], domains: object}}
 */
export function guardedBuckets(human, { pooledTarget, domainTarget, confidence = 0.95, minDomain = 25, bucketChars = DEFAULT_PROFILE_BUCKETS }) {
  const pooled = calibrateThresholds(human.map((h) => h.ranges), { targetFpr: pooledTarget, confidence, bucketChars });
  if (pooled.length === 0) throw new Error('too few human texts for the pooled target');
  const { buckets, sources } = guardThresholds(human.map((h) => ({ source: h.domain, ranges: h.ranges })), pooled, pooledTarget, {
    sourceFpr: domainTarget, minSource: minDomain, confidence, bucketChars,
  });
  return { buckets, domains: sources };
}
