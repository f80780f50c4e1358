import { describe, expect, it } from 'vitest';
import { parseXmp } from '../src/index.js';
import { withoutTrailingNuls } from '../src/metadata/withoutTrailingNuls.js';

// Issue 26 item 4: metadata text comes from the caller's image (up to the 4 MiB image limit, in PNG text chunks and
// EXIF strings). Each input below took seconds at 40,000 characters with the quadratic expressions, minutes at 512 KiB.
const SIZE = 512 * 1024;
const RDF = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:format="image/png"/></rdf:RDF></x:xmpmeta>';

describe('metadata text in linear time', () => {
  it('parses XMP after 512 KiB of unterminated comments, instructions, CDATA, declarations and tags', () => {
    for (const opening of ['<!--', '<?', '<![CDATA[', '<!', '<a', '</a', '<a b="']) {
      const xml = opening.repeat(Math.floor(SIZE / opening.length)) + RDF;
      const started = Date.now();
      parseXmp(xml);
      expect(Date.now() - started, opening).toBeLessThan(2_000);
    }
  });

  it('closes tags against a bounded stack: 100,000 open elements and 100,000 unmatched closing tags', () => {
    const xml = '<a>'.repeat(100_000) + '</b>'.repeat(100_000) + RDF;
    const started = Date.now();
    parseXmp(xml);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('still reads well-formed XMP with comments and CDATA', () => {
    const xml = `<?xpacket begin=""?><!-- note --><![CDATA[x]]>${RDF}<?xpacket end="w"?>`;
    expect(parseXmp(xml)).toMatchObject({ 'dc:format': 'image/png' });
  });

  it('drops trailing NULs from 512 KiB of NULs inside a string', () => {
    const text = `a${'\0'.repeat(SIZE)}b\0\0`;
    const started = Date.now();
    expect(withoutTrailingNuls(text)).toBe(text.slice(0, -2));
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
