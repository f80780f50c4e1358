/** A sentence as a character range of the text it was cut from. */
export interface SentenceSpan {
  start: number;
  end: number;
}

const ABBREVIATIONS = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'vs', 'etc', 'e.g', 'i.e', 'cf', 'al', 'fig', 'no', 'vol',
  'inc', 'ltd', 'co', 'corp', 'u.s', 'u.k', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct',
  'nov', 'dec', 'gen', 'gov', 'sen', 'rep', 'approx', 'dept', 'est', 'mt', 'ft',
]);
const CLOSERS = new Set(['"', "'", ')', ']', '}', '\u2019', '\u201D', '\u00BB']);

/**
 * Cuts text into sentences: after `.`, `!`, `?` or `…` (with any closing quotes and brackets) followed by white
 * space, unless the word before the full stop is a known abbreviation or a single letter; and at every line break
 * that starts a blank line or follows a line ending in sentence punctuation. Leading and trailing white space is not part of a sentence. Linear in the length.
 */
export function splitSentences(text: string): SentenceSpan[] {
  const spans: SentenceSpan[] = [];
  let start = skipSpace(text, 0);
  const n = text.length;
  for (let i = start; i < n; i++) {
    const c = text[i]!;
    if (c === '\n' && (isParagraphBreak(text, i) || endsSentence(text, start, i))) {
      push(spans, text, start, i);
      start = skipSpace(text, i + 1);
      i = start - 1;
      continue;
    }
    if (c !== '.' && c !== '!' && c !== '?' && c !== '\u2026') continue;
    let j = i + 1;
    while (j < n && (text[j] === '.' || text[j] === '!' || text[j] === '?')) j++;
    const closersFrom = j;
    while (j < n && CLOSERS.has(text[j]!)) j++;
    if (j < n && !isSpace(text[j]!)) continue;
    // '"Yes!" she said.': a quoted exclamation or question followed by a lower-case word goes on.
    if (j > closersFrom && /\p{Ll}/u.test(text[skipSpace(text, j)] ?? '')) continue;
    if (c === '.' && j === i + 1 && isAbbreviation(text, i)) continue;
    push(spans, text, start, j);
    start = skipSpace(text, j);
    i = start - 1;
  }
  push(spans, text, start, n);
  return spans;
}

// A blank line (or a line break after a line that ends like a sentence) ends a sentence; a single line break
// inside a hard-wrapped paragraph does not.
function isParagraphBreak(text: string, newline: number): boolean {
  for (let j = newline + 1; j < text.length; j++) {
    const c = text[j]!;
    if (c === '\n') return true;
    if (!isSpace(c)) return false;
  }
  return true;
}

function endsSentence(text: string, start: number, newline: number): boolean {
  let e = newline;
  while (e > start && isSpace(text[e - 1]!)) e--;
  while (e > start && CLOSERS.has(text[e - 1]!)) e--;
  const c = text[e - 1];
  return c === '.' || c === '!' || c === '?' || c === ':' || c === '\u2026';
}

function push(spans: SentenceSpan[], text: string, start: number, end: number): void {
  let e = end;
  while (e > start && isSpace(text[e - 1]!)) e--;
  if (e > start) spans.push({ start, end: e });
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text[i]!)) i++;
  return i;
}

function isSpace(c: string): boolean {
  return c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '\f' || c === '\v' || c === '\u00A0';
}

function isAbbreviation(text: string, dot: number): boolean {
  let k = dot;
  while (k > 0 && !isSpace(text[k - 1]!)) k--;
  const word = text.slice(k, dot).toLowerCase().replace(/^[("'\[]+/, '');
  if (word.length === 1 && /\p{L}/u.test(word)) return true;
  return ABBREVIATIONS.has(word);
}
