export { alignPair } from './alignPair.js';
export type { Alignment } from './alignPair.js';
export { Bm25Index } from './bm25.js';
export {
  CALIBRATED_CLASSES, calibratedProbabilities, calibratedVerdict, chooseVerdict, hasConflict, loadVerdictCalibration, passageConflicts,
  VERDICT_FEATURES, verdictFeatures,
} from './calibratedVerdict.js';
export type { CalibratedDecision, CalibrationPassage, EvidenceStance, PassageConflicts, VerdictCalibration } from './calibratedVerdict.js';
export type { Bm25Options } from './bm25.js';
export { checkFacts, findCheckableClaims, gatherClaimEvidence, judgeClaims } from './checkFacts.js';
export type { CheckableClaims, CheckFactsOptions, FactCheckClaim, FactCheckResult, FindClaimsOptions, GatheredClaims } from './checkFacts.js';
export {
  CHECK_WORTHINESS_CUE_FEATURES, CHECK_WORTHINESS_FEATURE_COUNT, checkWorthinessFeatures,
} from './checkWorthinessFeatures.js';
export { decideVerdict } from './decideVerdict.js';
export type { ScoredPassage, VerdictDecision, VerdictThresholds } from './decideVerdict.js';
export { detectLanguage } from './detectLanguage.js';
export { ENTAILMENT_FEATURE_COUNT, ENTAILMENT_FEATURES, entailmentFeatures } from './entailmentFeatures.js';
export { encodeTokens, entailmentTokens, MAX_CLAIM_TOKENS, MAX_EVIDENCE_TOKENS, TOKEN_INPUT_WIDTH } from './entailmentTokens.js';
export { InvalidArgumentError, ModelLoadError, SearchProviderError } from './errors.js';
export { EvidenceStore, retrievalTerms } from './evidenceStore.js';
export type { EvidenceDocument, EvidencePassage, EvidenceStoreOptions } from './evidenceStore.js';
export { explainVerdict } from './explainVerdict.js';
export type { CalibratedEvidence, ExplainedEvidence } from './explainVerdict.js';
export { extractClaims, notAClaim } from './extractClaims.js';
export type { ExtractClaimsOptions, ExtractedClaim } from './extractClaims.js';
export { extractEntities } from './extractEntities.js';
export type { Entity } from './extractEntities.js';
export { extractNumbers, sameQuantity } from './extractNumbers.js';
export type { Quantity } from './extractNumbers.js';
export { EvidenceGatherer } from './gatherEvidence.js';
export type { GatherEvidenceOptions, GatheredEvidence } from './gatherEvidence.js';
export { DEFAULT_ENTAILMENT_MODEL, judgeClaim, scorePassages, VERDICT_DEFAULTS } from './judgeClaim.js';
export type { ClaimJudgement, EntailmentModelVersion, JudgeClaimOptions, ScoredEvidence, VerdictRule } from './judgeClaim.js';
export { hasCue, isFirstPerson, isNegated, isOpinion, LANGUAGE_CUES, languageCues } from './languageCues.js';
export type { LanguageCues } from './languageCues.js';
export { loadNeuralEntailment } from './neuralEntailment.js';
export type { NeuralEntailmentModel, NeuralEntailmentPair, OnnxSessionRunner } from './neuralEntailment.js';
export { FACT_CHECK_LANGUAGES, isFactCheckLanguage } from './languages.js';
export type { FactCheckLanguage } from './languages.js';
export { loadModel, modelPath } from './onnxModel.js';
export type { BundledModel, ProbabilityModel } from './onnxModel.js';
export { resolveClaim } from './resolveClaim.js';
export type { WebSearchOptions, WebSearchProvider } from './searchProvider.js';
export { segmentSentences } from './segmentSentences.js';
export type { Sentence } from './segmentSentences.js';
export { tokenize } from './tokenize.js';
export type { Token } from './tokenize.js';
export { CLAIM_VERDICTS } from './verdicts.js';
export type { ClaimVerdict } from './verdicts.js';
export { cosine, loadWordVectors } from './wordVectors.js';
export type { WordVectors, WordVectorsOptions } from './wordVectors.js';
