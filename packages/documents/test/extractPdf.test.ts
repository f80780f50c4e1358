import { describe, expect, it } from 'vitest';
import { DocumentError, extractPdf } from '../src/index.js';
import { buildPdf, pdfString } from '../../../scripts/documents/pdfWriter.mjs';
import { inflatingPdf } from '../../../scripts/fuzz/lib/index.mjs';
import { expectedParagraphs, expectedText, fixture, normaliseWhitespace } from './helpers/fixtures.js';

const HELVETICA = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';

/** A line of Helvetica at (x, y); the text is WinAnsi (latin1 here, \x97 an em dash). */
const show = (text: string, x: number, y: number, size = 10) =>
  `BT /F1 ${size} Tf 1 0 0 1 ${x} ${y} Tm ${pdfString(Buffer.from(text, 'latin1'))} Tj ET`;

const PLACES = ['harbour', 'estuary', 'lagoon', 'saltmarsh', 'dune', 'creek'];

/** A US Letter page: a header line at the top, then 30 body lines, each different (the place names its page). */
function journalPage(header: string, page: number): string {
  const place = PLACES[page % PLACES.length]!;
  const rows = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth'];
  const body = Array.from({ length: 30 }, (_, row) =>
    show(`The ${rows[row % 6]} survey of the ${place} follows the tide across the marsh, row ${row + 1}.`, 72, 700 - 14 * row, 11));
  return [show(header, 72, 750, 9), ...body].join('\n');
}

