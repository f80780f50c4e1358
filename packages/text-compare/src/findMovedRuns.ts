import { alignSequences } from './alignSequences.js';
import { sortRuns } from './sortRuns.js';

/** Rounds of the search: each finds blocks that crossed the runs known before it. */
const MAX_PASSES = 3;

/**
 * The words of `ids` not `matched`, each maximal stretch of them followed by a sentinel id (`firstSentinel`, then
 * one more each time), with the position of each in `ids` (-1 for a sentinel); `sentinel` is the next free id.
 * The stretches are found with `indexOf` on `matched`, which skips the long matched runs natively.
 */
function unmatched(
  ids: Int32Array, matched: Uint8Array, firstSentinel: number,
): { ids: Int32Array; origin: Int32Array; sentinel: number } {
  const stretches: number[] = [];
  let count = 0;
  for (let start = matched.indexOf(0); start !== -1;) {
    let end = matched.indexOf(1, start);
    if (end === -1) end = ids.length;
    stretches.push(start, end);
    count += end - start + 1;
    start = end === ids.length ? -1 : matched.indexOf(0, end);
  }
  const out = new Int32Array(count);
  const origin = new Int32Array(count);
  let k = 0;
  let sentinel = firstSentinel;
  for (let s = 0; s < stretches.length; s += 2) {
    for (let i = stretches[s]!; i < stretches[s + 1]!; i++) {
      out[k] = ids[i]!;
      origin[k++] = i;
    }
    out[k] = sentinel++;
    origin[k++] = -1;
  }
  return { ids: out, origin, sentinel };
}

/**
 * Blocks that moved: common runs of at least `minMovedWords` words between the words that `runs` (an in-order
 * alignment) leaves unmatched, found by aligning the unmatched stretches of both sides again with anchors only.
 * Each stretch is closed by a sentinel id that matches nothing, so a run never spans two stretches.
 * Returns every run, the given ones and the moved ones, as flat triples sorted by `aStart`.
 */
export function findMovedRuns(
  a: Int32Array, b: Int32Array, idLimit: number, runs: Int32Array, minMovedWords: number,
): Int32Array {
  let all = runs;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const matchedA = new Uint8Array(a.length);
    const matchedB = new Uint8Array(b.length);
    for (let r = 0; r < all.length; r += 3) {
      matchedA.fill(1, all[r]!, all[r]! + all[r + 2]!);
      matchedB.fill(1, all[r + 1]!, all[r + 1]! + all[r + 2]!);
    }
    const restA = unmatched(a, matchedA, idLimit);
    const restB = unmatched(b, matchedB, restA.sentinel);
    const sentinel = restB.sentinel;
    if (restA.ids.length < minMovedWords || restB.ids.length < minMovedWords) break;
    const moved = alignSequences(restA.ids, restB.ids, sentinel, { minAnchorWords: minMovedWords, anchorsOnly: true });
    if (moved.length === 0) break;
    const merged = Array.from(all);
    for (let r = 0; r < moved.length; r += 3) {
      merged.push(restA.origin[moved[r]!]!, restB.origin[moved[r + 1]!]!, moved[r + 2]!);
    }
    all = sortRuns(merged);
  }
  return all;
}
