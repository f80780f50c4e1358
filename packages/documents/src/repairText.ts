// Typographic ligatures of the Alphabetic Presentation Forms block, as their letters.
const LIGATURES: Record<string, string> = {
  '\ufb00': 'ff', '\ufb01': 'fi', '\ufb02': 'fl', '\ufb03': 'ffi', '\ufb04': 'ffl', '\ufb05': 'st', '\ufb06': 'st',
};
const LIGATURE_PATTERN = /[\ufb00-\ufb06]/g;

/** Replaces ligature characters (U+FB00 to U+FB06) with their letters and drops soft hyphens inside words. */
export function repairLigatures(text: string): string {
  return text.replace(LIGATURE_PATTERN, (char) => LIGATURES[char] ?? char);
}

const LINE_END_HYPHEN = /(\p{L})[-\u00ad\u2010]$/u;
const STARTS_LOWERCASE = /^\p{Ll}/u;

/**
 * Joins two consecutive lines of one paragraph. A word broken at the line end (`"engin-"` then `"eered"`) is
 * rejoined without its hyphen when the next line starts with a lowercase letter; a soft hyphen is always dropped.
 * A hyphen before an uppercase letter or a digit is kept (`"pre-"`, `"COVID-"`, `"19"`), as is any other line end.
 */
export function joinLines(previous: string, next: string): string {
  if (previous === '') return next;
  if (next === '') return previous;
  if (previous.endsWith('\u00ad')) return previous.slice(0, -1) + next;
  const hyphen = LINE_END_HYPHEN.exec(previous);
  if (hyphen !== null) {
    return STARTS_LOWERCASE.test(next) ? previous.slice(0, -1) + next : previous + next;
  }
  return `${previous} ${next}`;
}
