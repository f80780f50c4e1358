import { describe, expect, it } from 'vitest';
import type { PassageMatch, SourceMatch } from '../src/index.js';
import { keepBestSources } from '../src/keepBestSources.js';

/** A passage over input words `[from, from + kinds.length)`; kinds 2 identical, 1 similar, 0 unmatched. */
const passage = (from: number, kinds: number[], quoted = false): PassageMatch => ({
  inputStart: from * 5, inputEnd: (from + kinds.length) * 5, sourceStart: 0, sourceEnd: kinds.length * 5,
  inputFrom: from, kinds: Uint8Array.from(kinds), quoted, similarity: 0.5,
});
const match = (url: string, passages: PassageMatch[], flags: { excluded?: boolean; cited?: boolean } = {}): SourceMatch => ({
  found: { document: { url, text: '' }, provider: 'index' }, passages, excluded: flags.excluded ?? false, cited: flags.cited ?? false,
});
const urls = (matches: SourceMatch[]) => matches.map((m) => m.found.document.url);
const all = (kind: number, n: number) => Array.from({ length: n }, () => kind);

describe('keepBestSources', () => {
  it('drops the source whose passage matches the same input words clearly worse (8 of 10 against 10 of 10)', () => {
    const copied = match('https://a.example/copied', [passage(0, all(2, 10))]);
    const loose = match('https://b.example/loose', [passage(0, [...all(2, 8), 0, 0])]);
    expect(urls(keepBestSources([loose, copied]))).toEqual(['https://a.example/copied']);
  });

  it('keeps both sources when they match about equally (9.5 against 10 matched words)', () => {
    const a = match('https://a.example/', [passage(0, all(2, 10))]);
    const b = match('https://b.example/', [passage(0, [...all(2, 9), 1])]);
    expect(urls(keepBestSources([a, b]))).toEqual(['https://a.example/', 'https://b.example/']);
  });

  it('drops a passage lying within a longer one of another source that matches its words as well', () => {
    const longer = match('https://a.example/longer', [passage(0, all(2, 30))]);
    const within = match('https://b.example/within', [passage(10, all(2, 12))]);
    expect(urls(keepBestSources([within, longer]))).toEqual(['https://a.example/longer']);
  });

  it('keeps a passage that the other source covers for less than half of its words', () => {
    const a = match('https://a.example/', [passage(0, all(2, 10))]);
    const b = match('https://b.example/', [passage(6, all(1, 10))]);
    expect(keepBestSources([a, b]).map((m) => m.passages.length)).toEqual([1, 1]);
  });

  it('drops only the beaten passage of a source and keeps its other ones', () => {
    const a = match('https://a.example/', [passage(0, all(2, 10))]);
    const b = match('https://b.example/', [passage(0, all(1, 10)), passage(40, all(2, 10))]);
    const kept = keepBestSources([a, b]);
    expect(kept[1]!.passages.map((p) => p.inputFrom)).toEqual([40]);
  });

  it('lets neither excluded, cited nor quoted passages compete', () => {
    const best = [passage(0, all(2, 10))];
    const weak = () => match('https://weak.example/', [passage(0, all(1, 10))]);
    expect(urls(keepBestSources([match('https://x.example/', best, { excluded: true }), weak()]))).toContain('https://weak.example/');
    expect(urls(keepBestSources([match('https://x.example/', best, { cited: true }), weak()]))).toContain('https://weak.example/');
    expect(urls(keepBestSources([match('https://x.example/', [passage(0, all(2, 10), true)]), weak()]))).toContain('https://weak.example/');
    expect(urls(keepBestSources([match('https://x.example/', best), weak()]))).not.toContain('https://weak.example/');
  });
});
