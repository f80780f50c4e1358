import type { ClaimVerdict } from './verdicts.js';

/** One relevant passage as the verdict sees it. */
export interface ScoredPassage {
  /** Entailment probabilities [entailment, neutral, contradiction]. */
  p: readonly [number, number, number];
  /** Share of the claim's content words the passage contains (0..1): its weight in the vote. */
  overlap: number;
}

export interface VerdictThresholds {
  /** p(entailment) or p(contradiction) with which one passage alone decides. */
  decisive: number;
  /** A decisive support is PARTIALLY_SUPPORTED when another passage contradicts with at least this p. */
  partial: number;
  /** Without a decisive passage, fewer relevant passages than this give NOT_ENOUGH_EVIDENCE. */
  minVotes: number;
  /** Mean of p(entailment) - p(contradiction), weighted by overlap x (1 - p(neutral)), at or below which the vote refutes. */
  refuteBelow: number;
  /** ... and at or above which it supports; in between, PARTIALLY_SUPPORTED. */
  supportFrom: number;
  /**
   * Without a decisive passage, NOT_ENOUGH_EVIDENCE unless some passage has p(entailment) or p(contradiction) at
   * least this high (every passage is on topic but neutral). 0 (the 1.x setting) never applies.
   */
  minStance?: number;
}

export interface VerdictDecision {
  verdict: ClaimVerdict;
  /** Index of the passage the explanation rests on. */
  decisive: number;
  /** 0..100, see `judgeClaim`. */
  score: number;
}

/**
 * The verdict from the relevant passages' entailment probabilities. One passage that entails or contradicts with
 * p >= `decisive` decides (the stronger side wins). Otherwise the passages vote: the mean of p(entailment) -
 * p(contradiction), each passage weighted by its overlap times 1 - p(neutral). The vote's thresholds sit below zero because the model, trained with neutral
 * FEVER passages, gives a related but non-committal passage more contradiction than entailment mass; they were
 * chosen on a documented dev split (`scripts/fact-check/chooseThresholds.mjs`).
 */
export function decideVerdict(passages: readonly ScoredPassage[], t: VerdictThresholds): VerdictDecision {
  if (passages.length === 0) return { verdict: 'NOT_ENOUGH_EVIDENCE', decisive: -1, score: 50 };
  const argmax = (value: (s: ScoredPassage) => number) =>
    passages.reduce((best, s, i) => (value(s) > value(passages[best]!) ? i : best), 0);
  const support = argmax((s) => s.p[0]);
  const refute = argmax((s) => s.p[2]);
  const pE = passages[support]!.p[0];
  const pC = passages[refute]!.p[2];
  const passageScore = (i: number) => 50 + 50 * (passages[i]!.p[0] - passages[i]!.p[2]);
  if (pC >= t.decisive && pC > pE) return { verdict: 'REFUTED', decisive: refute, score: clampScore(passageScore(refute)) };
  if (pE >= t.decisive) {
    const verdict = refute !== support && pC >= t.partial ? 'PARTIALLY_SUPPORTED' : 'SUPPORTED';
    return { verdict, decisive: support, score: clampScore(passageScore(support)) };
  }
  if (passages.length < t.minVotes || Math.max(pE, pC) < (t.minStance ?? 0)) {
    return { verdict: 'NOT_ENOUGH_EVIDENCE', decisive: support, score: 50 };
  }
  let sum = 0;
  let weight = 0;
  for (const s of passages) {
    // A passage counts by how much of the claim it covers and by how far the model finds it on topic (1 - p(neutral)):
    // a related but non-committal passage should not outvote one that takes a side.
    const w = Math.max(s.overlap * (1 - s.p[1]), 1e-6);
    sum += w * (s.p[0] - s.p[2]);
    weight += w;
  }
  const vote = sum / weight;
  // The score centres the PARTIALLY_SUPPORTED band on 50, so SUPPORTED scores above 50 and REFUTED below.
  const score = clampScore(50 + 50 * (vote - (t.refuteBelow + t.supportFrom) / 2));
  const margin = argmax((s) => s.p[0] - s.p[2]);
  const against = argmax((s) => s.p[2] - s.p[0]);
  if (vote <= t.refuteBelow) return { verdict: 'REFUTED', decisive: against, score };
  if (vote >= t.supportFrom) return { verdict: 'SUPPORTED', decisive: margin, score };
  return { verdict: 'PARTIALLY_SUPPORTED', decisive: margin, score };
}

function clampScore(score: number): number {
  return Math.min(100, Math.max(0, Math.round(score)));
}
