import { describe, expect, it } from 'vitest';
import { segmentSentences } from '../src/segmentSentences.js';

describe('segmentSentences', () => {
  it('keeps offsets into the source text', () => {
    const text = '  First one here.  Second one?\nThird!  ';
    const sentences = segmentSentences(text);
    expect(sentences.map((s) => s.text)).toEqual(['First one here.', 'Second one?', 'Third!']);
    for (const s of sentences) expect(text.slice(s.start, s.end)).toBe(s.text);
    expect(sentences.map((s) => s.id)).toEqual([1, 2, 3]);
  });

  it('does not split at abbreviations, initials or decimals', () => {
    const text = 'Dr. Smith said U.S. output grew 3.5% in 2019. J. K. Rowling agreed.';
    expect(segmentSentences(text).map((s) => s.text)).toEqual([
      'Dr. Smith said U.S. output grew 3.5% in 2019.',
      'J. K. Rowling agreed.',
    ]);
  });

  it('splits at blank lines without a stop', () => {
    expect(segmentSentences('A heading\n\nThe body text.').map((s) => s.text)).toEqual(['A heading', 'The body text.']);
  });
});
