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

/** Words of `b` copied from the first text together with the word before them. */
function copiedCount(b: TokenizedText): number {
  return Array.from(b.copiedWithPrevious ?? []).filter((from) => from !== -1).length;
}

/**
 * Words of `edited` that the pair takes from `line` with the word before them: those before the last white space
 * of the code units both lines start with, and those after the first white space of the units both end with
 * (the ends not overlapping in the shorter line).
 */
function sharedEndWords(line: string, edited: string): number {
  const most = Math.min(line.length, edited.length);
  let prefix = 0;
  while (prefix < most && line[prefix] === edited[prefix]) prefix++;
  let suffix = 0;
  while (suffix < most - prefix && line[line.length - 1 - suffix] === edited[edited.length - 1 - suffix]) suffix++;
  const head = edited.slice(0, prefix);
  const headCut = head.search(/\s\S*$/);
  const tail = edited.slice(edited.length - suffix);
  const tailCut = tail.search(/\s/);
  const linked = (text: string): number => Math.max(0, wordSpans(text).length / 2 - 1);
  return (headCut === -1 ? 0 : linked(head.slice(0, headCut))) + (tailCut === -1 ? 0 : linked(tail.slice(tailCut)));
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

  it('takes lines whose segmenter pieces stay inside them, and scans those whose pieces reach the next line', () => {
    // Curly quotes and accents inside lines (pieces that end on the ASCII run after them), CR LF line ends.
    const inner = [
      'She said \u201cnever again\u201d and walked out of the caf\u00e9 at noon.',
      'The na\u00efve plan\u2019s cost was never written down by anyone here.',
    ];
    const first = [...inner, 'A plain line between them, long enough to be taken.'].join('\r\n');
    const opening = 'New opening line that the first text does not have.';
    const second = [opening, inner[1], inner[0], 'New last line.'].join('\r\n');
    expectSameAsReference(first, second);
    // Both lines with pieces are taken whole: every word but the first of each is copied with the one before it.
    const [, b] = tokenizePair(first, second, new Vocabulary());
    const wordsOf = (line: string): number => wordSpans(line).length / 2;
    expect(copiedCount(b)).toBe(wordsOf(inner[0]!) - 1 + wordsOf(inner[1]!) - 1);
  });

  it('takes a line that ends in a piece only where the text after it stops that piece as the first text did', () => {
    const tail = 'The last word of this line is quoted: \u201cdon\u2019t\u201d';
    const first = `${tail}\nand the next line is plain ASCII text.`;
    // After the line: plain text (the piece stops there too), text that is not ASCII (the piece would go on into
    // it, so the line is scanned), or nothing at all.
    const afters = ['\nplain words follow here as well.', '\n\u201cNot\u201d plain: the piece goes on', '', '\n\n\u00e9t\u00e9'];
    for (const after of afters) {
      const second = `Some other opening line of text here.\n${tail}${after}`;
      expectSameAsReference(first, second);
      const [, b] = tokenizePair(first, second, new Vocabulary());
      const taken = after === '' || after.startsWith('\npl');
      expect(copiedCount(b), JSON.stringify(after)).toBe(taken ? wordSpans(tail).length / 2 - 1 : 0);
    }
  });

  it('scans a line of the first text whose piece runs on into the next line', () => {
    // The first line's last run and the next line's first run are both not ASCII: one piece spans the line end.
    const first = 'A line of words that ends in caf\u00e9\n\u00e9t\u00e9 starts the next line of words';
    const second = 'A line of words that ends in caf\u00e9\nplain words instead of the other ones';
    expectSameAsReference(first, second);
    const [, b] = tokenizePair(first, second, new Vocabulary());
    expect(copiedCount(b)).toBe(0);
  });

  it('takes the shared start and end of an edited line and scans only the words between', () => {
    const line = 'The council said on Monday that the U.S. budget of 1,234.5 million was approved in full.';
    const edits = [
      'The council said on Tuesday that the U.S. budget of 1,234.5 million was approved in full.',
      'The council said on Monday that the budget of 1,234.5 million was approved in full.',
      'The council said on Monday that the U.S. budget of 1,234.5 million was never approved in full.',
      'A council said on Monday that the U.S. budget of 1,234.5 million was approved in full.',
      'The council said on Monday that the U.S. budget of 1,234.5 million was approved in part.',
      'The council said on Monday that the na\u00efve \u201cbudget\u201d of 1,234.5 million was approved in full.',
      'The council said on Monday that the U.S. budget of 1,234.5 million was approved in full!',
      'The council said on Monday that the U.S. budget of 1,234.6 million was approved in full.',
    ];
    const opening = 'An opening line that both texts share.';
    const closing = 'A closing line that both texts share too.';
    for (const eol of ['\n', '\r\n']) {
      const first = [opening, line, closing].join(eol);
      for (const edited of edits) {
        const second = [opening, edited, closing].join(eol);
        expectSameAsReference(first, second);
        const [, b] = tokenizePair(first, second, new Vocabulary());
        const linked = (text: string): number => Math.max(0, wordSpans(text).length / 2 - 1);
        const shared = sharedEndWords(line + eol, edited + eol);
        expect(copiedCount(b), edited).toBe(linked(opening) + linked(closing) + shared);
      }
    }
  });

  it('leaves the start and end of an edited line to the scanner when the line it replaces has segmenter pieces', () => {
    const opening = 'Opening line of the text, shared by both.';
    const first = `${opening}\nThe caf\u00e9 on the corner opened at nine on Monday morning.`;
    const second = `${opening}\nThe caf\u00e9 on the corner opened at ten on Monday morning.`;
    expectSameAsReference(first, second);
    const [, b] = tokenizePair(first, second, new Vocabulary());
    // The first line only: the second differs from a line with pieces, whose start and end are scanned again.
    expect(copiedCount(b)).toBe(wordSpans(opening).length / 2 - 1);
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
