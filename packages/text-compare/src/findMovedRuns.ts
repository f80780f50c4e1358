import { alignSequences } from './alignSequences.js';
import { sortRuns } from './sortRuns.js';

/** Rounds of the search: each finds blocks that crossed the runs known before it. */
const MAX_PASSES = 3;

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
    let sentinel = idLimit;
    const left = (ids: Int32Array, matched: Uint8Array): { ids: Int32Array; origin: Int32Array } => {
      let count = 0;
      for (let i = 0; i < ids.length; i++) {
        if (matched[i] === 0) count += i + 1 === ids.length || matched[i + 1] === 1 ? 2 : 1;
      }
      const out = new Int32Array(count);
      const origin = new Int32Array(count);
      let k = 0;
      for (let i = 0; i < ids.length; i++) {
        if (matched[i] === 0) {
          out[k] = ids[i]!;
          origin[k++] = i;
          if (i + 1 === ids.length || matched[i + 1] === 1) {
            out[k] = sentinel++;
            origin[k++] = -1;
          }
        }
      }
      return { ids: out, origin };
    };
    const restA = left(a, matchedA);
    const restB = left(b, matchedB);
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
