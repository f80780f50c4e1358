import { describe, expect, it } from 'vitest';
import { alignPassages, analyzeText, DEFAULT_ALIGNMENT_OPTIONS, wordFeatures } from '../src/index.js';
import { splitAtQuotations } from '../src/splitAtQuotations.js';

/** Written for this test: a report that quotes a coach at length, copied whole. */
const LEAD = 'The captain was shattered by the defeat, telling county radio:';
const QUOTE = '"I rarely get emotional watching a match, but that last over hurt. It was a brilliant tournament for the whole squad, and the supporters deserved a final."';
const TAIL = 'The captain and the county begin a new season under the recently appointed coach on Sunday, the radio station said.';
const REPORT = `${LEAD} ${QUOTE} ${TAIL}`;

describe('splitAtQuotations', () => {
  it('keeps a copied lead-in sentence before a quotation (a run of 10 words is not held to the weighted bound of a whole passage)', () => {
    const text = `My notes from the weekend. ${REPORT}`;
    const vocabulary = new Map<string, number>();
    const input = wordFeatures(analyzeText(text, 'en', false), vocabulary);
    const source = wordFeatures(analyzeText(REPORT, 'en', false), vocabulary);
    const weights = new Float32Array(vocabulary.size).fill(1);
    const [passage] = alignPassages(input, source, DEFAULT_ALIGNMENT_OPTIONS, weights);
    const quoteStart = text.indexOf(QUOTE);
    const pieces = splitAtQuotations(passage!, [[quoteStart, quoteStart + QUOTE.length]], input, source, DEFAULT_ALIGNMENT_OPTIONS, weights);
    const { starts, ends } = input.text.tokens;
    expect(pieces.map((p) => text.slice(starts[p.inputFrom]!, ends[p.inputTo - 1]!))).toEqual([REPORT.slice(0, -1)]);
  });
});
