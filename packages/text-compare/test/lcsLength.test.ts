import { describe, expect, it } from 'vitest';
import { alignSequences } from '../src/alignSequences.js';
import { createLcsScratch, lcsLength } from '../src/lcsLength.js';
import { myersDiff } from '../src/myersDiff.js';
import { seededRandom } from './helpers.js';

/** Reference: the textbook O(N · M) dynamic programme. */
function lcsByTable(a: Int32Array, b: Int32Array): number {
  let previous = new Int32Array(b.length + 1);
  let row = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      row[j] = a[i - 1] === b[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, row[j - 1]!);
    }
    [previous, row] = [row, previous];
  }
  return previous[b.length]!;
}

function randomIds(random: () => number, length: number, alphabet: number): Int32Array {
  return Int32Array.from({ length }, () => Math.floor(random() * alphabet));
}

/** `a` with about `rate` of its ids replaced, deleted or followed by an insertion. */
function edited(random: () => number, a: Int32Array, rate: number, alphabet: number): Int32Array {
  const out: number[] = [];
  for (const id of a) {
    const r = random();
    if (r >= rate) out.push(id);
    else if (r < rate / 3) out.push(Math.floor(random() * alphabet));
    else if (r >= (2 * rate) / 3) out.push(id, Math.floor(random() * alphabet));
  }
  return Int32Array.from(out);
}

describe('lcsLength', () => {
  it('equals the dynamic programme on random sequences of every length around the 32-bit word size', () => {
    const random = seededRandom(7);
    const scratch = createLcsScratch(64);
    for (let trial = 0; trial < 300; trial++) {
      const alphabet = 2 + (trial % 40);
      const a = randomIds(random, Math.floor(random() * 140), alphabet);
      const b = trial % 2 === 0 ? randomIds(random, Math.floor(random() * 140), alphabet) : edited(random, a, 0.3, alphabet);
      expect(lcsLength(a, 0, a.length, b, 0, b.length, scratch), `trial ${trial}`).toBe(lcsByTable(a, b));
    }
  });

  it('works on windows, and equals n + m - D of Myers', () => {
    const random = seededRandom(11);
    const scratch = createLcsScratch(30);
    for (let trial = 0; trial < 100; trial++) {
      const a = randomIds(random, 200, 30);
      const b = edited(random, a, 0.4, 30);
      const a0 = Math.floor(random() * 50);
      const a1 = 100 + Math.floor(random() * 100);
      const b0 = Math.floor(random() * 50);
      const b1 = Math.max(b0, b.length - Math.floor(random() * 50));
      const expected = lcsByTable(a.subarray(a0, a1), b.subarray(b0, b1));
      expect(lcsLength(a, a0, a1, b, b0, b1, scratch)).toBe(expected);
      const runs = myersDiff(a, a0, a1, b, b0, b1, 1000)!;
      let kept = 0;
      for (let r = 2; r < runs.length; r += 3) kept += runs[r]!;
      expect(kept).toBe(expected);
    }
  });

  it('with a threshold, is exact at or above it and below it otherwise', () => {
    const random = seededRandom(13);
    const scratch = createLcsScratch(20);
    for (let trial = 0; trial < 200; trial++) {
      const a = randomIds(random, 50 + Math.floor(random() * 400), 20);
      const b = randomIds(random, 50 + Math.floor(random() * 400), 20);
      const exact = lcsByTable(a, b);
      const atLeast = Math.max(1, exact + Math.floor(random() * 80) - 40);
      const got = lcsLength(a, 0, a.length, b, 0, b.length, scratch, atLeast);
      if (exact >= atLeast) expect(got).toBe(exact);
      else expect(got).toBeLessThan(atLeast);
    }
  });

  it('returns 0 for empty sides and leaves its scratch clean', () => {
    const scratch = createLcsScratch(8);
    const a = Int32Array.from([1, 2, 3]);
    expect(lcsLength(a, 0, 0, a, 0, 3, scratch)).toBe(0);
    expect(lcsLength(a, 0, 3, a, 3, 3, scratch)).toBe(0);
    expect(lcsLength(a, 0, 3, a, 0, 3, scratch)).toBe(3);
    expect(Array.from(scratch.slot)).toEqual(new Array(8).fill(-1));
  });
});

describe('alignSequences with and without the LCS gate', () => {
  it('gives the same runs on random, edited, unrelated and repetitive sequences', () => {
    const random = seededRandom(17);
    for (let trial = 0; trial < 48; trial++) {
      const alphabet = [4, 20, 300, 3000][trial % 4]!;
      const a = randomIds(random, 100 + Math.floor(random() * 1200), alphabet);
      const b = trial % 3 === 0 ? randomIds(random, 100 + Math.floor(random() * 1200), alphabet) : edited(random, a, [0.05, 0.3, 0.6][trial % 3]!, alphabet);
      for (const minAnchorWords of [1, 3, 6]) {
        for (const anchorsOnly of [false, true]) {
          const gated = alignSequences(a, b, alphabet, { minAnchorWords, anchorsOnly });
          const plain = alignSequences(a, b, alphabet, { minAnchorWords, anchorsOnly, lcsGate: false });
          expect(Array.from(gated), `trial ${trial}`).toEqual(Array.from(plain));
        }
      }
    }
  });
});
