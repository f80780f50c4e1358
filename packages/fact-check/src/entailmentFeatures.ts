import type { Alignment } from './alignPair.js';

/** Names of the entailment features, in vector order (the model card lists the same). */
export const ENTAILMENT_FEATURES = [
  'wordOverlap', 'evidenceCoverage', 'bigramOverlap', 'meanBestSimilarity', 'minBestSimilarity', 'unalignedRatio',
  'substitutionRatio', 'maxSubstitutionSimilarity', 'sentenceSimilarity', 'claimHasNumbers', 'numbersMatched',
  'numberMismatch', 'claimHasYears', 'yearMismatch', 'entityCount', 'entitiesMatched', 'entityMissing',
  'claimNegated', 'evidenceNegated', 'negationMismatch', 'oppositeComparison', 'logClaimLength', 'logEvidenceLength',
  'lengthRatio', 'noContent',
  // 1.2.0: WordNet relations, negation scope, quantifiers and hedges, approximate numbers and units, soft coverage.
  'antonymPair', 'synonymRatio', 'generalisedRatio', 'specialisedRatio', 'softCoverage', 'scopedNegationRatio',
  'scopedNegationAny', 'quantifierMismatch', 'claimHedged', 'evidenceHedged', 'numbersApproximate', 'unitMismatch',
] as const;

export const ENTAILMENT_FEATURE_COUNT = ENTAILMENT_FEATURES.length;

/** The entailment model's input for one claim / evidence pair, from their {@link Alignment}. */
export function entailmentFeatures(alignment: Alignment): Float32Array {
  const a = alignment;
  const n = a.claimWords.length;
  const similarities = a.bestSimilarities;
  const ratio = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
  return Float32Array.from([
    ratio(a.matchedWords.length, n),
    a.evidenceCoverage,
    a.bigramOverlap,
    n === 0 ? 0 : similarities.reduce((s, x) => s + x, 0) / n,
    n === 0 ? 0 : Math.min(...similarities),
    ratio(a.unalignedWords.length, n),
    ratio(a.substitutions.length, n),
    a.substitutions.reduce((m, s) => Math.max(m, s.similarity), 0),
    a.sentenceSimilarity,
    a.claimNumbers.length > 0 ? 1 : 0,
    a.claimNumbers.length === 0 ? 0 : ratio(a.matchedNumbers.length, a.claimNumbers.length),
    a.mismatchedNumbers.length > 0 ? 1 : 0,
    a.claimYears.length > 0 ? 1 : 0,
    a.mismatchedYears.length > 0 ? 1 : 0,
    Math.min(3, a.claimEntities.length) / 3,
    a.claimEntities.length === 0 ? 1 : ratio(a.matchedEntities.length, a.claimEntities.length),
    a.missingEntities.length > 0 ? 1 : 0,
    a.claimNegated ? 1 : 0,
    a.evidenceNegated ? 1 : 0,
    a.claimNegated !== a.evidenceNegated ? 1 : 0,
    a.oppositeComparisons.length > 0 ? 1 : 0,
    Math.log1p(a.claimLength) / 4,
    Math.log1p(a.evidenceLength) / 5,
    Math.min(4, ratio(a.evidenceLength, Math.max(1, a.claimLength))) / 4,
    n === 0 ? 1 : 0,
    a.antonyms.length > 0 ? 1 : 0,
    ratio(a.synonymWords.length, n),
    ratio(a.generalisedWords.length, n),
    ratio(a.specialisedWords.length, n),
    ratio(a.matchedWords.length + a.synonymWords.length + a.generalisedWords.length, n),
    ratio(a.scopedNegationMismatches.length, a.matchedWords.length),
    a.scopedNegationMismatches.length > 0 ? 1 : 0,
    a.quantifierMismatch ? 1 : 0,
    a.claimHedged ? 1 : 0,
    a.evidenceHedged ? 1 : 0,
    a.claimNumbers.length === 0 ? 0 : ratio(a.approximateNumbers.length, a.claimNumbers.length),
    a.unitMismatches.length > 0 ? 1 : 0,
  ]);
}
