import { describe, expect, it } from 'vitest';
import { alignPassages, analyzeText, DEFAULT_ALIGNMENT_OPTIONS, wordFeatures } from '../src/index.js';
import { stopwordsOf } from '../src/stopwords.js';
import { segmentWords } from '../src/segments.js';
import { tokenize } from '../src/tokenize.js';

/** The segments of `text` as strings (first word to last word). */
function segmentsOf(text: string, locale: string): string[] {
  const tokens = tokenize(text);
  const bounds = segmentWords(tokens, 40, locale);
  const out: string[] = [];
  for (let s = 0; s + 1 < bounds.length; s++) out.push(text.slice(tokens.starts[bounds[s]!]!, tokens.ends[bounds[s + 1]! - 1]!));
  return out;
}

// Sentences written for these tests.
describe('segmentWords', () => {
  it('cuts Thai at the spaces that end its sentences and clauses (no punctuation there)', () => {
    const thai = 'ประเทศไทยมีประชากรประมาณหกสิบหกล้านคน กรุงเทพมหานครเป็นเมืองหลวง ภาษาไทยเป็นภาษาราชการ';
    expect(segmentsOf(thai, 'th')).toEqual(['ประเทศไทยมีประชากรประมาณหกสิบหกล้านคน', 'กรุงเทพมหานครเป็นเมืองหลวง', 'ภาษาไทยเป็นภาษาราชการ']);
  });

  it('keeps a Thai sentence whole around a number written with spaces', () => {
    expect(segmentsOf('ในปี 2019 มีนักท่องเที่ยวมาก', 'th')).toEqual(['ในปี 2019 มีนักท่องเที่ยวมาก']);
  });

  it('cuts Hindi at the danda, Arabic at its question mark, Japanese at 。', () => {
    expect(segmentsOf('यह पहला वाक्य है। यह दूसरा वाक्य है।', 'hi')).toEqual(['यह पहला वाक्य है', 'यह दूसरा वाक्य है']);
    expect(segmentsOf('هل هذا سؤال؟ نعم هذا جواب', 'ar')).toEqual(['هل هذا سؤال', 'نعم هذا جواب']);
    expect(segmentsOf('首都は東京です。人口は多い。', 'ja')).toEqual(['首都は東京です', '人口は多い']);
  });
});

describe('stop words', () => {
  it('has function words for the languages written without spaces or with attached particles', () => {
    expect(stopwordsOf('ja').has('の')).toBe(true);
    expect(stopwordsOf('zh').has('的')).toBe(true);
    expect(stopwordsOf('th').has('ที่')).toBe(true);
    expect(stopwordsOf('ko').has('및')).toBe(true);
    expect(stopwordsOf('ar').has('في')).toBe(true);
  });

  it('leaves Japanese particles out of the content words', () => {
    const text = analyzeText('日本は東アジアの島国である。', 'ja', false);
    const content = text.tokens.keys.filter((_, i) => text.content[i] === 1);
    expect(content).toEqual(['日本', '東アジア', '島国']);
  });
});

describe('alignPassages: spans hold reused text only', () => {
  /** Input passages aligned with `source`, as input text. */
  function aligned(input: string, source: string, language: 'en' | 'th' = 'en'): string[] {
    const vocabulary = new Map<string, number>();
    const a = wordFeatures(analyzeText(input, language, true), vocabulary);
    const b = wordFeatures(analyzeText(source, language, true), vocabulary);
    return alignPassages(a, b, DEFAULT_ALIGNMENT_OPTIONS).map((p) => input.slice(a.text.tokens.starts[p.inputFrom]!, a.text.tokens.ends[p.inputTo - 1]!));
  }

  it('does not merge two reused sentences across the writer\'s own sentence between them', () => {
    const first = 'Everyone has the right to freedom of movement and residence within the borders of each State';
    const second = 'Everyone has the right to leave any country, including his own, and to return to his country';
    const own = 'The family is the natural and fundamental group unit of society and is entitled to protection by society and the State.';
    expect(aligned(`${first}. ${own} ${second}.`, `${first}. ${second}.`)).toEqual([first, second]);
  });

  it('keeps a reworded sentence between two copied ones inside the passage', () => {
    const source = 'The committee approved the ferry budget after a long debate. Tolls for the island boats will rise in spring. '
      + 'The winter timetable stays as it was.';
    const input = 'The committee approved the ferry budget after a long debate. In spring the tolls for island boats rise. '
      + 'The winter timetable stays as it was.';
    expect(aligned(input, source)).toEqual([input.slice(0, -1)]);
  });

  it('reports a Thai reuse of one clause, not the clauses around it', () => {
    const copied = 'ทุกคนมีสิทธิในการดำรงชีวิตเสรีภาพและความมั่นคงแห่งตัวตนตามกฎหมายของประเทศ';
    const source = `${copied} บุคคลใดจะถูกยึดเป็นทาสไม่ได้`;
    const input = `วันนี้ฝนตกหนักมากในเมืองหลวงของเรา ${copied} เด็กๆเล่นฟุตบอลที่สนามหลังโรงเรียนทุกเย็น`;
    expect(aligned(input, source, 'th')).toEqual([copied]);
  });
});
