const QUOTES_SINGLE = /[\u2018\u2019\u201A\u201B\u2032\u0060\u00B4]/g;
const QUOTES_DOUBLE = /[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB]/g;
const DASHES = /[\u2010-\u2015\u2212]/g;
const ELLIPSIS = /\u2026/g;
const SPACES = /\s+/g;

/**
 * The form every feature is computed on: lower case, typographic quotes, dashes and ellipses folded to ASCII, any
 * run of white space replaced by one space. Case and white-space edits therefore cannot move a score, and a
 * typographic habit of one corpus (curly quotes) does not become a label cue.
 */
export function canonicalText(text: string): string {
  return text
    .toLowerCase()
    .replace(QUOTES_SINGLE, "'")
    .replace(QUOTES_DOUBLE, '"')
    .replace(DASHES, '-')
    .replace(ELLIPSIS, '...')
    .replace(SPACES, ' ')
    .trim();
}
