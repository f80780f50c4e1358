import { alignPair, type Alignment } from './alignPair.js';
import { calibratedVerdict, loadVerdictCalibration, type CalibratedDecision } from './calibratedVerdict.js';
import { decideVerdict, type VerdictThresholds } from './decideVerdict.js';
import { entailmentFeatures, ENTAILMENT_FEATURE_COUNT } from './entailmentFeatures.js';
import { entailmentTokens } from './entailmentTokens.js';
import type { EvidencePassage } from './evidenceStore.js';
import { explainVerdict } from './explainVerdict.js';
import { loadNeuralEntailment } from './neuralEntailment.js';
import { loadModel } from './onnxModel.js';
import type { ClaimVerdict } from './verdicts.js';
import type { WordVectors } from './wordVectors.js';

/** A verdict on one claim with the evidence it rests on. */
export interface ClaimJudgement {
  verdict: ClaimVerdict;
  /**
   * Estimated chance, 0..100, that the claim is accurate: 50 + 50 (p(entailment) - p(contradiction)) of a decisive
   * passage; for a vote, 50 + 50 (vote - the middle of the PARTIALLY_SUPPORTED band); 50 for NOT_ENOUGH_EVIDENCE.
   */
  score: number;
  explanation: string;
  links: Array<{ url: string; title: string }>;
  /** Entailment probabilities [entailment, neutral, contradiction] of the decisive passage, when there is one. */
  probabilities?: [number, number, number];
}

/**
 * Which entailment model scores the passages: `2.0` the neural model (decomposable attention over GloVe vectors plus
 * the alignment features, `models/entailment-neural.md`), `1.x` the MLP over the alignment features alone
 * (`models/entailment.md`). Each comes with its own verdict thresholds ({@link VERDICT_DEFAULTS}).
 */
export type EntailmentModelVersion = '2.0' | '1.x';

/**
 * The model used when `entailmentModel` is not given: 2.0 since 2.1.0, whose calibrated verdicts score better than
 * 1.x's on the calibration data (mean macro F1 of CLIMATE-FEVER dev and the FEVER calibration half, 0.530 vs 0.519;
 * `scripts/fact-check/calibrateVerdicts.mjs`); package README, Figures.
 */
export const DEFAULT_ENTAILMENT_MODEL: EntailmentModelVersion = '2.0';

/** Threshold defaults per model; the 2.0 values were chosen on the CLIMATE-FEVER dev split (`chooseThresholds.mjs`). */
export const VERDICT_DEFAULTS: Readonly<Record<EntailmentModelVersion, Readonly<Required<Omit<JudgeClaimOptions, 'entailmentModel' | 'verdictRule' | 'language'>>>>> = {
  '1.x': { minWordOverlap: 0.2, decisiveProbability: 0.5, partialProbability: 0.5, minVotingPassages: 2, refuteVoteBelow: -0.3, supportVoteFrom: -0.15, minStanceProbability: 0 },
  '2.0': { minWordOverlap: 0.2, decisiveProbability: 0.7, partialProbability: 0.7, minVotingPassages: 2, refuteVoteBelow: -0.6, supportVoteFrom: -0.35, minStanceProbability: 0.4 },
};

/**
 * How the passages' entailment probabilities become a verdict: `calibrated` (since 2.1.0) the calibrated claim-level
 * probabilities with the claim resolver's conflicts ({@link calibratedVerdict}); `thresholds` the decisive passage /
 * weighted vote of 2.0 and before ({@link decideVerdict}, the thresholds below).
 */
export type VerdictRule = 'calibrated' | 'thresholds';

