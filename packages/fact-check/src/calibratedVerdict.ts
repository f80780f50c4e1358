import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Alignment } from './alignPair.js';
import { CAUSALS, COMPARATIVES } from './cueWords.js';
import { ModelLoadError } from './errors.js';
import type { ClaimVerdict } from './verdicts.js';

/** A relevant passage as the calibrated verdict sees it: the entailment probabilities and the alignment. */
export interface CalibrationPassage {
  /** [p(entailment), p(neutral), p(contradiction)] of the entailment model. */
  p: readonly [number, number, number];
  /** Share of the claim's content words the passage contains. */
  overlap: number;
  alignment: Alignment;
}

/** What the claim resolver finds in one passage that a SUPPORTED verdict cannot stand with. */
export interface PassageConflicts {
  /** Claim years absent from a passage that states years. */
  years: number[];
  /** Claim figures absent from a passage that states figures (not those within 10%). */
  numbers: number[];
  /** The claim and the passage differ in negation (in the same clause, or across a passage of the claim's length). */
  negation: boolean;
  /** Claim names absent from a passage that shares at least half of the claim's words. */
  names: string[];
  /** Opposite comparisons or WordNet antonyms (`more` / `less`, `warming` / `cooling`). */
  opposites: Array<[string, string]>;
  /** Comparison and cause words of the claim (`faster`, `caused`) that the passage neither states nor paraphrases. */
  unstated: string[];
}

/** The conflicts of one aligned passage (see {@link PassageConflicts}). */
export function passageConflicts(a: Alignment, overlap: number): PassageConflicts {
  const negation = a.scopedNegationMismatches.length > 0
    || (a.claimNegated !== a.evidenceNegated && a.evidenceLength <= 2.5 * Math.max(1, a.claimLength));
  return {
    years: [...a.mismatchedYears],
    numbers: a.mismatchedNumbers.filter((n) => !a.approximateNumbers.includes(n)),
    negation,
    names: overlap >= 0.5 ? [...a.missingEntities] : [],
    opposites: [...a.oppositeComparisons, ...a.antonyms],
    unstated: a.claimWords.filter((w) => (COMPARATIVES.has(w) || CAUSALS.has(w)) && !a.matchedWords.includes(w)
      && !a.synonymWords.includes(w) && !a.generalisedWords.includes(w)),
  };
}

/** Whether a passage's conflicts rule out SUPPORTED (unstated comparison and cause words only when `unstated`). */
export function hasConflict(c: PassageConflicts, unstated = true): boolean {
  return c.years.length > 0 || c.numbers.length > 0 || c.negation || c.names.length > 0 || c.opposites.length > 0 || (unstated && c.unstated.length > 0);
}

/** A conflict of figures, dates, negation or opposites: the passage, on topic, says something else. */
function hasHardConflict(c: PassageConflicts): boolean {
  return c.years.length > 0 || c.numbers.length > 0 || c.negation || c.opposites.length > 0;
}

/** Names of the claim-level features the calibration reads, in vector order (the model card lists the same). */
export const VERDICT_FEATURES = [
  'maxEntailment', 'maxContradiction', 'meanNeutral', 'vote', 'passageCount', 'maxOverlap', 'supportConflict',
  'cleanMaxEntailment', 'onTopicConflict', 'bestOverlapEntailment', 'bestOverlapContradiction', 'mixedStance',
  'claimHedged', 'supportNameConflict',
  // 2.2.0: how the passages agree (top-2 means, counts of passages that take a side, both sides at once), the
  // overlap-weighted stance, the wording of the best-supporting passage and how many passages conflict.
  'secondEntailment', 'secondContradiction', 'meanEntailment', 'meanContradiction', 'supportingShare',
  'contradictingShare', 'bothSides', 'weightedEntailment', 'weightedContradiction', 'minMargin',
  'supportBigramOverlap', 'supportSimilarity', 'supportUnaligned', 'supportQuantifierOrSpecific', 'conflictShare',
  'evidenceHedged',
] as const;

/** Index of the passage with the highest `value`. */
function argmax<T>(items: readonly T[], value: (item: T) => number): number {
  let best = 0;
  items.forEach((item, i) => {
    if (value(item) > value(items[best]!)) best = i;
  });
  return best;
}

