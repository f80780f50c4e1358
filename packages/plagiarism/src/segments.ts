import type { TokenizedText } from './tokenize.js';

const BOUNDARY = /[.!?;:。！？；\n]/;

/**
 * Cuts a text's words into segments: sentences (and clauses ended by `;` or `:`), and runs of at most
 * `maxWords` words where punctuation is missing. Returns the index of the first word of each segment, plus
 * the word count as a final entry.
 */
export function segmentWords(tokens: TokenizedText, maxWords: number): Uint32Array {
  const starts: number[] = [0];
  const { original, starts: ws, ends: we, length } = tokens;
  let segmentStart = 0;
  for (let w = 0; w + 1 < length; w++) {
    const gap = original.slice(we[w]!, ws[w + 1]!);
    if (BOUNDARY.test(gap) || w + 1 - segmentStart >= maxWords) {
      starts.push(w + 1);
      segmentStart = w + 1;
    }
  }
  if (length === 0) return new Uint32Array([0]);
  starts.push(length);
  return new Uint32Array(starts);
}
