import type { TokenizedText } from './tokenize.js';

/**
 * Sentence and clause ends in the gap between two words: Latin, CJK (full-width), Devanagari and the other Indic
 * scripts (danda), Arabic (question mark, semicolon, full stop of Urdu), Myanmar and Khmer full stops, and line
 * breaks.
 */
const BOUNDARY = /[.!?;:…。！？；：।॥؟؛۔။។\n]/;

/**
 * Scripts whose sentence ends the punctuation above does not know (Armenian, Ethiopic, Tibetan, Sinhala,
 * Mongolian): there the Unicode sentence boundaries of `Intl.Segmenter` (UAX #29, ICU) are read. Elsewhere ICU
 * ends sentences where the punctuation does (and nowhere in Thai), and reading it costs about 280 ms per 136,000
 * characters (more than half of a whole check of such an input against 1,000 documents), so it is not run.
 */
const NEEDS_SENTENCE_SEGMENTER = /[\p{Script=Armenian}\p{Script=Ethiopic}\p{Script=Tibetan}\p{Script=Sinhala}\p{Script=Mongolian}]/u;

/**
 * Scripts written without spaces between words, where a space ends a sentence or a clause (Thai, Lao, Khmer,
 * Myanmar): `Intl.Segmenter` finds their words but no sentence ends there (ICU's sentence rules need punctuation).
 */
const SPACE_ENDS_CLAUSE = /[\u0E00-\u0EFF\u1780-\u17FF\u1000-\u109F]/;

const segmenters = new Map<string, Intl.Segmenter>();

function sentenceSegmenter(locale: string): Intl.Segmenter {
  let segmenter = segmenters.get(locale);
  if (segmenter === undefined) {
    segmenter = new Intl.Segmenter(locale, { granularity: 'sentence' });
    segmenters.set(locale, segmenter);
  }
  return segmenter;
}

/** Start offsets of the sentences `Intl.Segmenter` (UAX #29, ICU) finds in `text`, in order. */
function sentenceStarts(text: string, locale: string): number[] {
  const starts: number[] = [];
  if (!NEEDS_SENTENCE_SEGMENTER.test(text)) return starts;
  for (const { index } of sentenceSegmenter(locale).segment(text)) if (index > 0) starts.push(index);
  return starts;
}

const memo = new WeakMap<TokenizedText, Map<string, Uint32Array>>();

/**
 * Cuts a text's words into segments: sentences (sentence punctuation of every script, and the Unicode sentence
 * boundaries of `Intl.Segmenter` for `locale` in the scripts that punctuation does not cover), clauses ended by `;`
 * or `:`, phrases ended by a space in Thai, Lao, Khmer and Myanmar text (whose words come from `Intl.Segmenter`'s
 * word rules, see `wordSpans`), and runs of at most `maxWords` words where none of these occurs. Returns the index
 * of the first word of each segment, plus the word count as a final entry; computed once per text and arguments
 * (the input is aligned with every candidate source).
 * @param locale BCP 47 tag for the sentence rules (@default 'en')
 */
export function segmentWords(tokens: TokenizedText, maxWords: number, locale = 'en'): Uint32Array {
  const key = `${maxWords}:${locale}`;
  let known = memo.get(tokens);
  const found = known?.get(key);
  if (found !== undefined) return found;
  const bounds = computeSegments(tokens, maxWords, locale);
  if (known === undefined) memo.set(tokens, known = new Map());
  known.set(key, bounds);
  return bounds;
}

function computeSegments(tokens: TokenizedText, maxWords: number, locale: string): Uint32Array {
  const { original, starts: ws, ends: we, length } = tokens;
  if (length === 0) return new Uint32Array([0]);
  const starts: number[] = [0];
  const sentences = sentenceStarts(original, locale);
  let next = 0;
  let segmentStart = 0;
  for (let w = 0; w + 1 < length; w++) {
    const gapStart = we[w]!;
    const gapEnd = ws[w + 1]!;
    const gap = original.slice(gapStart, gapEnd);
    while (next < sentences.length && sentences[next]! <= gapStart) next++;
    const icuEnd = next < sentences.length && sentences[next]! <= gapEnd;
    const spaceEnd = /\s/.test(gap) && SPACE_ENDS_CLAUSE.test(original[gapStart - 1] ?? '') && SPACE_ENDS_CLAUSE.test(original[gapEnd] ?? '');
    if (icuEnd || spaceEnd || BOUNDARY.test(gap) || w + 1 - segmentStart >= maxWords) {
      starts.push(w + 1);
      segmentStart = w + 1;
    }
  }
  starts.push(length);
  return new Uint32Array(starts);
}