/** The claim-level features of the relevant passages of a claim (at least one). */
export function verdictFeatures(passages: readonly CalibrationPassage[]): Float64Array {
  const conflicts = passages.map((s) => passageConflicts(s.alignment, s.overlap));
  const support = argmax(passages, (s) => s.p[0]);
  const overlapBest = argmax(passages, (s) => s.overlap + 1e-3 * s.p[0]);
  const maxE = passages[support]!.p[0];
  const maxC = Math.max(...passages.map((s) => s.p[2]));
  let sum = 0;
  let weight = 0;
  for (const s of passages) {
    const w = Math.max(s.overlap * (1 - s.p[1]), 1e-6);
    sum += w * (s.p[0] - s.p[2]);
    weight += w;
  }
  const clean = passages.filter((_, i) => !hasConflict(conflicts[i]!)).map((s) => s.p[0]);
  const n = passages.length;
  const second = (values: number[]): number => (values.length > 1 ? [...values].sort((a, b) => b - a)[1]! : 0);
  const entail = passages.map((s) => s.p[0]);
  const contra = passages.map((s) => s.p[2]);
  const supporting = entail.filter((p, i) => p >= 0.5 && p > contra[i]!).length;
  const contradicting = contra.filter((p, i) => p >= 0.5 && p > entail[i]!).length;
  let overlapSum = 0;
  let weightedE = 0;
  let weightedC = 0;
  for (const s of passages) {
    overlapSum += s.overlap;
    weightedE += s.overlap * s.p[0];
    weightedC += s.overlap * s.p[2];
  }
  const best = passages[support]!.alignment;
  return Float64Array.from([
    maxE,
    maxC,
    passages.reduce((s, x) => s + x.p[1], 0) / passages.length,
    sum / weight,
    Math.log1p(passages.length) / Math.log(6),
    passages[overlapBest]!.overlap,
    hasConflict(conflicts[support]!) ? 1 : 0,
    clean.length > 0 ? Math.max(...clean) : 0,
    passages.some((s, i) => s.overlap >= 0.5 && hasHardConflict(conflicts[i]!)) ? 1 : 0,
    passages[overlapBest]!.p[0],
    passages[overlapBest]!.p[2],
    maxE * maxC,
    passages[0]!.alignment.claimHedged ? 1 : 0,
    conflicts[support]!.names.length > 0 ? 1 : 0,
    second(entail),
    second(contra),
    entail.reduce((a, b) => a + b, 0) / n,
    contra.reduce((a, b) => a + b, 0) / n,
    supporting / n,
    contradicting / n,
    supporting > 0 && contradicting > 0 ? 1 : 0,
    weightedE / Math.max(overlapSum, 1e-6),
    weightedC / Math.max(overlapSum, 1e-6),
    Math.min(...passages.map((s) => s.p[0] - s.p[2])),
    best.bigramOverlap,
    best.sentenceSimilarity,
    best.unalignedWords.length / Math.max(1, best.claimWords.length),
    best.quantifierMismatch || best.specialisedWords.length > 0 ? 1 : 0,
    conflicts.filter((c) => hasHardConflict(c)).length / n,
    passages.some((s) => s.alignment.evidenceHedged) ? 1 : 0,
  ]);
}

/** The classes of the calibration, in the order of its weights. */
export const CALIBRATED_CLASSES = ['SUPPORTED', 'REFUTED', 'NOT_ENOUGH_EVIDENCE', 'PARTIALLY_SUPPORTED'] as const satisfies readonly ClaimVerdict[];

/**
 * A multinomial logistic regression from {@link verdictFeatures} to the probability of each verdict, fitted on
 * labelled claims apart from every evaluation (`scripts/fact-check/calibrateVerdicts.mjs`, `models/verdict-calibration.md`).
 */
