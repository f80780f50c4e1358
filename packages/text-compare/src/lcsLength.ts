/**
 * Length of a longest common subsequence, bit-parallel (Allison and Dix 1986, "A bit-string longest-common-
 * subsequence algorithm"; Hyyrö 2004, "Bit-parallel LCS-length computation revisited"): the shorter side is a
 * bit vector of 32-bit words, each word of the other side updates it in ⌈N / 32⌉ word operations, so the length
 * costs O(N · M / 32) where Myers' algorithm, which also recovers the path, costs O((N + M) · D). It tells the
 * alignment, before it runs Myers, whether a region can be matched within its edit budget.
 */

/** Scratch reused across calls: a slot per word id (-1 when unused) and the match masks. */
export interface LcsScratch {
  slot: Int32Array;
  masks: Int32Array;
  vector: Int32Array;
}

let spareLcsScratch: LcsScratch | undefined;

/** A scratch for ids below `idLimit`: the one given back last when large enough, else a new one. */
export function takeLcsScratch(idLimit: number): LcsScratch {
  const spare = spareLcsScratch;
  spareLcsScratch = undefined;
  if (spare !== undefined && spare.slot.length >= idLimit) return spare;
  return createLcsScratch(idLimit + (idLimit >>> 3));
}

/** Keeps `scratch` for the next `takeLcsScratch`: its slots must be -1 again, as they are after `lcsLength`. */
export function giveBackLcsScratch(scratch: LcsScratch): void {
  spareLcsScratch = scratch;
}

export function createLcsScratch(idLimit: number): LcsScratch {
  return { slot: new Int32Array(idLimit).fill(-1), masks: new Int32Array(1024), vector: new Int32Array(64) };
}

/** Ones in a 32-bit integer. */
function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

/**
 * Length of a longest common subsequence of `a[a0, a1)` and `b[b0, b1)` (word ids below the scratch's
 * `idLimit`). With `atLeast` > 0 it may stop early once the length cannot reach `atLeast`, and then returns
 * some value below `atLeast`; whenever the length is `atLeast` or more it is returned exactly.
 */
export function lcsLength(
  a: Int32Array, a0: number, a1: number,
  b: Int32Array, b0: number, b1: number,
  scratch: LcsScratch, atLeast = 0,
): number {
  // The bit vector runs over the shorter side x; the rows are the words of the longer side y.
  let x = a;
  let x0 = a0;
  let x1 = a1;
  let y = b;
  let y0 = b0;
  let y1 = b1;
  if (a1 - a0 > b1 - b0) {
    x = b; x0 = b0; x1 = b1;
    y = a; y0 = a0; y1 = a1;
  }
  const n = x1 - x0;
  if (n <= 0 || y1 <= y0 || n < atLeast) return 0;
  const words = (n + 31) >>> 5;
  const { slot } = scratch;
  // Slots: -2 for an id of y, then a mask number for an id of y that x has too.
  for (let j = y0; j < y1; j++) slot[y[j]!] = -2;
  let maskCount = 0;
  for (let i = x0; i < x1; i++) {
    const id = x[i]!;
    if (slot[id] === -2) slot[id] = maskCount++;
  }
  if (scratch.masks.length < maskCount * words) scratch.masks = new Int32Array(Math.max(maskCount * words, 2 * scratch.masks.length));
  if (scratch.vector.length < words) scratch.vector = new Int32Array(Math.max(words, 2 * scratch.vector.length));
  const masks = scratch.masks;
  const v = scratch.vector;
  masks.fill(0, 0, maskCount * words);
  for (let i = x0; i < x1; i++) {
    const s = slot[x[i]!]!;
    if (s >= 0) masks[s * words + ((i - x0) >>> 5)]! |= 1 << ((i - x0) & 31);
  }
  // Rows whose word x lacks leave the vector as it is: only the others count, and bound what is left to gain.
  let rowsLeft = 0;
  for (let j = y0; j < y1; j++) if (slot[y[j]!]! >= 0) rowsLeft++;
  v.fill(-1, 0, words);
  let length = 0;
  let sinceCheck = 0;
  for (let j = y0; j < y1; j++) {
    const s = slot[y[j]!]!;
    if (s < 0) continue;
    const base = s * words;
    let carry = 0;
    for (let w = 0; w < words; w++) {
      const vw = v[w]!;
      const u = vw & masks[base + w]!;
      if ((u | carry) === 0) continue;
      const sum = (vw >>> 0) + (u >>> 0) + carry;
      carry = sum > 0xffffffff ? 1 : 0;
      v[w] = sum | (vw & ~u);
    }
    rowsLeft--;
    if (atLeast > 0 && ++sinceCheck === 32) {
      sinceCheck = 0;
      length = zeros(v, n);
      if (length + rowsLeft < atLeast) break;
    }
  }
  length = zeros(v, n);
  for (let j = y0; j < y1; j++) slot[y[j]!] = -1;
  return length;
}

/** Zero bits among the first `n` bits of `v`: the common subsequence's length. */
function zeros(v: Int32Array, n: number): number {
  let ones = 0;
  const full = n >>> 5;
  for (let w = 0; w < full; w++) ones += popcount(v[w]!);
  if ((n & 31) !== 0) ones += popcount(v[full]! & ((1 << (n & 31)) - 1));
  return n - ones;
}
