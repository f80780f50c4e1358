/** The 47 languages of plagiarism checking (spec, POST /v2/plagiarism), in the spec's order. */
export const PLAGIARISM_LANGUAGES = Object.freeze([
  'en', 'fr', 'de', 'es', 'pt', 'nl', 'it', 'zh', 'no', 'sv', 'da', 'fi', 'is', 'ga', 'pl', 'cs', 'sk', 'ro', 'hu',
  'bg', 'hr', 'el', 'tr', 'he', 'ar', 'vi', 'ms', 'th', 'ko', 'ja', 'ru', 'kk', 'ka', 'tl', 'hi', 'bn', 'fa', 'ur',
  'id', 'ml', 'ta', 'te', 'kn', 'mr', 'gu', 'uk', 'sq',
] as const);

/** The 39 languages of fact checking (spec, POST /v2/fact-checker), in the spec's order. */
export const FACT_CHECK_LANGUAGES = Object.freeze([
  'ar', 'bn', 'bg', 'zh', 'hr', 'cs', 'da', 'nl', 'en', 'et', 'fi', 'fr', 'de', 'el', 'he', 'hi', 'hu', 'id', 'it',
  'ja', 'ko', 'lv', 'lt', 'no', 'pl', 'pt', 'ro', 'ru', 'sr', 'sk', 'sl', 'es', 'sw', 'sv', 'th', 'tr', 'uk', 'vi',
] as const);

export type PlagiarismLanguage = (typeof PLAGIARISM_LANGUAGES)[number];
export type FactCheckLanguage = (typeof FACT_CHECK_LANGUAGES)[number];

/**
 * Model versions of image detection (the spec's 5 to 1, and 9, 8, 7, 6 and legacy-5: what each means is in the
 * classifier's versions.ts and CHANGELOG); `latest` selects the classifier's LATEST_AI_IMAGE_VERSION.
 */
export const IMAGE_MODEL_VERSIONS = Object.freeze(['9', '8', '7', '6', '5', 'legacy-5', '4', '3', '2', '1', 'latest'] as const);
export type ImageModelVersion = (typeof IMAGE_MODEL_VERSIONS)[number];