export interface VerdictCalibration {
  features: readonly string[];
  /** Feature standardisation: (x - mean) / scale. */
  mean: readonly number[];
  scale: readonly number[];
  /** One row of weights per class of {@link CALIBRATED_CLASSES}. */
  weights: ReadonlyArray<readonly number[]>;
  bias: readonly number[];
  /** SUPPORTED, REFUTED or PARTIALLY_SUPPORTED only with at least this calibrated probability (chosen on the calibration data). */
  minProbability: number;
  /**
   * Per class, the weight of its probability when the verdict is chosen (a cost-sensitive decision: the most
   * probable class after weighting), chosen on the calibration data; the probabilities themselves stay calibrated.
   */
  decisionWeights: readonly number[];
  /** Whether comparison and cause words the supporting passage does not state rule out SUPPORTED (chosen on the calibration data). */
  blockUnstated: boolean;
  /**
   * Since 1.2.0 of the calibration: the evidence disputes the claim (PARTIALLY_SUPPORTED) when one relevant passage
   * entails it with at least `minEntailment` and one contradicts it with at least `minContradiction` (entailment
   * model probabilities); thresholds chosen on the out-of-fold calibration data, absent or null when the rule is off.
   */
  disputed?: { minEntailment: number; minContradiction: number } | null;
}

/** The strongest sides the relevant passages take: the highest entailment and contradiction probabilities. */
export interface EvidenceStance {
  maxEntailment: number;
  maxContradiction: number;
}

let calibrations: Record<string, VerdictCalibration> | undefined;

/** The bundled calibration of an entailment model's output (`models/verdict-calibration.json`, read once). */
export function loadVerdictCalibration(entailmentModel: string): VerdictCalibration {
  if (!calibrations) {
    const path = fileURLToPath(new URL('../models/verdict-calibration.json', import.meta.url));
    try {
      calibrations = (JSON.parse(readFileSync(path, 'utf8')) as { models: Record<string, VerdictCalibration> }).models;
    } catch (error) {
      throw new ModelLoadError('verdict-calibration', error);
    }
  }
  const calibration = calibrations[entailmentModel];
  if (!calibration || calibration.features.join() !== VERDICT_FEATURES.join()) {
    throw new ModelLoadError('verdict-calibration', new Error(`no calibration with the current features for entailment ${entailmentModel}`));
  }
  return calibration;
}

/** Calibrated probabilities of {@link CALIBRATED_CLASSES} for one feature vector. */
export function calibratedProbabilities(features: ArrayLike<number>, c: VerdictCalibration): number[] {
  const logits = c.weights.map((row, k) => row.reduce((sum, w, j) => sum + w * (((features[j] ?? 0) - (c.mean[j] ?? 0)) / (c.scale[j] || 1)), c.bias[k] ?? 0));
  const top = Math.max(...logits);
  const exp = logits.map((l) => Math.exp(l - top));
  const total = exp.reduce((a, b) => a + b, 0);
  return exp.map((e) => e / total);
}

/** A calibrated verdict with what it rests on. */
export interface CalibratedDecision {
  verdict: ClaimVerdict;
  /** Calibrated probabilities of SUPPORTED, REFUTED, NOT_ENOUGH_EVIDENCE, PARTIALLY_SUPPORTED. */
  probabilities: [number, number, number, number];
  /** Index of the passage the explanation rests on. */
  decisive: number;
  /** Its conflicts; when they are set, the claim was not allowed to be SUPPORTED. */
  conflicts: PassageConflicts;
  /**
   * Whether a conflict of the supporting passage decided: a SUPPORTED turned into REFUTED or NOT_ENOUGH_EVIDENCE, or
   * (since 2.2.0) a REFUTED under the minimum probability kept because the passage states another year, figure,
   * negation or opposite.
   */
  blocked: boolean;
  /**
   * 0..100: the calibrated chance that the claim is accurate, P(SUPPORTED) + P(PARTIALLY_SUPPORTED) / 2 (when a
   * conflict refutes, 50 (1 - P(SUPPORTED) - P(REFUTED))); 50 for NOT_ENOUGH_EVIDENCE.
   */
  score: number;
}

