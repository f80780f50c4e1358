import { HOMOGLYPHS } from './homoglyphs.js';

/** Evasion attempts found in a text, named as in the API response. */
export interface AttackDetected {
  zero_width_space: boolean;
  homoglyph_attack: boolean;
}

/** The text the detector scores, and what was removed or replaced to get it. */
export interface NormalizedText {
  /** NFKC text with invisible characters removed and homoglyphs in Latin words replaced. */
  text: string;
  attack: AttackDetected;
  /** Number of invisible characters removed. */
  zeroWidthCount: number;
  /** Number of letters replaced by the Latin letter they imitate. */
  homoglyphCount: number;
}

// Zero-width and other invisible format characters that render as nothing inside words.
const INVISIBLE = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]/gu;
const LETTER_RUN = /\p{L}+/gu;
const LATIN = /\p{Script=Latin}/u;
const NON_LATIN_LETTER = /[^\p{Script=Latin}]/u;

/**
 * Removes invisible characters, folds compatibility forms (NFKC) and replaces confusable Cyrillic, Greek,
 * Armenian and Cherokee letters by Latin ones inside words that also hold Latin letters (a word written wholly in
 * Cyrillic or Greek is left alone, so Russian or Greek text is not "repaired").
 */
export function normalizeText(input: string): NormalizedText {
  let zeroWidthCount = 0;
  const visible = input.replace(INVISIBLE, () => {
    zeroWidthCount++;
    return '';
  });
  const folded = visible.normalize('NFKC');
  const latinText = isMostlyLatin(folded);
  let homoglyphCount = 0;
  const text = folded.replace(LETTER_RUN, (word) => {
    if (!NON_LATIN_LETTER.test(word)) return word;
    if (!LATIN.test(word) && !(latinText && isAllConfusable(word))) return word;
    let out = '';
    for (const ch of word) {
      const latin = HOMOGLYPHS.get(ch.codePointAt(0)!);
      if (latin === undefined) out += ch;
      else {
        out += latin;
        homoglyphCount++;
      }
    }
    return out;
  });
  return {
    text,
    attack: { zero_width_space: zeroWidthCount > 0, homoglyph_attack: homoglyphCount > 0 },
    zeroWidthCount,
    homoglyphCount,
  };
}

// A word written entirely in confusables ("ореп" for "open") is an attack only inside Latin-script text: in
// Russian or Greek text such words are ordinary words.
function isAllConfusable(word: string): boolean {
  for (const ch of word) if (!HOMOGLYPHS.has(ch.codePointAt(0)!)) return false;
  return true;
}

const ANY_LETTER = /\p{L}/gu;
const LATIN_LETTER = /\p{Script=Latin}/gu;

function isMostlyLatin(text: string): boolean {
  const sample = text.length > 20_000 ? text.slice(0, 20_000) : text;
  const letters = sample.match(ANY_LETTER)?.length ?? 0;
  const latin = sample.match(LATIN_LETTER)?.length ?? 0;
  return letters > 0 && latin / letters >= 0.8;
}
