import type { TokenizedText } from './tokenize.js';
import type { MatchItem } from './types.js';

const WHITE_SPACE = /\s+/gu;

/** Whether two stretches of text between words are the same once white space runs count as one space. */
function sameSeparator(x: string, y: string, atEdge: boolean): boolean {
  if (x === y) return true;
  let cx = x.replace(WHITE_SPACE, ' ');
  let cy = y.replace(WHITE_SPACE, ' ');
  if (atEdge) {
    cx = cx.trim();
    cy = cy.trim();
  }
  return cx === cy;
}

/** The text between word `w - 1` and word `w` (before the first word for w = 0, after the last for w = count). */
function gapBefore(side: TokenizedText, w: number): string {
  const count = side.spans.length / 2;
  const from = w === 0 ? 0 : side.spans[2 * w - 1]!;
  const to = w === count ? side.text.length : side.spans[2 * w]!;
  return side.text.slice(from, to);
}

/**
 * Whether the separators before word `wa` of `a` and word `wb` of `b` (inside a run: 0 < w < count) are the same
 * once white space runs count as one space. Equal code units, the common case, are compared in place.
 */
function sameGapBefore(a: TokenizedText, wa: number, b: TokenizedText, wb: number): boolean {
  const fromA = a.spans[2 * wa - 1]!;
  const fromB = b.spans[2 * wb - 1]!;
  const length = a.spans[2 * wa]! - fromA;
  if (b.spans[2 * wb]! - fromB === length) {
    let i = 0;
    while (i < length && a.text.charCodeAt(fromA + i) === b.text.charCodeAt(fromB + i)) i++;
    if (i === length) return true;
  }
  return sameSeparator(gapBefore(a, wa), gapBefore(b, wb), false);
}

/** The flags of one run, reused from run to run and from one comparison to the next. */
let changedScratch = new Uint8Array(1024);

function item(side: TokenizedText, type: MatchItem['type'], firstWord: number, wordCount: number): MatchItem {
  const start = side.spans[2 * firstWord]!;
  return { type, word_count: wordCount, index_start: start, length: side.spans[2 * (firstWord + wordCount) - 1]! - start };
}

/**
 * Turns aligned runs into the items of both sides. Contiguous runs are joined first. Inside a run, a word is
 * changed when its raw text differs from its partner's or when the separator on either side of it (within the
 * run, or at the very start or end of both texts) differs; maximal stretches of changed words become
 * `minor_changes` items, the stretches between them `identical` items. Item k of both lists is the same stretch.
 */
export function matchItems(
  first: TokenizedText, second: TokenizedText, runs: Int32Array,
): { first: MatchItem[]; second: MatchItem[] } {
  const firstItems: MatchItem[] = [];
  const secondItems: MatchItem[] = [];
  const firstCount = first.spans.length / 2;
  const secondCount = second.spans.length / 2;
  let r = 0;
  while (r < runs.length) {
    const aStart = runs[r]!;
    const bStart = runs[r + 1]!;
    let length = runs[r + 2]!;
    r += 3;
    while (r < runs.length && runs[r] === aStart + length && runs[r + 1] === bStart + length) {
      length += runs[r + 2]!;
      r += 3;
    }
    if (changedScratch.length < length) changedScratch = new Uint8Array(Math.max(length, 2 * changedScratch.length));
    const changed = changedScratch.fill(0, 0, length);
    const copied = second.copiedWithPrevious;
    for (let w = 0; w < length; w++) {
      // Words taken with the word before them from the first text's same words: equal, and so is the gap.
      if (w > 0 && copied !== undefined && copied[bStart + w] === aStart + w) continue;
      if (first.raws[aStart + w] !== second.raws[bStart + w]) changed[w] = 1;
      if (w > 0 && !sameGapBefore(first, aStart + w, second, bStart + w)) {
        changed[w - 1] = 1;
        changed[w] = 1;
      }
    }
    if (aStart === 0 && bStart === 0 && !sameSeparator(gapBefore(first, 0), gapBefore(second, 0), true)) {
      changed[0] = 1;
    }
    if (aStart + length === firstCount && bStart + length === secondCount &&
      !sameSeparator(gapBefore(first, firstCount), gapBefore(second, secondCount), true)) {
      changed[length - 1] = 1;
    }
    let from = 0;
    for (let w = 1; w <= length; w++) {
      if (w === length || changed[w] !== changed[from]) {
        const type = changed[from] === 1 ? 'minor_changes' : 'identical';
        firstItems.push(item(first, type, aStart + from, w - from));
        secondItems.push(item(second, type, bStart + from, w - from));
        from = w;
      }
    }
  }
  return { first: firstItems, second: secondItems };
}
