import { giveBackAnchorScratch, histogramAnchor, takeAnchorScratch, uniqueAnchors } from './findAnchors.js';
import { giveBackLcsScratch, lcsLength, takeLcsScratch } from './lcsLength.js';
import { myersDiff } from './myersDiff.js';
import { sortRuns } from './sortRuns.js';

/** How `alignSequences` treats regions. */
export interface AlignSettings {
  /** Shortest common run accepted as an anchor (and as a stripped common prefix or suffix). */
  minAnchorWords: number;
  /** Leave regions without an anchor unmatched instead of giving them to the exact diff. */
  anchorsOnly: boolean;
  /**
   * Measure the longest common subsequence of a region (bit-parallel, `lcsLength`) before running Myers on it, and
   * skip Myers when it would exceed its budget. The result is the same either way; only tests turn it off.
   * @default true
   */
  lcsGate?: boolean;
}

/** Regions with fewer words than this (both sides together) go to Myers directly: its failure costs little. */
const LCS_GATE_WORDS = 64;

/**
 * Work, as (N + M) · D, that the exact diff may always spend on one region: a few milliseconds. Regions that
 * need more draw on a budget shared by the whole alignment (`SHARED_TERMINAL_COST`), so that a large anchorless
 * but similar region (highly repetitive text) is still aligned, while dissimilar text stays linear in total.
 */
const TERMINAL_COST = 4_000_000;
const SHARED_TERMINAL_COST = 200_000_000;
/** Bound on D for the exact diff of one region: keeps its trace (D²/2 integers) to a few megabytes. */
const MAX_TERMINAL_EDITS = 2_000;

/**
 * Aligns two sequences of word ids (each id below `idLimit`): common runs, in order on both sides, as flat
 * triples `[aStart, bStart, length, ...]` sorted by `aStart`.
 *
 * Regions are taken from an explicit stack. Each one loses its common prefix and suffix (when at least
 * `minAnchorWords` long), then is split on patience anchors (words unique to both sides of the region), or
 * failing those on one histogram anchor (the longest run through a rare word). A region without anchors goes
 * to an exact Myers diff with an edit budget of max(N, M), that is it is matched only when at least half the
 * words of its shorter side can be kept; otherwise, or when the budget in time is spent, it stays unmatched.
 * Total work is O((N + M) · log) for the anchors plus a bounded amount for the exact diffs: never quadratic.
 */
export function alignSequences(a: Int32Array, b: Int32Array, idLimit: number, settings: AlignSettings): Int32Array {
  const k = settings.minAnchorWords;
  const scratch = takeAnchorScratch(idLimit, a.length);
  // Only the exact diff, which `anchorsOnly` never runs, needs the LCS gate.
  const lcsScratch = settings.lcsGate === false || settings.anchorsOnly ? undefined : takeLcsScratch(idLimit);
  const found: number[] = [];
  const stack: number[] = [0, a.length, 0, b.length];
  let sharedCost = SHARED_TERMINAL_COST;
  while (stack.length > 0) {
    let b1 = stack.pop()!;
    let b0 = stack.pop()!;
    let a1 = stack.pop()!;
    let a0 = stack.pop()!;
    if (a0 >= a1 || b0 >= b1) continue;
    let prefix = 0;
    while (a0 + prefix < a1 && b0 + prefix < b1 && a[a0 + prefix] === b[b0 + prefix]) prefix++;
    if (prefix >= k) {
      found.push(a0, b0, prefix);
      a0 += prefix;
      b0 += prefix;
    }
    let suffix = 0;
    while (a1 - suffix > a0 && b1 - suffix > b0 && a[a1 - 1 - suffix] === b[b1 - 1 - suffix]) suffix++;
    if (suffix >= k) {
      found.push(a1 - suffix, b1 - suffix, suffix);
      a1 -= suffix;
      b1 -= suffix;
    }
    if (a0 >= a1 || b0 >= b1) continue;

    let anchors = uniqueAnchors(a, a0, a1, b, b0, b1, k, scratch);
    if (anchors.length === 0) anchors = histogramAnchor(a, a0, a1, b, b0, b1, k, scratch);
    if (anchors.length > 0) {
      let fromA = a0;
      let fromB = b0;
      for (let r = 0; r < anchors.length; r += 3) {
        const aStart = anchors[r]!;
        const bStart = anchors[r + 1]!;
        const length = anchors[r + 2]!;
        stack.push(fromA, aStart, fromB, bStart);
        found.push(aStart, bStart, length);
        fromA = aStart + length;
        fromB = bStart + length;
      }
      stack.push(fromA, a1, fromB, b1);
      continue;
    }
    if (settings.anchorsOnly) continue;

    const n = a1 - a0;
    const m = b1 - b0;
    const cost = Math.max(TERMINAL_COST, sharedCost);
    const budget = Math.min(Math.max(n, m), MAX_TERMINAL_EDITS, Math.floor(cost / (n + m)));
    // Myers succeeds exactly when D = n + m - 2 · LCS is within its budget, so a region whose LCS is too short is
    // known to stay unmatched after O(n · m / 32) word operations instead of the (n + m) · budget Myers spends.
    const maxEdits = Math.min(budget, n + m);
    const tooFar = lcsScratch !== undefined && n + m >= LCS_GATE_WORDS &&
      lcsLength(a, a0, a1, b, b0, b1, lcsScratch, Math.ceil((n + m - maxEdits) / 2)) < (n + m - maxEdits) / 2;
    const runs = tooFar ? null : myersDiff(a, a0, a1, b, b0, b1, budget);
    let kept = 0;
    if (runs !== null) {
      for (let r = 0; r < runs.length; r += 3) kept += runs[r + 2]!;
      for (const value of runs) found.push(value);
    }
    const spent = (n + m) * (runs === null ? budget : n + m - 2 * kept);
    if (spent > TERMINAL_COST) sharedCost = Math.max(0, sharedCost - spent);
  }
  // Handed back only after a run that finished: the scratch is clean again then.
  giveBackAnchorScratch(scratch);
  if (lcsScratch !== undefined) giveBackLcsScratch(lcsScratch);
  return sortRuns(found);
}