export interface JudgeClaimOptions {
  /**
   * The entailment model that scores the passages.
   * @default DEFAULT_ENTAILMENT_MODEL
   */
  entailmentModel?: EntailmentModelVersion;
  /**
   * How the verdict is reached from the passages.
   * @default 'calibrated'
   */
  verdictRule?: VerdictRule;
  /**
   * Language of the claim (a code of `FACT_CHECK_LANGUAGES`): its negation cues for the claim resolver.
   * @default 'en'
   */
  language?: string;
  /**
   * A passage is relevant when at least this fraction of the claim's content words occur in it (by stem), and at
   * least two of them; other passages are not evidence.
   * @default 0.2 (both models)
   */
  minWordOverlap?: number;
  /**
   * p(entailment) or p(contradiction) with which one relevant passage alone decides SUPPORTED or REFUTED.
   * @default 0.5
   */
  decisiveProbability?: number;
  /**
   * A decisive support becomes PARTIALLY_SUPPORTED when another relevant passage contradicts with at least this p.
   * @default 0.5
   */
  partialProbability?: number;
  /**
   * Without a decisive passage, the relevant passages vote; fewer than this many give NOT_ENOUGH_EVIDENCE.
   * @default 2
   */
  minVotingPassages?: number;
  /**
   * The vote (mean of p(entailment) - p(contradiction), weighted by overlap x (1 - p(neutral))) refutes at or below
   * this value.
   * @default -0.3
   */
  refuteVoteBelow?: number;
  /**
   * Without a decisive passage, NOT_ENOUGH_EVIDENCE unless a relevant passage entails or contradicts with at least
   * this p (all of them on topic but neutral).
   * @default 0
   */
  minStanceProbability?: number;
  /**
   * The vote supports at or above this value; between the two the claim is PARTIALLY_SUPPORTED.
   * @default -0.15
   */
  supportVoteFrom?: number;
}

/**
 * Judges a claim against retrieved passages. Passages sharing too few content words with the claim are ignored;
 * with none left the verdict is NOT_ENOUGH_EVIDENCE (score 50). Otherwise the entailment model scores each relevant
 * passage and {@link decideVerdict} turns the probabilities into a verdict: one decisive passage (p >=
 * decisiveProbability) decides, else at least `minVotingPassages` passages vote, else NOT_ENOUGH_EVIDENCE.
 */
export async function judgeClaim(
  claim: string,
  passages: readonly EvidencePassage[],
  vectors: WordVectors,
  options: JudgeClaimOptions = {},
): Promise<ClaimJudgement> {
  const defaults = VERDICT_DEFAULTS[options.entailmentModel ?? DEFAULT_ENTAILMENT_MODEL];
  const thresholds: VerdictThresholds = {
    decisive: options.decisiveProbability ?? defaults.decisiveProbability,
    partial: options.partialProbability ?? defaults.partialProbability,
    minVotes: options.minVotingPassages ?? defaults.minVotingPassages,
    refuteBelow: options.refuteVoteBelow ?? defaults.refuteVoteBelow,
    supportFrom: options.supportVoteFrom ?? defaults.supportVoteFrom,
    minStance: options.minStanceProbability ?? defaults.minStanceProbability,
  };
  const { claimWords, judged } = await scorePassages(claim, passages, vectors, options);
  if (judged.length === 0) {
    return { verdict: 'NOT_ENOUGH_EVIDENCE', score: 50, explanation: explainVerdict('NOT_ENOUGH_EVIDENCE', undefined, claimWords), links: [] };
  }
  if ((options.verdictRule ?? 'calibrated') === 'calibrated') {
    const decision = calibratedVerdict(judged, loadVerdictCalibration(options.entailmentModel ?? DEFAULT_ENTAILMENT_MODEL));
    return calibratedJudgement(decision, judged, claimWords);
  }
  const { verdict, decisive, score } = decideVerdict(judged, thresholds);
  const decisivePassage = judged[decisive] ?? judged[0]!;
  const used = verdict === 'NOT_ENOUGH_EVIDENCE'
    ? [decisivePassage]
    : [decisivePassage, ...judged.filter((j) => j !== decisivePassage && Math.max(j.p[0], j.p[2]) >= thresholds.decisive)];
  const links: ClaimJudgement['links'] = [];
  for (const { passage } of used) {
    if (!links.some((l) => l.url === passage.url)) links.push({ url: passage.url, title: passage.title });
  }
  return {
    verdict,
    score,
    explanation: explainVerdict(verdict, { title: decisivePassage.passage.title, alignment: decisivePassage.alignment }, claimWords),
    links,
    probabilities: decisivePassage.p,
  };
}

