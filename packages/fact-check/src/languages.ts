/** The 39 languages of fact checking (spec, POST /v2/fact-checker), in the spec's order. */
export const FACT_CHECK_LANGUAGES = Object.freeze([
  'ar', 'bn', 'bg', 'zh', 'hr', 'cs', 'da', 'nl', 'en', 'et', 'fi', 'fr', 'de', 'el', 'he', 'hi', 'hu', 'id', 'it',
  'ja', 'ko', 'lv', 'lt', 'no', 'pl', 'pt', 'ro', 'ru', 'sr', 'sk', 'sl', 'es', 'sw', 'sv', 'th', 'tr', 'uk', 'vi',
] as const);

export type FactCheckLanguage = (typeof FACT_CHECK_LANGUAGES)[number];

/** Whether `code` is one of {@link FACT_CHECK_LANGUAGES}. */
export function isFactCheckLanguage(code: string): code is FactCheckLanguage {
  return (FACT_CHECK_LANGUAGES as readonly string[]).includes(code);
}
