export { analysisMode, Engine } from './engine.js';
export type { AnalyseOptions, AnalysisOptions, EngineOptions, ExecuteOptions, ExecuteOutcome, RunOutcome } from './engine.js';
export type { FeatureId, FeatureRequest, FeatureResult, FeatureTypes, RunResult } from './featureTypes.js';
export type { AnalysisOffload, OffloadOptions } from './offload.js';
export { AnalysisPool, analysisWorkerFilename, DEFAULT_MAX_QUEUE, defaultAnalysisThreads, sharedAnalysisPool } from './pool/analysisPool.js';
export type { AnalysisPoolOptions } from './pool/analysisPool.js';
export { inThreadRunner, pooledRunner } from './pool/analysisRunner.js';
export type { AnalysisRunner } from './pool/analysisRunner.js';
export {
  AnalysisTaskError,
  ApiError,
  ADVANCED_ERROR,
  DEFAULT_DESCRIPTION,
  HTTP_STATUS_OF,
  badRequest,
  toAdvancedErrorBody,
  toApiError,
} from './errors.js';
export type { ApiErrorCode, ErrorBody } from './errors.js';
export { ADVANCED_CREDITS, CAMEL_CASE_CREDITS, SNAKE_CASE_CREDITS, defineFeature } from './feature.js';
export type { AnalysisPlan, CliBinding, CreditFieldNames, Feature, FeatureContext, ToolBinding } from './feature.js';
export { FeatureRegistry } from './registry.js';
export {
  advancedImageDetectionFeature, aiContentDetectionFeature, builtinFeatures, factCheckerFeature, imageDetectionFeature, plagiarismFeature,
  plagiarismV1Feature, textCompareFeature,
} from './features/index.js';
export type { EngineServices, EngineServicesOptions } from './services.js';
export { callerError } from './callerError.js';
export { documentInputError } from './inputs/textInput.js';
export { ReadInputs } from './inputs/readInputs.js';
export type { HandedInputs } from './inputs/readInputs.js';
export { validateRequest } from './validate.js';
export { fetchRemote } from './remote.js';
export { openApiDocument } from './openapi.js';
export type { OpenApiOptions } from './openapi.js';
export { REQUEST_SCHEMAS, RESULT_SCHEMAS, toJsonSchema } from './jsonSchema.js';
export { FACT_CHECK_LANGUAGES, IMAGE_MODEL_VERSIONS, PLAGIARISM_LANGUAGES } from './languages.js';
/** The model folder (models/ai-image/<folder>) an image detection version answers with: version 5, the default, is model 9. */
export { aiImageModelFolder } from '@content-analysis/classifiers';
export type { FactCheckLanguage, ImageModelVersion, PlagiarismLanguage } from './languages.js';
export {
  MAX_IMAGE_BYTES,
  MIN_IMAGE_DIMENSION,
  TEXT_BOUNDS,
  advancedImageDetectionRequest,
  aiContentDetectionRequest,
  factCheckerRequest,
  imageDetectionRequest,
  plagiarismRequest,
  plagiarismV1Request,
  textCompareRequest,
} from './schemas/requests.js';
export type {
  AdvancedImageDetectionRequest,
  AiContentDetectionRequest,
  FactCheckerRequest,
  ImageDetectionRequest,
  PlagiarismRequest,
  PlagiarismV1Request,
  TextCompareRequest,
} from './schemas/requests.js';
export {
  ADVANCED_TOOL_IDS,
  CLAIM_VERDICTS,
  advancedImageDetectionResult,
  aiContentDetectionResult,
  aiWatermarkIssuers,
  c2paObject,
  exifObject,
  factCheckerResult,
  imageDetectionResult,
  metadataObject,
  plagiarismResult,
  plagiarismSource,
  plagiarismV1Result,
  textCompareResult,
} from './schemas/results.js';
export type {
  AdvancedImageDetectionResult,
  AiContentDetectionResult,
  FactCheckerResult,
  ImageDetectionResult,
  PlagiarismResult,
  PlagiarismV1Result,
  TextCompareResult,
} from './schemas/results.js';
export type { TextInput } from './schemas/common.js';
export { ADVANCED_KERNELS, analyzeImageAuthenticity } from './advanced/analyzeImageAuthenticity.js';
export type { AuthenticityOptions, AuthenticityReport } from './advanced/analyzeImageAuthenticity.js';
export { advancedReportFigures, advancedReportHtml, metadataRows } from './advanced/advancedReport.js';
export type { ReportableAnalysis } from './advanced/advancedReport.js';
export { decide } from './advanced/decide.js';
export type { Decision } from './advanced/decide.js';
export type { ToolReport } from './advanced/toolReports.js';
export { classifyImageReport, classifyOutcome } from './advanced/classifyImageTool.js';
export type { ClassificationOutcome } from './advanced/classifyImageTool.js';
export { detectAiImage, imageFieldError } from './image/detectAiImage.js';
export { PixelBudget, processPixelBudget } from './image/pixelBudget.js';
export type { PixelBudgetOptions } from './image/pixelBudget.js';
export type { DetectAiImageOptions, ImageDetectionAnalysis } from './image/detectAiImage.js';
export { defaultImageClassifier } from './image/defaultImageClassifier.js';
export { AI_IMAGE_SCORE_THRESHOLD, likelyAiGenerated } from './image/likelyAiGenerated.js';
export { provenanceEvidence } from './provenance/provenanceEvidence.js';
export type { ProvenanceEvidence, ProvenanceKind } from './provenance/provenanceEvidence.js';
export { AI_PROBABILITY_FLOOR, applyProvenance } from './provenance/applyProvenance.js';
export type { ProvenanceOutcome } from './provenance/applyProvenance.js';
export { withAiTextCalibration } from './pool/calibratedRunner.js';
export {
  calibrateAiText, CalibrationMismatchError, DEFAULT_PROFILE_CONFIDENCE, InsufficientHumanTextError,
  InvalidCalibrationProfileError, parseCalibrationProfile, profileMeetsTarget,
} from '@content-analysis/classifiers';
export type { CalibrateAiTextOptions, CalibrationOutcome, CalibrationProfile, ProfileBucket } from '@content-analysis/classifiers';
export { checkDeclaredLanguage, contradictedLanguage } from './inputs/declaredLanguage.js';
// Plugged models (EngineOptions.customModels) are loaded with the classifiers package's registry.
export {
  assertProfileFor, createCalibrationProfile, customCalibrationScorer, CustomModelError, CustomModels, isCustomVersion,
  parseModelSpec, profileTextCalibration,
} from '@content-analysis/classifiers';
export type { CustomModel, CustomModelsOptions, CustomImageModel, CustomTextModel } from '@content-analysis/classifiers';
