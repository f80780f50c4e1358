import { ENGLISH_STOPWORDS } from './stopwords.js';
import type { Token } from './tokenize.js';

/** A run of capitalised words (a proper name, most of the time). */
export interface Entity {
  /** The words joined by single spaces, as written. */
  text: string;
  /** Lower-cased words of the name. */
  words: string[];
  /** Index of the first and one past the last token. */
  startToken: number;
  endToken: number;
}

const CONNECTORS = new Set(['of', 'de', 'la', 'van', 'von', 'der', 'del', 'da', 'and', '&']);

/**
 * Runs of capitalised tokens (inner `of`, `de`, `van`... allowed). The first token of the text only starts a name when
 * the next token is capitalised too or it is not a common word, so "The" and "Scientists" at a sentence start are
 * not names; acronyms (`NASA`) always are.
 */
export function extractEntities(tokens: readonly Token[], commonWords?: (lower: string) => boolean): Entity[] {
  const entities: Entity[] = [];
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i];
    if (!token || !isCapitalised(token.text)) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < tokens.length) {
      const next = tokens[j];
      if (next && isCapitalised(next.text)) j++;
      else if (next && CONNECTORS.has(next.lower) && tokens[j + 1] && isCapitalised(tokens[j + 1]?.text ?? '')) j += 2;
      else break;
    }
    let start = i;
    if (i === 0 && isSentenceStartWord(token, commonWords)) start = 1;
    if (start < j) {
      const run = tokens.slice(start, j);
      entities.push({ text: run.map((t) => t.text).join(' '), words: run.map((t) => t.lower), startToken: start, endToken: j });
    }
    i = j;
  }
  return entities;
}

function isCapitalised(word: string): boolean {
  return /^\p{Lu}/u.test(word) && !/^\p{Lu}$/u.test(word);
}

function isSentenceStartWord(token: Token, commonWords?: (lower: string) => boolean): boolean {
  if (/^\p{Lu}{2,}$/u.test(token.text)) return false;
  if (ENGLISH_STOPWORDS.has(token.lower)) return true;
  return commonWords ? commonWords(token.lower) : false;
}
