/**
 * Anchors split a large region of the alignment into smaller ones: common runs of words that are very likely
 * the same passage on both sides, because they contain a word that is rare in the region.
 */

/** Occurrences above which a word is too common to anchor on (as in git's histogram diff). */
const MAX_CHAIN = 64;

/** Scratch arrays indexed by word id or by position, reused across regions; counts are left at zero. */
export interface AnchorScratch {
  countA: Int32Array;
  countB: Int32Array;
  posB: Int32Array;
  headA: Int32Array;
  nextA: Int32Array;
  /** The Fenwick trees of `heaviestChain`, grown as needed and cleared by it before use. */
  treeWeight: Float64Array;
  treeRun: Int32Array;
}

/** A scratch handed back by `giveBackAnchorScratch`, for the next alignment. */
let spareScratch: AnchorScratch | undefined;

/**
 * A scratch for ids below `idLimit` and an a side of `aLength` words: the one given back last when it is large
 * enough (a comparison aligns several times; fresh arrays cost more than the alignment of a lightly edited pair's
 * largest region), else a new one.
 */
export function takeAnchorScratch(idLimit: number, aLength: number): AnchorScratch {
  const spare = spareScratch;
  spareScratch = undefined;
  if (spare !== undefined && spare.countA.length >= idLimit && spare.nextA.length >= aLength) return spare;
  return createAnchorScratch(idLimit + (idLimit >>> 3), aLength + (aLength >>> 3));
}

/** Keeps `scratch` for the next `takeAnchorScratch`: its counts must be zero and `headA` -1 again, as they are
 * after `uniqueAnchors` and `histogramAnchor`. */
export function giveBackAnchorScratch(scratch: AnchorScratch): void {
  spareScratch = scratch;
}

export function createAnchorScratch(idLimit: number, aLength: number): AnchorScratch {
  return {
    countA: new Int32Array(idLimit),
    countB: new Int32Array(idLimit),
    posB: new Int32Array(idLimit),
    headA: new Int32Array(idLimit).fill(-1),
    nextA: new Int32Array(aLength),
    treeWeight: new Float64Array(0),
    treeRun: new Int32Array(0),
  };
}

/**
 * Patience anchors: words that occur exactly once in each side of the region, each extended into its maximal
 * common run; runs shorter than `minRun` are dropped, and of the rest the in-order, non-overlapping chain with
 * the most words is kept (a heaviest increasing subsequence, found with a Fenwick tree of prefix maxima).
 * Returns flat triples `[aStart, bStart, length, ...]`, increasing on both sides.
 */
export function uniqueAnchors(
  a: Int32Array, a0: number, a1: number,
  b: Int32Array, b0: number, b1: number,
  minRun: number, scratch: AnchorScratch,
): number[] {
  const { countA, countB, posB } = scratch;
  countWords(a, a0, a1, countA);
  countWordsAndPlace(b, b0, b1, countB, posB);
  const runs = uniqueRuns(a, a0, a1, b, b0, b1, minRun, countA, countB, posB);
  clearCounts(a, a0, a1, countA);
  clearCounts(b, b0, b1, countB);
  return runs.length === 0 ? runs : heaviestChain(runs, b0, b1, scratch);
}

// The loops of `uniqueAnchors` are functions of their own: V8 compiles a long loop on its own (on-stack
// replacement) before the code after it has run, and a function holding several such loops was measured to
// give up its compiled code on every call on Node 20 (hundreds of deoptimisations per comparison).

/** Adds each word of `ids[from, to)` to `count`. */
function countWords(ids: Int32Array, from: number, to: number, count: Int32Array): void {
  for (let i = from; i < to; i++) count[ids[i]!]!++;
}

/** Adds each word of `ids[from, to)` to `count` and sets `place` to its last position. */
function countWordsAndPlace(ids: Int32Array, from: number, to: number, count: Int32Array, place: Int32Array): void {
  for (let j = from; j < to; j++) {
    const id = ids[j]!;
    count[id]!++;
    place[id] = j;
  }
}

/** Sets `count` back to zero for the words of `ids[from, to)`. */
function clearCounts(ids: Int32Array, from: number, to: number, count: Int32Array): void {
  for (let i = from; i < to; i++) count[ids[i]!] = 0;
}