/** The judgement of a calibrated decision: links to the passages that take the verdict's side. */
function calibratedJudgement(decision: CalibratedDecision, judged: readonly ScoredEvidence[], claimWords: string[]): ClaimJudgement {
  const decisivePassage = judged[decision.decisive] ?? judged[0]!;
  const side = (j: ScoredEvidence) => (decision.verdict === 'REFUTED' ? j.p[2] : j.p[0]);
  const used = decision.verdict === 'NOT_ENOUGH_EVIDENCE'
    ? [decisivePassage]
    : [decisivePassage, ...judged.filter((j) => j !== decisivePassage && side(j) >= 0.5)];
  const links: ClaimJudgement['links'] = [];
  for (const { passage } of used) {
    if (!links.some((l) => l.url === passage.url)) links.push({ url: passage.url, title: passage.title });
  }
  const [supported, refuted] = decision.probabilities;
  return {
    verdict: decision.verdict,
    score: decision.score,
    explanation: explainVerdict(decision.verdict, { title: decisivePassage.passage.title, alignment: decisivePassage.alignment }, claimWords, {
      supported,
      refuted,
      conflicts: decision.conflicts,
      unfound: unfoundWords(judged, claimWords),
    }),
    links,
    probabilities: decisivePassage.p,
  };
}

/** Claim content words that no relevant passage contains or paraphrases. */
function unfoundWords(judged: readonly ScoredEvidence[], claimWords: readonly string[]): string[] {
  const found = new Set(judged.flatMap((j) => [...j.alignment.matchedWords, ...j.alignment.substitutions.map((s) => s.claim), ...j.alignment.synonymWords, ...j.alignment.generalisedWords]));
  return [...new Set(claimWords.filter((w) => !found.has(w)))];
}

/** A relevant passage with its alignment and the entailment model's probabilities. */
export interface ScoredEvidence {
  passage: EvidencePassage;
  alignment: Alignment;
  /** Share of the claim's content words the passage contains. */
  overlap: number;
  /** [p(entailment), p(neutral), p(contradiction)]. */
  p: [number, number, number];
}

/**
 * The relevant passages of a claim (sharing at least `minWordOverlap` of its content words, and two of them), each
 * scored by the chosen entailment model; the first half of {@link judgeClaim}, exported so that the threshold
 * search scores each claim once.
 */
export async function scorePassages(
  claim: string,
  passages: readonly EvidencePassage[],
  vectors: WordVectors,
  options: Pick<JudgeClaimOptions, 'entailmentModel' | 'minWordOverlap' | 'language'> = {},
): Promise<{ claimWords: string[]; judged: ScoredEvidence[] }> {
  const version = options.entailmentModel ?? DEFAULT_ENTAILMENT_MODEL;
  const minWordOverlap = options.minWordOverlap ?? VERDICT_DEFAULTS[version].minWordOverlap;
  const aligned = passages.map((passage) => ({ passage, alignment: alignPair(claim, passage.text, vectors, options.language ?? 'en') }));
  const claimWords = aligned[0]?.alignment.claimWords ?? [];
  const relevant = aligned.filter(({ alignment }) => isRelevant(alignment, minWordOverlap));
  if (relevant.length === 0) return { claimWords, judged: [] };
  let probabilities: Float32Array[];
  if (version === '2.0') {
    const model = await loadNeuralEntailment();
    const claimTokens = entailmentTokens(claim, vectors);
    probabilities = await model.run(relevant.map(({ passage, alignment }) => ({
      claimTokens,
      evidenceTokens: entailmentTokens(passage.text, vectors),
      features: entailmentFeatures(alignment),
    })), vectors);
  } else {
    const model = await loadModel('entailment');
    probabilities = await model.run(relevant.map(({ alignment }) => entailmentFeatures(alignment)), ENTAILMENT_FEATURE_COUNT);
  }
  const judged = relevant.map((r, i) => {
    const p = probabilities[i];
    const overlap = r.alignment.matchedWords.length / Math.max(1, r.alignment.claimWords.length);
    return { ...r, overlap, p: [p?.[0] ?? 0, p?.[1] ?? 0, p?.[2] ?? 0] as [number, number, number] };
  });
  return { claimWords, judged };
}

function isRelevant(alignment: Alignment, minWordOverlap: number): boolean {
  const total = alignment.claimWords.length;
  if (total === 0) return false;
  const matched = alignment.matchedWords.length;
  return matched / total >= minWordOverlap && (matched >= 2 || total === 1);
}
