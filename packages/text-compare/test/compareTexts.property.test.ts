import { describe, expect, it } from 'vitest';
import { compareTexts } from '../src/index.js';
import { expectConsistent, seededRandom } from './helpers.js';

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'da', 'pe', 'zu', 'ho'];

/** A vocabulary of made-up words drawn with Zipf-like frequencies (weight 1 / (rank + 2)). */
function vocabulary(random: () => number, size: number): () => string {
  const words = new Set<string>();
  while (words.size < size) {
    let word = '';
    for (let i = 1 + Math.floor(random() * 3); i > 0; i--) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    words.add(word);
  }
  const list = [...words];
  const weights = list.map((_, rank) => 1 / (rank + 2));
  const total = weights.reduce((x, y) => x + y, 0);
  return () => {
    let x = random() * total;
    for (let r = 0; r < list.length; r++) if ((x -= weights[r]!) <= 0) return list[r]!;
    return list[list.length - 1]!;
  };
}

interface EditedPair {
  first: string;
  second: string;
  /** Words of the first text neither replaced nor deleted. */
  untouched: number;
  /** Untouched words next to an edit (a replaced or deleted neighbour, or an insertion beside them). */
  besideEdits: number;
}

/** A random text and a copy with about `rate` of its words replaced, deleted or followed by an insertion. */
function editedPair(seed: number, words: number, rate: number): EditedPair {
  const random = seededRandom(seed);
  const draw = vocabulary(random, 300);
  const original = Array.from({ length: words }, draw);
  const edited: string[] = [];
  const kept = new Uint8Array(words);
  const insertedAfter = new Uint8Array(words);
  original.forEach((word, i) => {
    if (random() >= rate) {
      edited.push(word);
      kept[i] = 1;
      return;
    }
    const op = random();
    if (op < 1 / 3) {
      let replacement = draw();
      while (replacement === word) replacement = draw();
      edited.push(replacement);
    } else if (op < 2 / 3) {
      edited.push(word, draw());
      kept[i] = 1;
      insertedAfter[i] = 1;
    }
  });
  let untouched = 0;
  let besideEdits = 0;
  for (let i = 0; i < words; i++) {
    if (kept[i] === 0) continue;
    untouched++;
    const leftEdited = i > 0 && (kept[i - 1] === 0 || insertedAfter[i - 1] === 1);
    const rightEdited = (i + 1 < words && kept[i + 1] === 0) || insertedAfter[i] === 1;
    if (leftEdited || rightEdited) besideEdits++;
  }
  return { first: original.join(' '), second: edited.join(' '), untouched, besideEdits };
}

describe('compareTexts on random edits', () => {
  it('matches at least the untouched words that are not beside an edit, and never more than all words', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rate = 0.05 + (seed % 4) * 0.05;
      const pair = editedPair(seed, 200 + seed * 10, rate);
      const result = compareTexts(pair.first, pair.second);
      expectConsistent(result, pair.first, pair.second);
      for (const side of [result.first_text, result.second_text]) {
        expect(side.matching_word_count, `seed ${seed}`).toBeGreaterThanOrEqual(pair.untouched - pair.besideEdits);
        expect(side.matching_word_count).toBeLessThanOrEqual(side.total_word_count);
      }
    }
  });

  // Speed is measured in benchmarks/text-compare (goal: under 1 s), not here.
  it('finds almost nothing in two unrelated 120k-character texts', () => {
    const random = seededRandom(99);
    const draw = vocabulary(random, 1500);
    const text = () => {
      const words: string[] = [];
      let length = 0;
      while (length < 119_000) {
        const word = draw();
        words.push(word);
        length += word.length + 1;
      }
      return words.join(' ');
    };
    const first = text();
    const second = text();
    const result = compareTexts(first, second);
    expectConsistent(result, first, second);
    expect(result.similarity_score).toBeLessThan(5);
  });
});