/** The maximal common runs through the words unique to both sides, `minRun` long or more (see `uniqueAnchors`). */
function uniqueRuns(
  a: Int32Array, a0: number, a1: number,
  b: Int32Array, b0: number, b1: number,
  minRun: number, countA: Int32Array, countB: Int32Array, posB: Int32Array,
): number[] {
  const runs: number[] = [];
  let coveredUntil = a0;
  for (let i = a0; i < a1; i++) {
    const id = a[i]!;
    if (i < coveredUntil || countA[id] !== 1 || countB[id] !== 1) continue;
    let s = i;
    let t = posB[id]!;
    // Runs stay disjoint and in order on the a side: extend back no further than the previous run's end.
    while (s > coveredUntil && t > b0 && a[s - 1] === b[t - 1]) {
      s--;
      t--;
    }
    let e = i + 1;
    let f = posB[id]! + 1;
    while (e < a1 && f < b1 && a[e] === b[f]) {
      e++;
      f++;
    }
    // A later unique word inside [s, e) lies on the same run, since it occurs once in b.
    coveredUntil = e;
    if (e - s >= minRun) runs.push(s, t, e - s);
  }
  return runs;
}

/** The chain of runs, increasing and disjoint on both sides, with the most words in total. */
function heaviestChain(runs: number[], b0: number, b1: number, scratch: AnchorScratch): number[] {
  const count = runs.length / 3;
  const size = b1 - b0 + 1;
  if (scratch.treeWeight.length < size + 1) {
    scratch.treeWeight = new Float64Array(size + 1 + ((size + 1) >>> 3));
    scratch.treeRun = new Int32Array(scratch.treeWeight.length);
  }
  // Fenwick tree over the run's end in b (relative, 1-based): best chain weight ending at or before it.
  const treeWeight = scratch.treeWeight.fill(0, 0, size + 1);
  const treeRun = scratch.treeRun.fill(-1, 0, size + 1);
  const chainWeight = new Float64Array(count);
  const previous = new Int32Array(count);
  let bestRun = -1;
  let bestWeight = 0;
  for (let r = 0; r < count; r++) {
    const bStart = runs[3 * r + 1]! - b0;
    const length = runs[3 * r + 2]!;
    let weight = 0;
    let from = -1;
    for (let p = bStart; p > 0; p -= p & -p) {
      if (treeWeight[p]! > weight) {
        weight = treeWeight[p]!;
        from = treeRun[p]!;
      }
    }
    weight += length;
    chainWeight[r] = weight;
    previous[r] = from;
    if (weight > bestWeight) {
      bestWeight = weight;
      bestRun = r;
    }
    for (let p = bStart + length; p <= size; p += p & -p) {
      if (weight > treeWeight[p]!) {
        treeWeight[p] = weight;
        treeRun[p] = r;
      }
    }
  }
  const chain: number[] = [];
  for (let r = bestRun; r !== -1; r = previous[r]!) chain.push(runs[3 * r + 2]!, runs[3 * r + 1]!, runs[3 * r]!);
  return chain.reverse();
}

/**
 * Histogram anchor, for regions without a usable unique word (repeated text): the longest common run that
 * contains a word occurring at most MAX_CHAIN times in the a side of the region, ties going to the rarer word.
 * Returns `[aStart, bStart, length]`, or an empty array when no such run has `minRun` words.
 */
export function histogramAnchor(
  a: Int32Array, a0: number, a1: number,
  b: Int32Array, b0: number, b1: number,
  minRun: number, scratch: AnchorScratch,
): number[] {
  const { countA, headA, nextA } = scratch;
  for (let i = a1 - 1; i >= a0; i--) {
    const id = a[i]!;
    nextA[i] = headA[id]!;
    headA[id] = i;
    countA[id]!++;
  }
  let bestLength = 0;
  let bestCount = Infinity;
  let bestA = 0;
  let bestB = 0;
  let j = b0;
  while (j < b1) {
    const count = countA[b[j]!]!;
    let nextJ = j + 1;
    if (count > 0 && count <= MAX_CHAIN) {
      for (let i = headA[b[j]!]!; i !== -1; i = nextA[i]!) {
        let s = i;
        let t = j;
        while (s > a0 && t > b0 && a[s - 1] === b[t - 1]) {
          s--;
          t--;
        }
        let e = i + 1;
        let f = j + 1;
        while (e < a1 && f < b1 && a[e] === b[f]) {
          e++;
          f++;
        }
        const length = e - s;
        if (length > bestLength || (length === bestLength && count < bestCount)) {
          bestLength = length;
          bestCount = count;
          bestA = s;
          bestB = t;
        }
        if (f > nextJ) nextJ = f;
      }
    }
    j = nextJ;
  }
  for (let i = a0; i < a1; i++) {
    headA[a[i]!] = -1;
    countA[a[i]!] = 0;
  }
  return bestLength >= minRun ? [bestA, bestB, bestLength] : [];
}
