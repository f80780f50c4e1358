import { detectLanguage as trigramLanguage, LanguageMismatchError, normalizeText } from '@content-analysis/classifiers';
import { detectLanguage as functionWordLanguage } from '@content-analysis/fact-check';
import type { FactCheckLanguage } from '@content-analysis/fact-check';

/**
 * The language `text` is confidently in when that is not `declared`, else undefined. Confident means that two
 * identifiers built on different evidence agree that the text is not in the declared language: franc's character
 * trigrams (the AI-text detector's `detectLanguage`, which names the language found) and the fact checker's
 * scripts and function words (`detectLanguage` of fact-check, which falls back to the declared language when it finds
 * no evidence). A list of names or a bilingual text (one identifier still reads the declared language) is not refused.
 * On ../shared/datasets/aitext (texts of 300+ characters, `language: 'en'` declared): 13,036 of 13,038
 * English-labelled texts pass; the two refused are a Hindi and a French passage; 535 of 538 German, Russian,
 * Indonesian and Chinese texts that franc reads as such are refused, the other 3 are half English
 * (`scripts/ai-text/language.mjs`).
 */
export function contradictedLanguage(text: string, declared: string): string | undefined {
  const normalized = normalizeText(text).text;
  const found = trigramLanguage(normalized);
  if (found === 'und' || found === declared) return undefined;
  const byFunctionWords = functionWordLanguage(normalized, declared as FactCheckLanguage);
  return byFunctionWords === declared ? undefined : found;
}

/** Throws `LanguageMismatchError` when the text is confidently in another language than `declared` (see above). */
export function checkDeclaredLanguage(text: string, declared: string, supported: readonly string[]): void {
  const found = contradictedLanguage(text, declared);
  if (found !== undefined) throw new LanguageMismatchError(declared, found, supported);
}
