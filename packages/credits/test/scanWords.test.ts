import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createWordScan, scanWords, wordCodeHash, wordSpans } from '../src/index.js';
import type { WordScan } from '../src/index.js';
import { randomInt, seededRandom } from './random.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

function segmenterSpans(text: string): number[] {
  const spans: number[] = [];
  for (const s of segmenter.segment(text)) if (s.isWordLike) spans.push(s.index, s.index + s.segment.length);
  return spans;
}

function scanned(out: WordScan): number[] {
  return Array.from(out.spans.subarray(0, 2 * out.count));
}

/** scanWords of the whole text gives wordSpans' words, each with its wordCodeHash. */
function expectSameAsWordSpans(text: string, capacity?: number): WordScan {
  const out = createWordScan(capacity);
  expect(scanWords(text, out)).toBe(text.length);
  const want = Array.from(wordSpans(text));
  // Compared as whole arrays first: a mismatch shows the text and the first differing span.
  expect(scanned(out), JSON.stringify(text.length > 200 ? text.slice(0, 200) : text)).toEqual(want);
  for (let w = 0; w < out.count; w++) expect(out.hashes[w]).toBe(wordCodeHash(text, want[2 * w]!, want[2 * w + 1]!));
  return out;
}

function randomText(random: () => number, alphabet: string[], length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += alphabet[randomInt(random, 0, alphabet.length - 1)];
  return text;
}

describe('scanWords against wordSpans', () => {
  it('cuts the ASCII joiners, underscores and edges as UAX #29 does', () => {
    const cases = [
      '', ' ', 'a', '_', '__', '_a', 'a_', 'a_b', ' _ ', '_ _', "don't", "'tis", "rock'n'roll", "a''b", 'a..b', 'e.g.',
      'U.S.A', '3.14', '1,234,567.5', '1,a', 'a,1', 'a:b', '1:2', 'a;b', '1;2', 'a.1', '1.a', 'x.', '.x', '...',
      'a-b', 'a--b', 'end.', '"quoted"', '(see)', '12ab34', 'a\tb\nc\rd\fe\vf', 'a b', 'a\u00a0b', 'a\u3000b',
      'ab\u2019cd', 'café', 'naïve', 'e\u0301', '😀', 'a😀b', '中文字', 'ab 中文 cd', 'x\u2003y', 'x\u200by', 'x\u0085y',
    ];
    for (const text of cases) {
      expectSameAsWordSpans(text);
      expect(Array.from(wordSpans(text)), text).toEqual(segmenterSpans(text));
    }
  });

  it('agrees on random text of ASCII, accents, combining marks, CJK, Thai, emoji and non-ASCII spaces', () => {
    const alphabet = [
      ...'abcxyzABCXYZ0123456789', ...'_.,;:\'"-!?()/@#', ' ', ' ', '\t', '\n', '\r',
      ...'éüñçÅøß', '\u0301', '\u00a0', '\u3000', '\u2019', '\u2018', '\u2013', '😀', '\ud83d',
      ...'中文字我们日本語今天公园はカタ。，', ...'สวัสดีครับผม',
    ];
    const random = seededRandom(20261201);
    for (let run = 0; run < 3000; run++) {
      expectSameAsWordSpans(randomText(random, alphabet, randomInt(random, 0, run % 100 === 0 ? 3000 : 50)));
    }
  });

  it('agrees on mostly ASCII text with rare non-ASCII characters, and when its room grows', () => {
    const ascii = [...'abcxyzABCXYZ0123456789', ...'_.,;:\'"-!?()', '_', '_', ' ', ' ', ' ', '\n'];
    const rare = ['é', '\u2019', '\u0301', '\u00a0', '\u3000', '\u2003', '中', '😀', '\u2028'];
    const random = seededRandom(20261202);
    for (let run = 0; run < 3000; run++) {
      const length = randomInt(random, 0, 80);
      let text = '';
      for (let i = 0; i < length; i++) {
        text += random() < 0.03 ? rare[randomInt(random, 0, rare.length - 1)] : ascii[randomInt(random, 0, ascii.length - 1)];
      }
      expectSameAsWordSpans(text, run % 2 === 0 ? 1 : undefined);
    }
  });

  it('agrees across its chunks: long runs without white space, non-ASCII just after a chunk', () => {
    const word = 'abc.def_1,2 ';
    let long = '';
    while (long.length < 40_000) long += word;
    expectSameAsWordSpans(long);
    expectSameAsWordSpans('x'.repeat(30_000));
    expectSameAsWordSpans(`${'y'.repeat(8191)} z`);
    for (const at of [8190, 8191, 8192, 8193, 16_384]) {
      const text = `${long.slice(0, at)}é${long.slice(at)}`;
      expectSameAsWordSpans(text);
      expectSameAsWordSpans(`${'q'.repeat(at)}\u00a0${'r'.repeat(100)}`);
    }
  });

  it('agrees on real prose (the fixture documents)', () => {
    for (const name of ['news-article.txt', 'blog-post.txt']) {
      const text = readFileSync(new URL(`../../../fixtures/documents/${name}`, import.meta.url), 'utf8');
      expectSameAsWordSpans(text);
      expectSameAsWordSpans(text.replace(/'/g, '\u2019').replace(/"/g, '\u201c'));
    }
  });
});

describe('scanWords of a stretch of text', () => {
  it('reads between two white spaces what the scan of the whole text reads there', () => {
    const alphabet = [...'abcXYZ019', ...'_.,:\'-', ' ', '\n', '\n', 'é', '中', '\u00a0'];
    const random = seededRandom(20261203);
    for (let run = 0; run < 1000; run++) {
      const text = randomText(random, alphabet, randomInt(random, 1, 200));
      const whole = createWordScan();
      scanWords(text, whole);
      // Cut at every '\n' into lines scanned one after the other, each from where the last one stopped.
      const parts = createWordScan();
      let from = 0;
      for (let end = text.indexOf('\n'); from < text.length; end = text.indexOf('\n', end + 1)) {
        const to = end === -1 ? text.length : end;
        if (to > from) from = scanWords(text, parts, from, to);
        if (end === -1) break;
      }
      expect(scanned(parts), JSON.stringify(text)).toEqual(scanned(whole));
      expect(Array.from(parts.hashes.subarray(0, parts.count))).toEqual(Array.from(whole.hashes.subarray(0, whole.count)));
    }
  });

  it('names the pieces it gave to the segmenter', () => {
    const text = 'plain words\ncafé au lait\nmore plain 中文 words\nend';
    const out = createWordScan();
    scanWords(text, out);
    const pieces = [];
    for (let p = 0; p < out.segmented.length; p += 2) pieces.push(text.slice(out.segmented[p], out.segmented[p + 1]));
    // A piece is extended over white space while the next run of characters holds non-ASCII text.
    expect(pieces).toEqual(['café', '中文']);
  });
});
