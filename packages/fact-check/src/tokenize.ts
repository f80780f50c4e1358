/** A word token with its character span in the source text. */
export interface Token {
  /** The token as written. */
  text: string;
  /** Lower-cased form. */
  lower: string;
  start: number;
  end: number;
}

const TOKEN = /[\p{L}\p{M}][\p{L}\p{M}\p{N}'’\-]*|\p{N}+(?:[.,]\p{N}+)*(?:%|st|nd|rd|th)?/gu;

/** Word and number tokens of `text` (punctuation dropped), each with its offsets. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(TOKEN)) {
    let word = match[0];
    // A trailing hyphen or apostrophe belongs to the punctuation, not the word.
    while (word.length > 1 && /['’\-]$/.test(word)) word = word.slice(0, -1);
    const start = match.index;
    tokens.push({ text: word, lower: word.toLowerCase().replace(/’/g, "'"), start, end: start + word.length });
  }
  return tokens;
}