/**
 * The verdict from calibrated probabilities: the most probable class (after the calibration's `decisionWeights`);
 * SUPPORTED, REFUTED or PARTIALLY_SUPPORTED only when its probability reaches `minProbability`, otherwise
 * NOT_ENOUGH_EVIDENCE. The claim resolver's conflicts decide against
 * SUPPORTED in every language: when the passage that supports best states another year or figure, the opposite
 * negation or comparison, or does not name the claim's names, the claim is REFUTED if the evidence takes a side
 * (P(SUPPORTED) + P(REFUTED) reaches `minProbability`) through a conflict of figures, dates, negation or opposites,
 * and NOT_ENOUGH_EVIDENCE otherwise. When the calibration's `disputed` rule is set and one passage entails the claim
 * while another contradicts it (both at least at its thresholds), the verdict is PARTIALLY_SUPPORTED: the evidence
 * takes both sides.
 */
export function calibratedVerdict(passages: readonly CalibrationPassage[], calibration: VerdictCalibration): CalibratedDecision {
  const probabilities = calibratedProbabilities(verdictFeatures(passages), calibration) as [number, number, number, number];
  const support = argmax(passages, (s) => s.p[0]);
  const refute = argmax(passages, (s) => s.p[2] - s.p[0]);
  const stance = { maxEntailment: passages[support]!.p[0], maxContradiction: Math.max(...passages.map((s) => s.p[2])) };
  const { verdict, blocked } = chooseVerdict(probabilities, passageConflicts(passages[support]!.alignment, passages[support]!.overlap), calibration, stance);
  const decisive = verdict === 'REFUTED' && !blocked ? refute : support;
  const [pS, pR, , pD] = probabilities;
  return {
    verdict,
    probabilities,
    decisive,
    conflicts: passageConflicts(passages[decisive]!.alignment, passages[decisive]!.overlap),
    blocked,
    score: verdict === 'NOT_ENOUGH_EVIDENCE' ? 50 : verdict === 'REFUTED' && blocked ? Math.round(50 * (1 - pS - pR)) : Math.round(100 * (pS + pD / 2)),
  };
}

/**
 * The decision of {@link calibratedVerdict} from the calibrated probabilities and the conflicts of the passage that
 * supports best (exported so that the calibration script can search its settings quickly).
 */
export function chooseVerdict(
  probabilities: readonly [number, number, number, number],
  supportConflicts: PassageConflicts,
  calibration: Pick<VerdictCalibration, 'minProbability' | 'decisionWeights' | 'blockUnstated' | 'disputed'>,
  stance?: EvidenceStance,
): { verdict: ClaimVerdict; blocked: boolean } {
  const [pS, pR, pN, pD] = probabilities;
  const dispute = calibration.disputed;
  if (dispute && stance && stance.maxEntailment >= dispute.minEntailment && stance.maxContradiction >= dispute.minContradiction) {
    return { verdict: 'PARTIALLY_SUPPORTED', blocked: false };
  }
  const [wS, wR, wN, wD] = [0, 1, 2, 3].map((k) => calibration.decisionWeights[k] ?? 1) as [number, number, number, number];
  const min = calibration.minProbability;
  const top = Math.max(wS * pS, wR * pR, wD * pD);
  if (wN * pN >= top) return { verdict: 'NOT_ENOUGH_EVIDENCE', blocked: false };
  if (wS * pS === top) {
    if (!hasConflict(supportConflicts, calibration.blockUnstated)) return { verdict: pS >= min ? 'SUPPORTED' : 'NOT_ENOUGH_EVIDENCE', blocked: false };
    const sided = pS + pR >= min && hasHardConflict(supportConflicts);
    return { verdict: sided ? 'REFUTED' : 'NOT_ENOUGH_EVIDENCE', blocked: true };
  }
  if (wR * pR === top) {
    if (pR >= min) return { verdict: 'REFUTED', blocked: false };
    // Under the minimum, a year, figure, negation or opposite that the supporting passage states otherwise refutes
    // when the evidence takes a side (the same rule as a turned-down SUPPORTED).
    const sided = pS + pR >= min && hasHardConflict(supportConflicts);
    return { verdict: sided ? 'REFUTED' : 'NOT_ENOUGH_EVIDENCE', blocked: sided };
  }
  return { verdict: pD >= min ? 'PARTIALLY_SUPPORTED' : 'NOT_ENOUGH_EVIDENCE', blocked: false };
}
