import { InvalidArgumentError } from './errors.js';

/** Options of `compareTexts`. */
export interface TextCompareOptions {
  /**
   * Longest accepted text, in UTF-16 code units; a longer text throws `TextTooLongError`.
   * @default 120000
   */
  maxChars?: number;
  /**
   * Shortest common run of words that may anchor the alignment inside a region that the exact diff does not
   * find similar. Shorter common runs are reported only where the exact diff of their region finds it at least
   * half similar (so the unchanged words between nearby edits are matched, while a lone "the" shared by two
   * unrelated paragraphs is not).
   * @default 3
   */
  minAnchorWords?: number;
  /**
   * Look for blocks that moved (such as reordered paragraphs) among the words left unmatched by the in-order
   * alignment.
   * @default true
   */
  detectMoves?: boolean;
  /**
   * Shortest run of words reported as a moved block.
   * @default 6
   */
  minMovedWords?: number;
}

/** Options with every default applied. */
export type ResolvedTextCompareOptions = Required<TextCompareOptions>;

export const DEFAULT_TEXT_COMPARE_OPTIONS: Readonly<ResolvedTextCompareOptions> = Object.freeze({
  maxChars: 120_000,
  minAnchorWords: 3,
  detectMoves: true,
  minMovedWords: 6,
});

function positiveInteger(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new InvalidArgumentError(name, 'positive integer', value);
  }
  return value;
}

/** Checks every option up front and fills in the defaults. */
export function resolveOptions(options: TextCompareOptions = {}): ResolvedTextCompareOptions {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError('options', 'object', options);
  }
  const d = DEFAULT_TEXT_COMPARE_OPTIONS;
  const detectMoves = options.detectMoves ?? d.detectMoves;
  if (typeof detectMoves !== 'boolean') throw new InvalidArgumentError('detectMoves', 'boolean', detectMoves);
  return {
    maxChars: positiveInteger('maxChars', options.maxChars ?? d.maxChars),
    minAnchorWords: positiveInteger('minAnchorWords', options.minAnchorWords ?? d.minAnchorWords),
    detectMoves,
    minMovedWords: positiveInteger('minMovedWords', options.minMovedWords ?? d.minMovedWords),
  };
}