describe('extractPdf', () => {
  it('reads a two-column PDF in reading order, without running head and folio', async () => {
    const result = await extractPdf(fixture('two-column.pdf'));
    const expected = expectedText('two-column.txt');
    expect(normaliseWhitespace(result.text)).toBe(normaliseWhitespace(expected));
    expect(result.paragraphs.map(({ start, end }) => result.text.slice(start, end))).toEqual(expectedParagraphs(expected));
    expect(result.text).not.toContain('Journal of Coastal Studies');
    expect(result.text).not.toMatch(/Page \d of 2/);
    expect(result.metadata.title).toBe('Tidal Marshes as Flood Buffers');
  });

  it('rejoins words hyphenated at line ends and spells out ligatures, keeping real compounds', async () => {
    const raw = fixture('two-column.pdf').toString('latin1');
    expect(raw).toMatch(/[a-z]-\) Tj/); // the fixture does break words at line ends
    expect(raw).toContain('\\001'); // and draws the fi ligature glyph
    const { text } = await extractPdf(fixture('two-column.pdf'));
    expect(text).toContain('engineered structures');
    expect(text).toContain('A well-known argument');
    expect(text).toContain('final dataset');
    expect(text).not.toMatch(/[\ufb00-\ufb06]/);
  });

  it('keeps paragraphs marked by indentation and joins those cut by a page break', async () => {
    const result = await extractPdf(fixture('running-headers.pdf'));
    const expected = expectedText('running-headers.txt');
    expect(normaliseWhitespace(result.text)).toBe(normaliseWhitespace(expected));
    expect(result.paragraphs).toHaveLength(expectedParagraphs(expected).length);
    expect(result.text).not.toContain('District Water Board');
  });

  it('drops a running header that differs from page to page only by the page number inside it', async () => {
    // Journal pages 12 to 15; verso and recto pages carry different heads, each with the page number inside.
    const pages = [12, 13, 14, 15].map((page) =>
      journalPage(page % 2 === 0 ? `Journal of Coastal Studies, Vol 3 \x97 page ${page}` : `Tidal Marshes as Flood Buffers \x97 page ${page}`, page),
    );
    const result = await extractPdf(buildPdf({ pageContents: pages, fonts: { F1: HELVETICA } }));
    expect(result.text).not.toContain('Journal of Coastal Studies');
    expect(result.text).not.toContain('Tidal Marshes');
    expect(result.text).toContain('The first survey of the harbour follows the tide across the marsh, row 1.');
    expect(result.text).toContain('The sixth survey of the saltmarsh follows the tide across the marsh, row 30.');
  });

  it('drops running heads and feet of several lines, in two parts or set low, whose page number changes', async () => {
    // Six pages, each with 30 body lines of its own; the layouts below were kept by the 2-line, 12 % edge rule.
    const bodyOf = (page: number, top: number) => Array.from({ length: 30 }, (_, row) =>
      show(`Survey ${PLACES[page % PLACES.length]} of the marsh follows the tide, line ${row + 1} on sheet ${'abcdef'[page - 1]}.`, 72, top - 14 * row, 11));
    const layouts: Record<string, { edges: (page: number) => string[]; top: number }> = {
      // "Title ... Page n" on one baseline (two lines of text there) and a second header line under it.
      twoParts: { edges: (p) => [show('Harbour Survey Report', 72, 750, 9), show(`Page ${p}`, 500, 750, 9), show('Draft, third revision', 72, 738, 9)], top: 700 },
      // A header 102 pt from the top of a Letter page (13 %), with the page number inside it.
      lowHeader: { edges: (p) => [show(`Harbour Survey Report, page ${p}`, 72, 690, 9)], top: 670 },
      // A footer of three lines: title and page number, a notice, a folio.
      threeLineFooter: { edges: (p) => [show(`Harbour Survey Report \x97 ${p}`, 72, 60, 9), show('Confidential draft for the board', 72, 48, 9), show(`${p}`, 300, 36, 9)], top: 700 },
    };
    for (const [name, { edges, top }] of Object.entries(layouts)) {
      const pages = [1, 2, 3, 4, 5, 6].map((page) => [...edges(page), ...bodyOf(page, top)].join('\n'));
      const result = await extractPdf(buildPdf({ pageContents: pages, fonts: { F1: HELVETICA } }));
      expect(result.text.match(/Harbour Survey|Draft, third|Confidential|Page \d/g), name).toBeNull();
      expect(result.text.match(/Survey \w+ of the marsh follows the tide, line \d+ on sheet [a-f]\./g), name).toHaveLength(180);
    }
  });

  it('keeps an edge line whose numbers do not follow the pages', async () => {
    // A line that starts two pages but cites the same year on both is text, not a running head.
    const pages = [1, 2, 3, 4].map((page) => journalPage(page % 2 === 0 ? 'The flood of 1953 reshaped the coast.' : `Running head \x97 page ${page}`, page));
    const result = await extractPdf(buildPdf({ pageContents: pages, fonts: { F1: HELVETICA } }));
    expect(result.text.match(/The flood of 1953 reshaped the coast\./g)).toHaveLength(2);
    expect(result.text).not.toContain('Running head');
  });

  it('reports page spans and the first page of each paragraph', async () => {
    const result = await extractPdf(fixture('two-column.pdf'));
    expect(result.pages.map((page) => page.number)).toEqual([1, 2]);
    expect(result.pages[0]?.start).toBe(0);
    expect(result.pages[1]?.end).toBe(result.text.length);
    expect(result.pages[0]!.end).toBeLessThanOrEqual(result.pages[1]!.start);
    expect(result.paragraphs[0]?.page).toBe(1);
    expect(result.paragraphs.at(-1)?.page).toBe(2);
    // The page-2 span starts inside a paragraph that began on page 1.
    expect(result.text.slice(result.pages[1]!.start, result.pages[1]!.start + 20)).toBe('ence system, not as ');
  });

  it('fails with NO_TEXT on a scan', async () => {
    await expect(extractPdf(fixture('hostile/scanned.pdf'))).rejects.toMatchObject({ code: 'NO_TEXT', message: expect.stringMatching(/no extractable text.*scanned/) });
  });

  it('fails with ENCRYPTED on a password-protected PDF', async () => {
    await expect(extractPdf(fixture('hostile/encrypted.pdf'))).rejects.toMatchObject({ code: 'ENCRYPTED' });
  });

  it('fails with CORRUPT on noise behind a PDF header', async () => {
    await expect(extractPdf(fixture('hostile/corrupt.pdf'))).rejects.toBeInstanceOf(DocumentError);
    await expect(extractPdf(fixture('hostile/corrupt.pdf'))).rejects.toMatchObject({ code: 'CORRUPT' });
  });

  it('fails with TOO_MANY_PAGES on 2,000 pages before reading any page', async () => {
    await expect(extractPdf(fixture('hostile/many-pages.pdf'))).rejects.toMatchObject({
      code: 'TOO_MANY_PAGES', message: 'The PDF has 2000 pages; the limit is 500.',
    });
  });

  // Found by the fuzzer (scripts/fuzz): pdf.js prefetched the page tree's kids and left the promise of one whose
  // xref entry is broken unhandled, an unhandled rejection in the server's process (fixed in src/pdf/pdfjs.ts).
  it('leaves no unhandled rejection behind on a page tree whose kid has a broken xref entry', async () => {
    const bytes = Buffer.from(fixture('hostile/many-pages.pdf'));
    expect(bytes.toString('latin1', 221_480, 221_487)).toBe('4 0 obj'); // object 1924, a page
    bytes[221_486] = 0x68; // `obj` -> `obh`
    expect(bytes.toString('latin1', 251_970, 251_980)).toBe('0000131169');
    bytes[251_977] = 0x33; // an xref offset -> `0000131369`
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      await extractPdf(bytes).catch((error: unknown) => expect(error).toBeInstanceOf(DocumentError));
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      process.off('unhandledRejection', record);
    }
    expect(unhandled).toEqual([]);
  });

  it('reads only the real pages of a page tree that claims a million', async () => {
    const result = await extractPdf(fixture('hostile/huge-page-count.pdf'));
    expect(result.pages).toHaveLength(2);
    expect(result.text).toBe('one two');
  });

  it('applies maxPages and maxBytes, and checks them', async () => {
    await expect(extractPdf(fixture('two-column.pdf'), { maxPages: 1 })).rejects.toMatchObject({ code: 'TOO_MANY_PAGES' });
    await expect(extractPdf(fixture('two-column.pdf'), { maxBytes: 1000 })).rejects.toMatchObject({ code: 'TOO_LARGE' });
    await expect(extractPdf(fixture('two-column.pdf'), { maxPages: 0 })).rejects.toThrow(
      'Expected positive integer for maxPages but received 0 of type number');
  });

  describe('decompression bombs (issue 26 item 6)', () => {
    it('refuses a page content inflating to 1 GiB from 1 MB, before pdf.js reads it', async () => {
      const bytes = inflatingPdf(1024 * 1024 * 1024);
      expect(bytes.length).toBeLessThan(1_200_000);
      const started = Date.now();
      const rss = process.memoryUsage().rss;
      await expect(extractPdf(bytes)).rejects.toMatchObject({
        code: 'STREAMS_TOO_LARGE', message: expect.stringContaining('inflate to more than 16777216 bytes'),
      });
      // Before the budget: 18 s and 2.36 GB. The pre-scan reads at most the budget and holds 64 KiB at a time.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(process.memoryUsage().rss - rss).toBeLessThan(128 * 1024 * 1024);
    });

    it('refuses the same bomb disguised as an image against the image allowance', async () => {
      await expect(extractPdf(inflatingPdf(1024 * 1024 * 1024, { subtype: 'Image' }))).rejects.toMatchObject({
        code: 'STREAMS_TOO_LARGE', message: expect.stringContaining('images inflate to more than 268435456 bytes'),
      });
    });

    it('stops pdf.js at the decode limit on a disguised content stream within the image allowance', async () => {
      // 3 MiB of content under /Subtype /Image: within 16 x 1 MiB, so pdf.js reads it; its decoding stops at 1 MiB.
      const bytes = inflatingPdf(3 * 1024 * 1024, { subtype: 'Image' });
      await expect(extractPdf(bytes, { maxInflatedStreamBytes: 1024 * 1024 })).rejects.toMatchObject({
        code: 'STREAMS_TOO_LARGE', message: expect.stringContaining('page 1 of the PDF decodes to more than 1048576 bytes'),
      });
      // Under a larger limit the same file reads, so the stop is the limit and nothing else.
      await expect(extractPdf(bytes, { maxInflatedStreamBytes: 8 * 1024 * 1024 })).resolves.toMatchObject({ text: 'Hello world' });
    });

    it('reads a compressed content stream within the budget', async () => {
      await expect(extractPdf(inflatingPdf(256 * 1024))).resolves.toMatchObject({ text: 'Hello world' });
      await expect(extractPdf(inflatingPdf(256 * 1024), { maxInflatedStreamBytes: 64 * 1024 })).rejects.toMatchObject({ code: 'STREAMS_TOO_LARGE' });
    });
  });
});
