/**
 * The 47 languages of plagiarism checking (spec, POST /v2/plagiarism), in the spec's order. The same list as
 * `PLAGIARISM_LANGUAGES` of `@content-analysis/engine`, repeated here because the engine depends on this package
 * and not the other way round.
 */
export const PLAGIARISM_LANGUAGES = Object.freeze([
  'en', 'fr', 'de', 'es', 'pt', 'nl', 'it', 'zh', 'no', 'sv', 'da', 'fi', 'is', 'ga', 'pl', 'cs', 'sk', 'ro', 'hu',
  'bg', 'hr', 'el', 'tr', 'he', 'ar', 'vi', 'ms', 'th', 'ko', 'ja', 'ru', 'kk', 'ka', 'tl', 'hi', 'bn', 'fa', 'ur',
  'id', 'ml', 'ta', 'te', 'kn', 'mr', 'gu', 'uk', 'sq',
] as const);

export type PlagiarismLanguage = (typeof PLAGIARISM_LANGUAGES)[number];

const SUPPORTED = new Set<string>(PLAGIARISM_LANGUAGES);

export function isPlagiarismLanguage(code: string): code is PlagiarismLanguage {
  return SUPPORTED.has(code);
}
