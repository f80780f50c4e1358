import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { wordSpans } from '@content-analysis/credits';
import { describe, expect, it } from 'vitest';
import { tokenize, tokenizePair } from '../src/tokenize.js';
import type { TokenizedText } from '../src/tokenize.js';
import { Vocabulary, wordHash } from '../src/vocabulary.js';
import { wordKey } from '../src/wordKey.js';
import { seededRandom } from './helpers.js';

/**
 * `tokenize` and `tokenizePair` look words and keys up by hash in typed arrays (and the pair takes repeated lines of
 * the second text from the first); this is the straightforward version they must agree
 * with: `wordSpans`, then a Map from each word as written to its raw id and a Map from its `wordKey` to its key
 * id, ids given in order of first occurrence over both texts.
 */
function referenceIds(texts: string[]): { raws: Int32Array; keys: Int32Array }[] {
  const rawIds = new Map<string, number>();
  const keyIds = new Map<string, number>();
  return texts.map((text) => {
    const spans = wordSpans(text);
    const raws = new Int32Array(spans.length / 2);
    const keys = new Int32Array(spans.length / 2);
    for (let w = 0; w < raws.length; w++) {
      const word = text.slice(spans[2 * w], spans[2 * w + 1]);
      if (!rawIds.has(word)) rawIds.set(word, rawIds.size);
      const key = wordKey(word);
      if (!keyIds.has(key)) keyIds.set(key, keyIds.size);
      raws[w] = rawIds.get(word)!;
      keys[w] = keyIds.get(key)!;
    }
    return { raws, keys };
  });
}

function expectSameAsReference(first: string, second: string, expectedWords?: number): void {
  const want = referenceIds([first, second]);
  const sequential = new Vocabulary(expectedWords);
  const paired = new Vocabulary(expectedWords);
  // tokenize reads each text in full; tokenizePair takes the second text's repeated lines from the first.
  const runs: Array<[Vocabulary, TokenizedText[]]> = [
    [sequential, [tokenize(first, sequential), tokenize(second, sequential)]],
    [paired, tokenizePair(first, second, paired)],
  ];
  for (const [vocabulary, got] of runs) {
    for (let t = 0; t < 2; t++) {
      const text = t === 0 ? first : second;
      expect(Array.from(got[t]!.spans)).toEqual(Array.from(wordSpans(text)));
      // Compared as whole arrays: a mismatch names the first differing word.
      expect(Array.from(got[t]!.raws)).toEqual(Array.from(want[t]!.raws));
      expect(Array.from(got[t]!.keys)).toEqual(Array.from(want[t]!.keys));
    }
    expect(vocabulary.keyCount).toBe(Math.max(-1, ...want.flatMap((w) => Array.from(w.keys))) + 1);
    expect(vocabulary.rawCount).toBe(Math.max(-1, ...want.flatMap((w) => Array.from(w.raws))) + 1);
  }
}

/** A copy of `text` with about `rate` of its words dropped, doubled, upper-cased or swapped with the next. */
function edited(text: string, seed: number, rate: number): string {
  const random = seededRandom(seed);
  const words = text.split(/(\s+)/);
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const r = random();
    if (r < rate / 4) continue;
    if (r < rate / 2) out.push(word, ' ', word);
    else if (r < (3 * rate) / 4) out.push(word.toUpperCase());
    else if (r < rate && i + 2 < words.length) {
      out.push(words[i + 2]!, words[i + 1]!, word);
      i += 2;
    } else out.push(word);
  }
  return out.join('');
}

/**
 * Two different words of six ASCII letters with the same `wordHash` (a birthday search, deterministic; lower-case
 * words of five letters never collide under it).
 */
function collidingWords(lower: boolean): [string, string] {
  const random = seededRandom(lower ? 11 : 12);
  const seen = new Map<number, string>();
  for (;;) {
    let word = '';
    for (let i = 0; i < 6; i++) word += String.fromCharCode((lower ? 97 : 65) + Math.floor(random() * 26));
    const hash = wordHash(word, 0, word.length);
    const other = seen.get(hash);
    if (other !== undefined && other !== word) return [other, word];
    seen.set(hash, word);
  }
}

