/** A sentence of the analysed text with its character span (`text === source.slice(start, end)`). */
export interface Sentence {
  /** 1-based position in the text, the id claims refer to. */
  id: number;
  text: string;
  start: number;
  end: number;
}

// Tokens ending in a period that do not end a sentence.
const ABBREVIATIONS = new Set(
  (
    'mr mrs ms dr prof sr jr st vs etc e.g i.e approx no nos fig figs inc ltd co corp dept est gen gov sen rep rev ' +
    'jan feb mar apr jun jul aug sep sept oct nov dec mt ft u.s u.k u.n a.m p.m ca cf al'
  ).split(' '),
);

const TERMINATOR = /[.!?…。！？]+["'”’)\]]*/g;

/**
 * Splits `text` into sentences, keeping offsets. A sentence ends at `.`, `!`, `?` (or CJK stops) followed by
 * white space and an upper-case letter, digit or quote, or at a blank line; abbreviations (`Dr.`, `U.S.`), initials
 * (`J. K.`) and decimals (`3.5`) do not end a sentence. Leading and trailing white space is trimmed from each span.
 */
export function segmentSentences(text: string): Sentence[] {
  const cuts: number[] = [];
  for (const match of text.matchAll(TERMINATOR)) {
    const end = match.index + match[0].length;
    const next = text.slice(end, end + 3);
    const isCjk = /[。！？]/.test(match[0]);
    if (!isCjk && !/^(\s+["'“‘(\[]?[\p{Lu}\p{N}\p{Lo}]|\s*$)/u.test(next) && !/^\s*\n/.test(next)) continue;
    if (match[0] === '.') {
      const before = /([\p{L}.]+)$/u.exec(text.slice(Math.max(0, match.index - 12), match.index));
      const word = before?.[1]?.toLowerCase() ?? '';
      if (ABBREVIATIONS.has(word) || /^\p{Lu}$/u.test(before?.[1] ?? '')) continue;
    }
    cuts.push(end);
  }
  for (const match of text.matchAll(/\n\s*\n/g)) cuts.push(match.index);
  cuts.sort((a, b) => a - b);

  const sentences: Sentence[] = [];
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    if (cut <= from) continue;
    pushTrimmed(text, from, cut, sentences);
    from = cut;
  }
  return sentences;
}

function pushTrimmed(text: string, from: number, to: number, out: Sentence[]): void {
  let start = from;
  let end = to;
  while (start < end && /\s/.test(text[start] ?? '')) start++;
  while (end > start && /\s/.test(text[end - 1] ?? '')) end--;
  if (end > start) out.push({ id: out.length + 1, text: text.slice(start, end), start, end });
}
