export {
  CalibrationMismatchError, CustomModelError, InsufficientHumanTextError, InvalidCalibrationProfileError, InvalidInputError,
  LanguageMismatchError, languageName, ModelLoadError, ModelNotInstalledError, UnidentifiedLanguageError, UnknownCustomModelError, UnknownModelError,
  UnsupportedLanguageError,
} from './errors.js';
export {
  assertProfileFor, CALIBRATION_PROFILE_FORMAT, CALIBRATION_PROFILE_KIND, parseCalibrationProfile, profileMeetsTarget,
} from './calibration/calibrationProfile.js';
export type { CalibratedDetector, CalibrationProfile, ProfileBucket } from './calibration/calibrationProfile.js';
export {
  calibrateThresholds, DEFAULT_PROFILE_BUCKETS, DEFAULT_PROFILE_CONFIDENCE, profileWindowChars,
} from './calibration/calibrateThresholds.js';
export type { CalibrateThresholdsOptions, ScoredRange } from './calibration/calibrateThresholds.js';
export { createCalibrationProfile, PROFILE_METHOD } from './calibration/createCalibrationProfile.js';
export type {
  CalibrationOutcome, CalibrationScorer, CreateCalibrationProfileOptions,
} from './calibration/createCalibrationProfile.js';
export { binomialCdf, clopperPearsonUpper, maxExceedances, minimumSample } from './calibration/fprBound.js';
export { guardThresholds } from './calibration/guardThresholds.js';
export type { GuardedThresholds, GuardThresholdsOptions, SourcedRanges, SourceThreshold } from './calibration/guardThresholds.js';
export { aiTextCalibrationScorer, calibrateAiText } from './aiText/calibrateAiText.js';
export type { CalibrateAiTextOptions } from './aiText/calibrateAiText.js';
export { canonicalText } from './aiText/canonicalText.js';
export { CharLm, LM_FEATURE_NAMES, LM_STAT_COLUMNS } from './aiText/charLm.js';
export type { CharLmCard, LmTrace } from './aiText/charLm.js';
export { CharNgramModel } from './aiText/charNgramModel.js';
export type { CharNgramModelOptions, CharSurprisal } from './aiText/charNgramModel.js';
export { DEFLATE_FEATURES, FEATURE_NAMES } from './aiText/featureNames.js';
export { featurePlan, planFeatures } from './aiText/featurePlan.js';
export type { FeaturePlan } from './aiText/featurePlan.js';
export { CompressionReference, compressionCosts } from './aiText/compressionProfile.js';
export type { FeatureName } from './aiText/featureNames.js';
export { loadFeatureResources, RESOURCE_FILES } from './aiText/featureResources.js';
export { normalizeText } from './aiText/normalizeText.js';
export type { AttackDetected, NormalizedText } from './aiText/normalizeText.js';
export { canonicalSentences, prepareDocument } from './aiText/prepareDocument.js';
export {
  NGRAM_CHAR_ORDERS, NGRAM_HASH_BITS, NGRAM_WORD_ORDERS, ngramPrefix, ngramRangeMeans, ngramSlots,
} from './aiText/ngramProfile.js';
export type { NgramPrefix, NgramSlots } from './aiText/ngramProfile.js';
export { tokenHash, tokenRows, WORD_TOKEN_BITS, wordTokens } from './aiText/wordTokens.js';
export type { WordTokens } from './aiText/wordTokens.js';
export { TokenEncoder } from './aiText/tokenEncoder.js';
export type { EncoderTrace, TokenEncoderCard } from './aiText/tokenEncoder.js';
export type { FeatureResources, PrepareDocumentOptions, PreparedDocument, PreparedSentence } from './aiText/prepareDocument.js';
export { rangeFeatures } from './aiText/rangeFeatures.js';
export type { RangeFeatureOptions } from './aiText/rangeFeatures.js';
export { splitSentences } from './aiText/splitSentences.js';
export type { SentenceSpan } from './aiText/splitSentences.js';
export {
  AI_TEXT_LANGUAGES, AI_TEXT_MAX_CHARS, AI_TEXT_MIN_CHARS, AI_TEXT_MODEL_ID, createAiTextDetector, createAiTextScorer,
  DEFAULT_AI_TEXT_VERSION, detectAiText, LATEST_AI_TEXT_VERSION, resolveAiTextVersion, sentenceWindow,
} from './aiText/detectAiText.js';
export { float16ToFloat32, loadNgramTable } from './aiText/ngramTable.js';
export type { NgramCard } from './aiText/ngramTable.js';
export type {
  AiTextDetector, AiTextDetectorOptions, AiTextResult, AiTextScorer, DetectAiTextOptions, SentenceScore,
} from './aiText/detectAiText.js';
export { detectLanguage } from './aiText/detectLanguage.js';
export { AI_TEXT_LANGUAGE_MODELS, detectInLanguage, languageDetector, languageModelRegistry } from './aiText/languageDetectors.js';
export type { LanguageDetector, LanguageRequest, LanguageScores } from './aiText/languageDetectors.js';
export { HUMAN_SCORE_THRESHOLD, humanLogit, humanScore, scoreOfLogit } from './aiText/humanScore.js';
export { anchoredSentenceLogits } from './aiText/anchoredSentenceLogits.js';
export { countSyllables, fleschReadingEase } from './aiText/readability.js';
export { loadModel } from './runtime/loadModel.js';
export type { LoadedModel, LoadModelOptions } from './runtime/loadModel.js';
export type { CalibrationBucket, ModelCard } from './runtime/modelCard.js';
export { BUNDLED_MODELS_DIR, bundledRegistry, ModelRegistry } from './runtime/modelRegistry.js';
export { EXTRA_MODEL_VERSIONS, extraModelsDir, MODELS_EXTRA_PACKAGE } from './runtime/extraModels.js';
export type { ModelEntry } from './runtime/modelRegistry.js';
export {
  AI_IMAGE_VERSIONS, aiImageModelDir, aiImageModelFolder, DEFAULT_AI_IMAGE_VERSION, LATEST_AI_IMAGE_VERSION, resolveAiImageVersion,
} from './aiImage/versions.js';
export type { AiImageVersion } from './aiImage/versions.js';
export type {
  AiImageClassification, AiImageClassifier, AiImageClassifierOptions, ClassifyImageOptions,
} from './aiImage/types.js';
export {
  AI_IMAGE_MODELS_DIR, aiImageModelCard, classification, classifyImage, confidenceOf, createAiImageClassifier,
} from './aiImage/classifier.js';
export type { AiImageModelCard } from './aiImage/classifier.js';
export { BACKBONES, backboneDigest, backboneOnnx, readTfjsModel } from './aiImage/backbones.js';
export type { BackboneName, BackboneTap, TfjsLayersModel } from './aiImage/backbones.js';
export { FEATURE_BLOCKS, FeatureExtractor, featureNames } from './aiImage/features.js';
export type { FeatureBlock } from './aiImage/features.js';
export { HANDCRAFTED_FEATURE_NAMES, handcraftedFeatures } from './aiImage/handcrafted.js';
export { decodeKerasWeights, kerasToOnnx } from './aiImage/kerasOnnx.js';
export type { KerasLayer, KerasToOnnxOptions, KerasWeight, KerasWeightSpec, TapStatistic } from './aiImage/kerasOnnx.js';
export { encodeOnnxModel, ONNX_FLOAT, ONNX_INT64 } from './aiImage/onnxWriter.js';
export type { OnnxGraph, OnnxNode, OnnxTensor, OnnxValueInfo } from './aiImage/onnxWriter.js';
export { NORMALISING_JPEG_QUALITY, prepareViews, toPlanar, VIEW } from './aiImage/prepare.js';
export type { CropPosition, PreparedView, ViewSpec } from './aiImage/prepare.js';
export {
  CUSTOM_MODEL_NAME, CUSTOM_VERSION_PREFIX, CustomModels, isCustomVersion, parseModelSpec,
} from './custom/customModels.js';
export type { CustomModel, CustomModelsOptions } from './custom/customModels.js';
export { DEFAULT_MAX_TOKENS, uncalibratedTextScore } from './custom/customTextModel.js';
export type { CustomTextModel, TextCalibration } from './custom/customTextModel.js';
export type { CustomImageClassification, CustomImageModel, ImageCalibration } from './custom/customImageModel.js';
export { preprocessImage, readPreprocessing, resizedSize } from './custom/imagePreprocessor.js';
export type { ImagePreprocessing } from './custom/imagePreprocessor.js';
export {
  CUSTOM_MODEL_TASKS, DECLARATION_FILE, DEFAULT_MAX_MODEL_BYTES, ONNX_CANDIDATES, readModelFolder, sniffNotOnnx,
} from './custom/readModelFolder.js';
export type { CustomModelTask, ModelDeclaration, ModelFolder } from './custom/readModelFolder.js';
export { combineWindows, packWindows, splitLongSpan } from './custom/textWindows.js';
export type { CountedSpan, TextWindow } from './custom/textWindows.js';
export { customCalibrationScorer, modelFingerprint, profileTextCalibration } from './custom/customCalibration.js';
export type { CustomDetectorId } from './custom/customCalibration.js';
