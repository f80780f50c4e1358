import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript fixture script without types
import { writeZip } from '../../../scripts/documents/zipWriter.mjs';
import { manyParagraphDocx } from '../../../scripts/fuzz/lib/index.mjs';
import { extractDocx } from '../src/index.js';
import { expectedParagraphs, expectedText, fixture, normaliseWhitespace } from './helpers/fixtures.js';

const zip = writeZip as (entries: { name: string; data: Buffer | string; method?: 'store' | 'deflate'; declaredSize?: number }[]) => Buffer;

describe('extractDocx', () => {
  it('reads paragraphs, headings, a table and footnotes in order', async () => {
    const result = await extractDocx(fixture('tables-footnotes.docx'));
    const expected = expectedText('tables-footnotes.txt');
    expect(normaliseWhitespace(result.text)).toBe(normaliseWhitespace(expected));
    expect(result.paragraphs.map(({ start, end }) => result.text.slice(start, end))).toEqual(expectedParagraphs(expected));
    expect(result.text).toContain('North 1\t14\tyes\t21');
    expect(result.text).toContain('until autumn.[1] This guide');
    expect(result.text.endsWith('[2] Frame counts are rounded to whole frames; half-covered frames were counted as covered.')).toBe(true);
    expect(result.pages).toEqual([]);
    expect(result.metadata).toEqual({ title: 'Keeping Bees on City Rooftops', author: 'Maren Stolz' });
  });

  it('refuses a zip bomb from its central directory, before inflating anything', async () => {
    const started = process.memoryUsage().rss;
    await expect(extractDocx(fixture('hostile/zip-bomb.docx'))).rejects.toMatchObject({
      code: 'ARCHIVE_TOO_LARGE', message: expect.stringContaining('more than 104857600 bytes declared'),
    });
    expect(process.memoryUsage().rss - started).toBeLessThan(64 * 1024 * 1024);
  });

  it('stops a zip bomb that lies about its size at the declared size', async () => {
    await expect(extractDocx(fixture('hostile/zip-bomb-lying.docx'))).rejects.toMatchObject({
      code: 'ARCHIVE_TOO_LARGE', message: expect.stringContaining('inflates beyond its declared 4096 bytes'),
    });
  });

  it('refuses 1.5 million tiny paragraphs (149 KB on the wire, 51 MB of XML) before the reader builds them', async () => {
    // Issue 26 item 1: mammoth holds about 2 KB per element; this archive ran the process out of heap at 4.5 GB.
    const bytes = manyParagraphDocx(1_500_000);
    expect(bytes.length).toBeLessThan(160_000);
    const heapBefore = process.memoryUsage().heapUsed;
    await expect(extractDocx(bytes)).rejects.toMatchObject({
      code: 'TOO_MANY_ELEMENTS', message: expect.stringContaining('more than 100000 XML elements'),
    });
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
  });

  it('applies maxElements and maxParagraphs, counting paragraphs under the element budget', async () => {
    const bytes = manyParagraphDocx(2_000);
    await expect(extractDocx(bytes, { maxElements: 5_000 })).rejects.toMatchObject({ code: 'TOO_MANY_ELEMENTS' });
    await expect(extractDocx(bytes, { maxParagraphs: 1_999 })).rejects.toMatchObject({
      code: 'TOO_MANY_PARAGRAPHS', message: expect.stringContaining('more than 1999 paragraphs'),
    });
    const read = await extractDocx(bytes, { maxParagraphs: 2_000 });
    expect(read.paragraphs).toHaveLength(2_000);
    // The fixture (tables, footnotes) is far inside both budgets.
    await expect(extractDocx(fixture('tables-footnotes.docx'), { maxElements: 2_000, maxParagraphs: 50 })).resolves.toMatchObject({ format: 'docx' });
  });

  it('reads the title of a core.xml of 90,000 unclosed tags in linear time', async () => {
    // `<dc:title[^>]*>([^<]*)</dc:title>` took 250 ms on 40,000 characters of `<dc:title`, quadratic: minutes here.
    const core = `<?xml version="1.0"?><cp:coreProperties>${'<dc:title'.repeat(90_000)}<dc:creator>Ann</dc:creator></cp:coreProperties>`;
    const document = '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Text</w:t></w:r></w:p></w:body></w:document>';
    const bytes = zip([{ name: 'word/document.xml', data: document }, { name: 'docProps/core.xml', data: core }]);
    const started = Date.now();
    const result = await extractDocx(bytes);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(result.text).toBe('Text');
    expect(result.metadata).toEqual({ author: 'Ann' });
  });

  it('applies maxUncompressedBytes and maxZipEntries', async () => {
    await expect(extractDocx(fixture('tables-footnotes.docx'), { maxUncompressedBytes: 1000 })).rejects.toMatchObject({ code: 'ARCHIVE_TOO_LARGE' });
    await expect(extractDocx(fixture('tables-footnotes.docx'), { maxZipEntries: 3 })).rejects.toMatchObject({ code: 'ARCHIVE_TOO_LARGE' });
  });

  it('fails with CORRUPT on a truncated archive and on a ZIP that is not a DOCX', async () => {
    const docx = fixture('tables-footnotes.docx');
    await expect(extractDocx(docx.subarray(0, docx.length - 40))).rejects.toMatchObject({ code: 'CORRUPT' });
    await expect(extractDocx(zip([{ name: 'readme.txt', data: 'hello' }]))).rejects.toMatchObject({
      code: 'CORRUPT', message: expect.stringContaining('no word/document.xml'),
    });
  });

  it('fails with CORRUPT on an entry that is not valid deflate data', async () => {
    const bytes = zip([{ name: 'word/document.xml', data: 'x'.repeat(100), method: 'store', declaredSize: 100 }]);
    // Claim deflate (method 8) for stored bytes in the central directory.
    const directory = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bytes.writeUInt16LE(8, directory + 10);
    bytes[30 + 'word/document.xml'.length] = 0xff;
    await expect(extractDocx(bytes)).rejects.toMatchObject({ code: 'CORRUPT' });
  });

  it('fails with ENCRYPTED on an entry flagged as encrypted', async () => {
    const bytes = zip([{ name: 'word/document.xml', data: '<w:document/>' }]);
    const directory = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bytes.writeUInt16LE(bytes.readUInt16LE(directory + 8) | 1, directory + 8);
    await expect(extractDocx(bytes)).rejects.toMatchObject({ code: 'ENCRYPTED' });
  });

  it('fails with NO_TEXT on an empty document', async () => {
    const empty = fixture('tables-footnotes.docx');
    const entries = [{ name: '[Content_Types].xml', data: '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>' },
      { name: '_rels/.rels', data: '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>' },
      { name: 'word/document.xml', data: '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p/></w:body></w:document>' }];
    expect(empty.length).toBeGreaterThan(0);
    await expect(extractDocx(zip(entries))).rejects.toMatchObject({ code: 'NO_TEXT' });
  });
});
