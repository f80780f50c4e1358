import { describe, expect, it } from 'vitest';
import { splitSentences } from '../src/index.js';

const cut = (text: string) => splitSentences(text).map((s) => text.slice(s.start, s.end));

describe('splitSentences', () => {
  it('cuts after terminal punctuation and keeps abbreviations together', () => {
    expect(cut('Dr. Smith arrived. Was he late? "Yes!" she said.')).toEqual([
      'Dr. Smith arrived.', 'Was he late?', '"Yes!" she said.',
    ]);
  });

  it('joins hard-wrapped lines and cuts at blank lines', () => {
    expect(cut('A line that wraps\nonto the next one.\n\nHeading\n\nBody text')).toEqual([
      'A line that wraps\nonto the next one.', 'Heading', 'Body text',
    ]);
  });

  it('returns nothing for white space', () => {
    expect(splitSentences(' \n\t ')).toEqual([]);
  });
});
