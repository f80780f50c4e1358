import { FUNCTION_WORDS } from './functionWords.js';

const LETTER = /\p{L}/gu;
const LATIN = /\p{Script=Latin}/gu;
const WORD = /\p{L}+/gu;
const SAMPLE_CHARS = 20_000;

/**
 * Tells English from other text, which is all the detector needs: `'en'` when the text is mostly Latin script and
 * at least 20% of its words are English function words (English prose has 40-55%), else `'und'`. Not a general
 * language identifier.
 */
export function detectLanguage(text: string): 'en' | 'und' {
  const sample = text.slice(0, SAMPLE_CHARS);
  const letters = sample.match(LETTER)?.length ?? 0;
  const latin = sample.match(LATIN)?.length ?? 0;
  if (letters === 0 || latin / letters < 0.8) return 'und';
  let words = 0;
  let functionWords = 0;
  for (const m of sample.matchAll(WORD)) {
    words++;
    if (FUNCTION_WORDS.has(m[0].toLowerCase())) functionWords++;
  }
  return words > 0 && functionWords / words >= 0.2 ? 'en' : 'und';
}
