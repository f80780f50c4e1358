/** Start and end offsets of every word (a run of letters, digits and inner apostrophes) of a text. */
export interface WordSpans {
  starts: Int32Array;
  ends: Int32Array;
  count: number;
}

const WORD = /[\p{L}\p{N}]+(?:'[\p{L}]+)*/gu;

/** Word spans of a text, for statistics over words; not the word count that is charged (that is `credits`'s). */
export function wordSpansOf(text: string): WordSpans {
  let starts = new Int32Array(Math.max(16, text.length >> 2));
  let ends = new Int32Array(starts.length);
  let count = 0;
  for (const m of text.matchAll(WORD)) {
    if (count === starts.length) {
      const grownStarts = new Int32Array(count * 2);
      grownStarts.set(starts);
      starts = grownStarts;
      const grownEnds = new Int32Array(count * 2);
      grownEnds.set(ends);
      ends = grownEnds;
    }
    starts[count] = m.index;
    ends[count] = m.index + m[0].length;
    count++;
  }
  return { starts, ends, count };
}

/** Index of the first of `values[0..length)` (ascending) that is at least `target`: the first word starting there. */
export function lowerBound(values: Int32Array, length: number, target: number): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
