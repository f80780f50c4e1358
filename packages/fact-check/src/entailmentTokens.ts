import { tokenize } from './tokenize.js';
import type { WordVectors } from './wordVectors.js';

/** Values per token of the neural entailment model's input: 100 GloVe dimensions, exact match, unknown word. */
export const TOKEN_INPUT_WIDTH = 102;
/** Longest evidence passage the neural model reads, in tokens (a passage is at most 60 words). */
export const MAX_EVIDENCE_TOKENS = 80;
/** Longest claim the neural model reads, in tokens. */
export const MAX_CLAIM_TOKENS = 40;

/**
 * Lower-cased tokens as GloVe 6B spells them: the package's word and number tokens, with `n't` and `'s` split off
 * (`don't` -> `do n't`) and a hyphenated word the vectors lack split at its hyphens. Punctuation is dropped.
 */
export function entailmentTokens(text: string, vectors: WordVectors): string[] {
  const out: string[] = [];
  for (const { lower } of tokenize(text)) {
    const clitic = /^(.+?)(n't|'s|'re|'ll|'ve|'d|'m)$/.exec(lower);
    const word = clitic ? clitic[1]! : lower;
    if (word.includes('-') && !vectors.get(word)) out.push(...word.split('-').filter((w) => w.length > 0));
    else out.push(word);
    if (clitic) out.push(clitic[2]!);
  }
  return out;
}

/**
 * One side of a pair as the model reads it: `maxTokens` rows of {@link TOKEN_INPUT_WIDTH} values (GloVe vector, 1 when
 * the same token occurs on the other side, 1 when the word has no vector) and a mask (1 per real token). Longer texts
 * are cut; an empty text gets one all-zero token so that the model always has something to attend to.
 */
export function encodeTokens(
  tokens: readonly string[],
  otherSide: readonly string[],
  vectors: WordVectors,
  maxTokens: number,
): { values: Float32Array; mask: Float32Array } {
  const values = new Float32Array(maxTokens * TOKEN_INPUT_WIDTH);
  const mask = new Float32Array(maxTokens);
  const other = new Set(otherSide);
  const length = Math.min(maxTokens, tokens.length);
  for (let i = 0; i < length; i++) {
    const token = tokens[i]!;
    const vector = vectors.get(token);
    const row = i * TOKEN_INPUT_WIDTH;
    if (vector) values.set(vector, row);
    values[row + 100] = other.has(token) ? 1 : 0;
    values[row + 101] = vector ? 0 : 1;
    mask[i] = 1;
  }
  if (length === 0) mask[0] = 1;
  return { values, mask };
}
