/** A character range of the text, scored as one model input. */
export interface TextWindow {
  start: number;
  end: number;
}

/** A piece of text (a sentence, or part of a long one) and its token count without special tokens. */
export interface CountedSpan extends TextWindow {
  tokens: number;
}

/**
 * Cuts a span whose tokens exceed `budget` at white space into pieces of about equal length, each expected to fit
 * (`count` re-counts a piece; a piece with no white space left to cut at stays as it is and is truncated later).
 */
export function splitLongSpan(text: string, span: CountedSpan, budget: number, count: (text: string) => number): CountedSpan[] {
  if (span.tokens <= budget) return [span];
  const parts = Math.ceil(span.tokens / budget);
  const length = span.end - span.start;
  const pieces: CountedSpan[] = [];
  let start = span.start;
  for (let p = 1; p <= parts && start < span.end; p++) {
    let end = p === parts ? span.end : span.start + Math.round((p * length) / parts);
    // Cut at the white space nearest after the proportional point (or the end of the span).
    while (end < span.end && !/\s/.test(text[end]!)) end++;
    if (end <= start) continue;
    const piece = { start, end, tokens: count(text.slice(start, end)) };
    if (piece.tokens > budget && piece.tokens < span.tokens) pieces.push(...splitLongSpan(text, piece, budget, count));
    else pieces.push(piece);
    start = end;
    while (start < span.end && /\s/.test(text[start]!)) start++;
  }
  return pieces;
}

/**
 * Packs consecutive spans into windows of at most `budget` tokens (the sum of the spans' own counts; a span over
 * the budget is a window alone). Every span lies in exactly one window, in order.
 */
export function packWindows(spans: readonly CountedSpan[], budget: number): TextWindow[] {
  const windows: TextWindow[] = [];
  let current: TextWindow | undefined;
  let tokens = 0;
  for (const span of spans) {
    if (current !== undefined && tokens + span.tokens <= budget) {
      current.end = span.end;
      tokens += span.tokens;
      continue;
    }
    current = { start: span.start, end: span.end };
    tokens = span.tokens;
    windows.push(current);
  }
  return windows;
}

/**
 * The whole-text value of per-window values, as our own scorer weighs a text (its features are means over every
 * character): the mean of the windows' values weighted by their characters.
 */
export function combineWindows(values: ArrayLike<number>, windows: readonly TextWindow[]): number {
  let sum = 0;
  let chars = 0;
  for (let i = 0; i < windows.length; i++) {
    const w = windows[i]!.end - windows[i]!.start;
    sum += w * values[i]!;
    chars += w;
  }
  return sum / chars;
}
