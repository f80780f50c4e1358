/**
 * Undoes the two evasions the result reports in `attackDetected`: invisible characters inside words
 * (zero-width space and its relatives) and homoglyphs (Cyrillic or Greek letters that look like Latin ones,
 * mixed into Latin words). Matching runs on the cleaned text; `toOriginal` maps every offset of the cleaned
 * text back to the ORIGINAL text, so reported offsets always index the caller's string.
 */

/** Invisible characters removed before matching. */
const INVISIBLE = new Set([0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x00ad, 0x180e, 0x2061, 0x2062, 0x2063, 0x2064]);
/** Invisible characters that are legitimate in some scripts (ZWNJ in Persian, ZWJ in emoji and Indic text). */
const JOINERS = new Set([0x200c, 0x200d]);

/** Cyrillic and Greek letters that render like a Latin letter, and that letter. */
export const HOMOGLYPHS: ReadonlyMap<number, string> = new Map(
  Object.entries({
    'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'і': 'i', 'ј': 'j', 'ѕ': 's', 'һ': 'h',
    'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'ӏ': 'l', 'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O',
    'Р': 'P', 'С': 'C', 'Т': 'T', 'Х': 'X', 'У': 'Y', 'І': 'I', 'Ј': 'J', 'Ѕ': 'S',
    'ο': 'o', 'α': 'a', 'ν': 'v', 'ρ': 'p', 'ι': 'i', 'κ': 'k', 'τ': 't', 'υ': 'u', 'Α': 'A', 'Β': 'B', 'Ε': 'E',
    'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
  }).map(([from, to]) => [from.charCodeAt(0), to]),
);

export interface NormalizedText {
  /** The text without invisible characters, with homoglyphs replaced inside Latin words. */
  readonly text: string;
  /** `toOriginal[i]` is the offset in the original text of cleaned character i; one extra entry for the end. */
  readonly toOriginal: Uint32Array;
  readonly zeroWidth: boolean;
  readonly homoglyph: boolean;
}

const isLatinLetter = (c: number): boolean =>
  (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7);
const isLetterLike = (c: number): boolean => isLatinLetter(c) || HOMOGLYPHS.has(c) || (c >= 0x370 && c <= 0x52f);

/** Whether most letters of the text are Latin: then a word made only of look-alike letters is an attack too. */
function mostlyLatin(text: string): boolean {
  let latin = 0;
  let other = 0;
  const step = text.length > 20_000 ? Math.floor(text.length / 20_000) : 1;
  for (let i = 0; i < text.length; i += step) {
    const c = text.charCodeAt(i);
    if (isLatinLetter(c)) latin++;
    else if (c >= 0x370 && c <= 0x52f) other++;
  }
  return latin > 4 * other;
}

/** Cleans `text`; O(n). */
export function normalizeText(text: string): NormalizedText {
  const n = text.length;
  const latinText = mostlyLatin(text);
  const out: string[] = [];
  const map = new Uint32Array(n + 1);
  let m = 0;
  let zeroWidth = false;
  let homoglyph = false;
  let i = 0;
  while (i < n) {
    // One word-like run of letters (Latin, Greek, Cyrillic, invisible characters) at a time.
    const c = text.charCodeAt(i);
    if (!isLetterLike(c) && !INVISIBLE.has(c)) {
      out.push(text[i]!);
      map[m++] = i;
      i++;
      continue;
    }
    let j = i;
    let hasLatin = false;
    let hasOtherScript = false;
    while (j < n) {
      const d = text.charCodeAt(j);
      if (INVISIBLE.has(d)) { j++; continue; }
      if (!isLetterLike(d)) break;
      if (isLatinLetter(d)) hasLatin = true;
      else if (!HOMOGLYPHS.has(d)) hasOtherScript = true;
      j++;
    }
    // Mixed Latin and look-alikes, or only look-alikes in a Latin text: replace them.
    const mapGlyphs = !hasOtherScript && (hasLatin || latinText);
    for (let k = i; k < j; k++) {
      const d = text.charCodeAt(k);
      if (INVISIBLE.has(d)) {
        const prev = k > i ? text.charCodeAt(k - 1) : 0;
        const next = k + 1 < j ? text.charCodeAt(k + 1) : 0;
        // A joiner between two non-Latin letters is writing, not an attack; it is still dropped for matching.
        if (!JOINERS.has(d) || isLatinLetter(prev) || isLatinLetter(next)) {
          if (k > i && k + 1 < j) zeroWidth = true;
          else if (d !== 0xfeff || k !== 0) zeroWidth = zeroWidth || d === 0x200b || d === 0x2060;
        }
        continue;
      }
      const glyph = mapGlyphs ? HOMOGLYPHS.get(d) : undefined;
      if (glyph !== undefined) {
        homoglyph = true;
        out.push(glyph);
      } else {
        out.push(text[k]!);
      }
      map[m++] = k;
    }
    i = j;
  }
  map[m] = n;
  return { text: out.join(''), toOriginal: map.slice(0, m + 1), zeroWidth, homoglyph };
}
