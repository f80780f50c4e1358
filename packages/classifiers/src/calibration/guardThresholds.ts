import { clopperPearsonUpper } from './fprBound.js';
import { DEFAULT_PROFILE_BUCKETS, DEFAULT_PROFILE_CONFIDENCE } from './calibrateThresholds.js';
import type { ScoredRange } from './calibrateThresholds.js';
import type { ProfileBucket } from './calibrationProfile.js';

/** A human text of a named source (domain), as its scored ranges: the whole text first, then leading parts. */
export interface SourcedRanges {
  source: string;
  ranges: readonly ScoredRange[];
}

/** Options of `guardThresholds`. */
export interface GuardThresholdsOptions {
  /** Largest false-positive rate to allow each source, in (0, 1). */
  sourceFpr: number;
  /**
   * Sources with fewer ranges than this in a bucket do not raise it.
   * @default 25
   */
  minSource?: number;
  /** @default 0.95 (the confidence the pooled bound is restated at) */
  confidence?: number;
  /** @default DEFAULT_PROFILE_BUCKETS */
  bucketChars?: readonly number[];
}

/** A source's split-conformal threshold in one bucket. */
export interface SourceThreshold {
  n: number;
  /** 1-based rank of the threshold among the source's n ranges. */
  rank: number;
  threshold: number;
  /** (n + 1 - rank) / (n + 1): the chance that a new text exchangeable with the source's lies above the threshold. */
  bound: number;
}

/** Buckets raised by `guardThresholds`, and each source's thresholds per bucket (keyed by the bucket's min_chars). */
export interface GuardedThresholds {
  buckets: (ProfileBucket & { set_by: string })[];
  sources: Record<string, Record<number, SourceThreshold>>;
}

/**
 * Raises a profile's thresholds so that no human source (domain) is flagged more than `sourceFpr` in expectation:
 * per length bucket, to the split-conformal quantile of each source with at least `minSource` ranges there, the
 * k-th smallest of its n ranges with k = ceil((n + 1)(1 - sourceFpr)) (the largest when k > n). A new text
 * exchangeable with that source's texts lies above it with probability at most (n + 1 - k) / (n + 1) (Vovk,
 * Gammerman & Shafer 2005; Angelopoulos & Bates 2021, arXiv 2107.07511, section 1): at most sourceFpr once
 * n >= 1 / sourceFpr - 1, else 1 / (n + 1). A pooled bound alone does not give this: a source with a tenth of the
 * texts may sit at ten times the pooled rate. Each text gives a bucket one range, as `calibrateThresholds`; the
 * bucket's exceedances and Clopper-Pearson bound are restated at the raised threshold (over every source's ranges),
 * and `meets_target` against `targetFpr`, the pooled target the buckets were made for.
 */
export function guardThresholds(
  texts: readonly SourcedRanges[],
  buckets: readonly ProfileBucket[],
  targetFpr: number,
  options: GuardThresholdsOptions,
): GuardedThresholds {
  const bucketChars = options.bucketChars ?? DEFAULT_PROFILE_BUCKETS;
  const confidence = options.confidence ?? DEFAULT_PROFILE_CONFIDENCE;
  const minSource = options.minSource ?? 25;
  if (!(options.sourceFpr > 0 && options.sourceFpr < 1)) throw new RangeError(`Expected sourceFpr in (0, 1) but received ${options.sourceFpr}`);
  if (buckets.length !== bucketChars.length || buckets.some((b, k) => b.min_chars !== bucketChars[k])) {
    throw new RangeError('Expected the buckets of the same bucketChars');
  }
  const perBucket = bucketChars.map(() => new Map<string, number[]>());
  for (const text of texts) {
    const taken = new Set<number>();
    for (const range of text.ranges) {
      let k = 0;
      while (k + 1 < bucketChars.length && range.chars >= bucketChars[k + 1]!) k++;
      if (taken.has(k) || !Number.isFinite(range.raw)) continue;
      taken.add(k);
      const bySource = perBucket[k]!;
      const values = bySource.get(text.source) ?? [];
      values.push(range.raw);
      bySource.set(text.source, values);
    }
  }
  const sources: Record<string, Record<number, SourceThreshold>> = {};
  const raised = buckets.map((bucket, k) => {
    let threshold = bucket.threshold;
    let setBy = 'pooled';
    const all: number[] = [];
    for (const [source, values] of perBucket[k]!) {
      all.push(...values);
      if (values.length < minSource) continue;
      const sorted = Float64Array.from(values).sort();
      const n = sorted.length;
      // The small epsilon keeps an exact integer product (n + 1)(1 - sourceFpr) from rounding up by float error.
      const rank = Math.min(n, Math.ceil((n + 1) * (1 - options.sourceFpr) - 1e-9));
      const q = sorted[rank - 1]!;
      (sources[source] ??= {})[bucket.min_chars] = { n, rank, threshold: q, bound: (n + 1 - rank) / (n + 1) };
      if (q > threshold) [threshold, setBy] = [q, source];
    }
    const exceedances = all.filter((v) => v > threshold).length;
    const fprBound = all.length === 0 ? bucket.fpr_bound : clopperPearsonUpper(exceedances, all.length, confidence);
    return {
      ...bucket, threshold, exceedances: all.length === 0 ? bucket.exceedances : exceedances, fpr_bound: fprBound,
      meets_target: fprBound <= targetFpr, set_by: setBy,
    };
  });
  return { buckets: raised, sources };
}
