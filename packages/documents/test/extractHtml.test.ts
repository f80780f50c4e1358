import { describe, expect, it } from 'vitest';
import { extractHtml } from '../src/index.js';
import { expectedParagraphs, expectedText, fixture, normaliseWhitespace } from './helpers/fixtures.js';

describe('extractHtml', () => {
  for (const name of ['news-article', 'blog-post']) {
    it(`keeps only the article of ${name}.html and reads its metadata`, () => {
      const result = extractHtml(fixture(`${name}.html`));
      const expected = expectedText(`${name}.txt`);
      expect(normaliseWhitespace(result.text)).toBe(normaliseWhitespace(expected));
      expect(result.paragraphs.map(({ start, end }) => result.text.slice(start, end))).toEqual(expectedParagraphs(expected));
      expect(result.metadata).toEqual(JSON.parse(expectedText(`${name}.metadata.json`)));
      for (const noise of ['cookies', 'Advertisement', 'Sponsored', 'Related stories', 'About time', 'Great tips', 'Copyright', 'Archive']) {
        expect(result.text).not.toContain(noise);
      }
    });
  }

  it('decodes the charset of the Content-Type header', () => {
    const bytes = Buffer.from('<html><body><article><p>Caf\xe9 cr\xe8me, na\xefve fa\xe7ade: a short paragraph with enough words to read.</p></article></body></html>', 'latin1');
    expect(extractHtml(bytes, { contentType: 'text/html; charset=windows-1252' }).text).toBe('Café crème, naïve façade: a short paragraph with enough words to read.');
  });

  it('decodes the charset of a meta tag', () => {
    const bytes = Buffer.from('<html><head><meta charset="iso-8859-1"></head><body><p>Stra\xdfe</p></body></html>', 'latin1');
    expect(extractHtml(bytes).text).toBe('Straße');
  });

  // Found by the fuzzer (scripts/fuzz): a page without an <html> element threw a TypeError (500 on the API).
  it('reads plain text served as HTML, and a fragment without <html>, as a browser would', () => {
    expect(extractHtml(Buffer.from('Plain words & more words, served as text/html.')).text).toBe('Plain words & more words, served as text/html.');
    expect(extractHtml('<!DOCTYPE html>Text after a doctype alone.').text).toBe('Text after a doctype alone.');
    expect(extractHtml('<p>A fragment of one paragraph.</p><p>And a second one.</p>').text).toBe('A fragment of one paragraph.\n\nAnd a second one.');
  });

  it('fails with NO_TEXT, not a crash, on an empty page and on a comment alone', () => {
    for (const page of ['', '<!-- nothing -->', '  \n ']) {
      expect(() => extractHtml(page)).toThrow(expect.objectContaining({ code: 'NO_TEXT' }));
    }
  });

  it('fails with NO_TEXT on a page without text', () => {
    expect(() => extractHtml('<html><body><script>var a = 1;</script></body></html>')).toThrow(expect.objectContaining({ code: 'NO_TEXT' }));
  });

  it('fails with TOO_LARGE above maxElements', () => {
    const html = `<html><body>${'<div><p>word</p></div>'.repeat(200)}</body></html>`;
    expect(() => extractHtml(html, { maxElements: 100 })).toThrow(expect.objectContaining({ code: 'TOO_LARGE' }));
  });

  it('refuses a 5 MiB page of 1.7 million empty elements before building its DOM', () => {
    const html = `<html><body>${'<b>'.repeat(1_700_000)}</body></html>`;
    const heap = process.memoryUsage().heapUsed;
    const started = Date.now();
    expect(() => extractHtml(html)).toThrow(expect.objectContaining({ code: 'TOO_LARGE', message: expect.stringContaining('more than 100000 elements') }));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(32 * 1024 * 1024);
  });
});
