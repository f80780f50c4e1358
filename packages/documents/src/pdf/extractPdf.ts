import { DocumentError } from '../errors.js';
import { resolveExtractOptions } from '../options.js';
import type { ExtractOptions } from '../options.js';
import { buildText, checkParagraphCount } from '../textBuilder.js';
import type { DocumentMetadata, ExtractedText } from '../types.js';
import { buildParagraphs } from './buildParagraphs.js';
import { checkPdfStreams } from './checkPdfStreams.js';
import type { PageStreams } from './buildParagraphs.js';
import { dropRunningLines } from './dropRunningLines.js';
import { groupLines } from './groupLines.js';
import { decodeLimitHits, loadPdf, setDecodeLimit } from './loadPdf.js';
import type { PdfPageLines, PdfTextItem } from './pdfTypes.js';
import { readingOrder } from './readingOrder.js';

/**
 * Extracts the text layer of a PDF in reading order: lines grouped per column (two-column pages read left column
 * first), running headers, footers and page numbers dropped, paragraphs rebuilt, hyphenated words rejoined and
 * ligatures spelled out. Each page's span and each paragraph's first page are reported.
 * Compressed streams are measured before pdf.js opens the file (see `checkPdfStreams`).
 * @throws {DocumentError} `TOO_LARGE`, `STREAMS_TOO_LARGE`, `TOO_MANY_PAGES` (checked on the page tree before any page is read), `TOO_MANY_PARAGRAPHS`,
 * `ENCRYPTED`, `CORRUPT`, `NO_TEXT` (no text layer: a scan), `TOO_MUCH_TEXT`.
 */
export async function extractPdf(bytes: Uint8Array, options: ExtractOptions = {}): Promise<ExtractedText> {
  const limits = resolveExtractOptions(options);
  if (bytes.byteLength > limits.maxBytes) {
    throw new DocumentError('TOO_LARGE', `The PDF is larger than the limit of ${limits.maxBytes} bytes.`);
  }
  await checkPdfStreams(bytes, limits.maxInflatedStreamBytes);
  setDecodeLimit(limits.maxInflatedStreamBytes);
  const pdf = await loadPdf(bytes);
  try {
    const { document } = pdf;
    if (document.numPages > limits.maxPages) {
      throw new DocumentError('TOO_MANY_PAGES', `The PDF has ${document.numPages} pages; the limit is ${limits.maxPages}.`);
    }
    const pages: PdfPageLines[] = [];
    let characters = 0;
    let failedPages = 0;
    for (let number = 1; number <= document.numPages; number += 1) {
      try {
        const page = await document.getPage(number);
        const hits = decodeLimitHits();
        const content = await page.getTextContent();
        if (decodeLimitHits() > hits) {
          throw new DocumentError('STREAMS_TOO_LARGE', `A stream of page ${number} of the PDF decodes to more than ${limits.maxInflatedStreamBytes} bytes; the limit is ${limits.maxInflatedStreamBytes}.`);
        }
        const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = page.view;
        const items: PdfTextItem[] = [];
        for (const item of content.items) {
          if (!('str' in item) || item.str === '') continue;
          const [a = 1, b = 0, , , e = 0, f = 0] = item.transform as number[];
          items.push({ text: item.str, x: e - x0, y: f - y0, width: item.width, fontSize: Math.hypot(a, b) || item.height });
          characters += item.str.length;
        }
        if (characters > limits.maxTextLength) {
          throw new DocumentError('TOO_MUCH_TEXT', `The PDF holds more than ${limits.maxTextLength} characters of text.`);
        }
        pages.push({ number, width: x1 - x0, height: y1 - y0, lines: groupLines(items) });
        page.cleanup();
      } catch (error) {
        if (error instanceof DocumentError) throw error;
        failedPages += 1;
        pages.push({ number, width: 0, height: 0, lines: [] });
      }
    }
    const streams: PageStreams[] = dropRunningLines(pages).map((page) => ({ page: page.number, streams: readingOrder(page.lines) }));
    const paragraphs = buildParagraphs(streams);
    checkParagraphCount(paragraphs.length, limits.maxParagraphs, 'PDF');
    const built = buildText(paragraphs, document.numPages);
    if (built.text.trim() === '') {
      if (failedPages > 0) throw new DocumentError('CORRUPT', 'The PDF file is damaged and its text cannot be read.');
      throw new DocumentError('NO_TEXT', 'The PDF has no extractable text (it may be a scanned image); send a PDF with a text layer or the text itself.');
    }
    return { format: 'pdf', ...built, metadata: await pdfMetadata(document) };
  } finally {
    await pdf.destroy();
  }
}

async function pdfMetadata(document: Awaited<ReturnType<typeof loadPdf>>['document']): Promise<DocumentMetadata> {
  const metadata: DocumentMetadata = {};
  try {
    const { info } = (await document.getMetadata()) as unknown as { info?: Record<string, unknown> };
    const text = (key: string) => (typeof info?.[key] === 'string' && (info[key] as string).trim() !== '' ? (info[key] as string).trim() : undefined);
    const title = text('Title');
    const author = text('Author');
    const subject = text('Subject');
    if (title) metadata.title = title;
    if (author) metadata.author = author;
    if (subject) metadata.description = subject;
  } catch {
    // Metadata is optional: a broken info dictionary leaves the text usable.
  }
  return metadata;
}
