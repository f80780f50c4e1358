import { alignPair, type Alignment } from './alignPair.js';
import { entailmentFeatures, ENTAILMENT_FEATURE_COUNT } from './entailmentFeatures.js';
import type { EvidencePassage } from './evidenceStore.js';
import { explainVerdict } from './explainVerdict.js';
import { loadModel } from './onnxModel.js';
import type { ClaimVerdict } from './verdicts.js';
import type { WordVectors } from './wordVectors.js';

/** A verdict on one claim with the evidence it rests on. */
export interface ClaimJudgement {
  verdict: ClaimVerdict;
  /** Estimated chance, 0..100, that the claim is accurate: 50 + 50 (p(entailment) - p(contradiction)) of the decisive passage; 50 without evidence. */
  score: number;
  explanation: string;
  links: Array<{ url: string; title: string }>;
  /** Entailment probabilities [entailment, neutral, contradiction] of the decisive passage, when there is one. */
  probabilities?: [number, number, number];
}

export interface JudgeClaimOptions {
  /**
   * A passage is relevant when at least this fraction of the claim's content words occur in it (by stem).
   * @default 0.34
   */
  minWordOverlap?: number;
  /**
   * p(entailment) or p(contradiction) needed for SUPPORTED or REFUTED.
   * @default 0.5
   */
  decisiveProbability?: number;
  /**
   * p(entailment) from which a claim is PARTIALLY_SUPPORTED.
   * @default 0.3
   */
  partialProbability?: number;
}

/**
 * Judges a claim against retrieved passages. Passages sharing too few content words with the claim are ignored;
 * with none left the verdict is NOT_ENOUGH_EVIDENCE (score 50). Otherwise the entailment model scores each relevant
 * passage: the strongest contradiction (p >= decisiveProbability, above the best entailment) refutes, the strongest
 * entailment supports (PARTIALLY_SUPPORTED when another passage contradicts with p >= partialProbability, or when
 * the entailment is only >= partialProbability), else NOT_ENOUGH_EVIDENCE.
 */
export async function judgeClaim(
  claim: string,
  passages: readonly EvidencePassage[],
  vectors: WordVectors,
  options: JudgeClaimOptions = {},
): Promise<ClaimJudgement> {
  const minWordOverlap = options.minWordOverlap ?? 0.34;
  const decisive = options.decisiveProbability ?? 0.5;
  const partial = options.partialProbability ?? 0.3;
  const aligned = passages.map((passage) => ({ passage, alignment: alignPair(claim, passage.text, vectors) }));
  const claimWords = aligned[0]?.alignment.claimWords ?? [];
  const relevant = aligned.filter(({ alignment }) => isRelevant(alignment, minWordOverlap));
  if (relevant.length === 0) {
    return { verdict: 'NOT_ENOUGH_EVIDENCE', score: 50, explanation: explainVerdict('NOT_ENOUGH_EVIDENCE', undefined, claimWords), links: [] };
  }
  const model = await loadModel('entailment');
  const probabilities = await model.run(relevant.map(({ alignment }) => entailmentFeatures(alignment)), ENTAILMENT_FEATURE_COUNT);
  const judged = relevant.map((r, i) => {
    const p = probabilities[i];
    return { ...r, p: [p?.[0] ?? 0, p?.[1] ?? 0, p?.[2] ?? 0] as [number, number, number] };
  });
  const bestSupport = judged.reduce((a, b) => (b.p[0] > a.p[0] ? b : a));
  const bestRefute = judged.reduce((a, b) => (b.p[2] > a.p[2] ? b : a));

  let verdict: ClaimVerdict;
  let decisivePassage = bestSupport;
  if (bestRefute.p[2] >= decisive && bestRefute.p[2] > bestSupport.p[0]) {
    verdict = 'REFUTED';
    decisivePassage = bestRefute;
  } else if (bestSupport.p[0] >= decisive) {
    verdict = bestRefute !== bestSupport && bestRefute.p[2] >= partial ? 'PARTIALLY_SUPPORTED' : 'SUPPORTED';
  } else if (bestSupport.p[0] >= partial) {
    verdict = 'PARTIALLY_SUPPORTED';
  } else {
    verdict = 'NOT_ENOUGH_EVIDENCE';
  }
  const [pE, , pC] = decisivePassage.p;
  const score = verdict === 'NOT_ENOUGH_EVIDENCE' ? 50 : Math.round(50 + 50 * (pE - pC));
  const used = verdict === 'NOT_ENOUGH_EVIDENCE' ? [decisivePassage] : [decisivePassage, ...judged.filter((j) => j !== decisivePassage && Math.max(j.p[0], j.p[2]) >= partial)];
  const links: ClaimJudgement['links'] = [];
  for (const { passage } of used) {
    if (!links.some((l) => l.url === passage.url)) links.push({ url: passage.url, title: passage.title });
  }
  return {
    verdict,
    score: Math.min(100, Math.max(0, score)),
    explanation: explainVerdict(verdict, { title: decisivePassage.passage.title, alignment: decisivePassage.alignment }, claimWords),
    links,
    probabilities: decisivePassage.p,
  };
}

function isRelevant(alignment: Alignment, minWordOverlap: number): boolean {
  const total = alignment.claimWords.length;
  if (total === 0) return false;
  const matched = alignment.matchedWords.length;
  return matched / total >= minWordOverlap && (matched >= 2 || total === 1);
}
