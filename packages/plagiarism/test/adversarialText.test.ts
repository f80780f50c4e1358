import { describe, expect, it } from 'vitest';
import { vowellessToken } from '../../../scripts/fuzz/lib/index.mjs';
import { analyzeText } from '../src/analyzeText.js';
import { findCitedSites, quotedRanges } from '../src/index.js';
import { stemmerFor } from '../src/stemmers.js';
import type { PlagiarismLanguage } from '../src/languages.js';

// Issue 26 item 4: regular expressions on user text, at the largest text a request may carry (150,000 characters,
// above the 120,000 limit), each within a time a linear pass needs many times over. The quadratic versions took
// from 4 s to minutes on these inputs.
const MAX_TEXT = 150_000;
const PROSE = 'The committee reviewed the annual report and approved the budget for the coming year. ';

describe('adversarial text in plagiarism analysis', () => {
  it('stems a 150,000-character token without vowels in every language without a quadratic regular expression', () => {
    const languages: PlagiarismLanguage[] = ['en', 'fr', 'de', 'es', 'it', 'nl', 'no', 'pt', 'ru', 'sv', 'uk', 'fa', 'id'];
    for (const token of [vowellessToken(MAX_TEXT), 'b'.repeat(MAX_TEXT), 'xy'.repeat(MAX_TEXT / 2)]) {
      for (const language of languages) {
        const started = Date.now();
        expect(stemmerFor(language)(token)).toBe(token);
        expect(Date.now() - started, language).toBeLessThan(500);
      }
    }
    // Ordinary words are still stemmed.
    expect(stemmerFor('en')('committees')).toBe('committe');
  });

  it('analyses prose followed by 120,000 characters of "1,1,1,..." in well under the 42 s it took', () => {
    const text = vowellessToken(120_000, PROSE.repeat(5));
    const started = Date.now();
    const analyzed = analyzeText(text, 'en', false);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(analyzed.tokens.length).toBeGreaterThan(60);
  });

  it('finds cited sites in 150,000 characters of dotted and hyphenated runs in linear time', () => {
    for (const run of ['a.'.repeat(MAX_TEXT / 2), 'a-'.repeat(MAX_TEXT / 2), `http://x.org/${'.'.repeat(MAX_TEXT)}a`, 'www.' + 'a.'.repeat(MAX_TEXT / 2)]) {
      const started = Date.now();
      findCitedSites(`${run} see example.com.`);
      expect(Date.now() - started).toBeLessThan(1_000);
    }
    expect(findCitedSites(`${'a.'.repeat(MAX_TEXT / 2)} see example.com, and https://x.org/p?q=1.`)).toEqual(['example.com', 'https://x.org/p?q=1']);
  });

  it('finds quotations in 150,000 characters of unpaired opening marks in linear time (issue 33)', () => {
    // Each unpaired “ or ‘ (’ between letters is an apostrophe) was scanned to the end of the text: 100 s.
    for (const run of ['“a '.repeat(MAX_TEXT / 3), '‘a’b '.repeat(MAX_TEXT / 5), '"a '.repeat(MAX_TEXT / 3), '„a «b 「c '.repeat(MAX_TEXT / 9)]) {
      const started = Date.now();
      quotedRanges(run);
      expect(Date.now() - started).toBeLessThan(1_000);
    }
    expect(quotedRanges(`${'“a '.repeat(1000)}“quoted” text`).length).toBe(1);
  });
});