describe('tokenize against a Map-based reference', () => {
  it('agrees on made-up text with accents, ligatures, case folding, apostrophes, CJK and emoji', () => {
    const first = 'Straße STRASSE strasse ﬁne fine FINE Kelvin K k don’t don\'t DON’T ʼquoteʼ naïve NAÏVE ' +
      '東京は日本の首都です。東京タワー 2024年 😀 smile 😀 e.g. U.S. 1,234.5 a_b __ _ İstanbul ıstanbul';
    const second = 'fine ﬁne Straße strasse k K don\'t DON\'T 東京の天気 😀 1,234.5 İSTANBUL naive naïve';
    expectSameAsReference(first, second);
    expectSameAsReference(second, first);
    expectSameAsReference('', first);
    expectSameAsReference(first, '');
  });

  it('tells apart words whose hashes collide, as written and as keys', () => {
    const [a, b] = collidingWords(false);
    const [c, d] = collidingWords(true);
    expect(wordHash(a, 0, 6)).toBe(wordHash(b, 0, 6));
    expect(wordHash(c, 0, 6)).toBe(wordHash(d, 0, 6));
    // Upper-case words that collide as written, lower-case ones whose keys collide (and their upper-case forms).
    const first = `${a} ${b} ${c} ${d} ${a} ${c.toUpperCase()}`;
    const second = `${b} ${a} ${d.toUpperCase()} ${d} ${c}`;
    expectSameAsReference(first, second);
  });

  it('agrees when the second text repeats lines of the first next to non-ASCII text, segmenter pieces and CR LF', () => {
    const lines = [
      'The committee met on Tuesday to discuss the budget.',
      'Résumé writing is an art, said the café owner’s daughter.',
      '中文的句子在这里 and then some plain English words follow.',
      'Plain ASCII line that follows a non-ASCII one exactly.',
      '   indented line with trailing spaces and tabs\t\t  ',
      'ends with non-ASCII text: naïve',
      'starts plain but the next line starts with CJK',
      '東京 is where this line starts, then plain words.',
      'a line with a no\u2011break hyphen and\u00a0a no-break space',
      '-- ... !!! ??? (punctuation only, no words?) ...',
      '______________________________',
      'x',
      '',
      'Emoji 😀 sit in the middle of this plain sentence.',
      'e\u0301 combining marks at the start of the line here',
    ];
    const random = seededRandom(8);
    for (let run = 0; run < 200; run++) {
      const pick = (count: number): string[] => Array.from({ length: count }, () => lines[Math.floor(random() * lines.length)]!);
      const a = pick(1 + Math.floor(random() * 12));
      // The second text: lines of the first in order with some dropped, repeated, edited or new ones between.
      const b: string[] = [];
      for (const line of a) {
        const r = random();
        if (r < 0.1) continue;
        if (r < 0.2) b.push(...pick(1));
        else if (r < 0.3) b.push(line.replace(/e/, 'é'));
        else if (r < 0.35) b.push(`${line} ${line}`);
        b.push(line);
      }
      const eol = run % 5 === 0 ? '\r\n' : '\n';
      const first = a.join(eol);
      const second = (run % 7 === 0 ? a.reverse() : b).join(random() < 0.8 ? eol : '\n\n');
      expectSameAsReference(first, second);
      expectSameAsReference(second, first);
    }
  });

  it('agrees when the tables start small and grow many times', () => {
    const random = seededRandom(5);
    const words: string[] = [];
    for (let i = 0; i < 30_000; i++) words.push(Math.floor(random() * 1e9).toString(36) + (i % 3 === 0 ? 'X' : ''));
    const first = words.join(' ');
    expectSameAsReference(first, edited(first, 6, 0.2), 0);
  });
});

const datasets = resolve(process.env.CONTENT_ANALYSIS_DATASETS ?? join(import.meta.dirname, '../../../../shared/datasets'));
const m4 = join(datasets, 'aitext/m4_llama2/m4_llama2_examples.jsonl');

/** Human texts of the shared M4 set in one language, joined by blank lines up to about `chars` characters. */
function humanProse(lang: string, chars: number, skip: number): string {
  let out = '';
  let index = 0;
  for (const line of readFileSync(m4, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const row = JSON.parse(line) as { text: string; label: string; lang?: string };
    if (row.label !== 'human' || (row.lang ?? 'en') !== lang || index++ < skip) continue;
    out += (out === '' ? '' : '\n\n') + row.text;
    if (out.length >= chars) break;
  }
  return out.slice(0, chars);
}

describe.skipIf(!existsSync(m4))('tokenize against the reference on real prose (shared M4 set)', () => {
  for (const lang of ['en', 'de', 'ru', 'id', 'zh']) {
    it(`${lang}: edited, lightly edited, unrelated and repetitive pairs`, () => {
      const first = humanProse(lang, 30_000, 0);
      const other = humanProse(lang, 30_000, 20);
      expect(first.length).toBeGreaterThan(5_000);
      expectSameAsReference(first, edited(first, 1, 0.1));
      expectSameAsReference(first, edited(first, 2, 0.03));
      expectSameAsReference(first, other);
      expectSameAsReference(first.slice(0, 3_000).repeat(6), edited(first.slice(0, 3_000), 3, 0.2).repeat(4));
    });
  }
});
