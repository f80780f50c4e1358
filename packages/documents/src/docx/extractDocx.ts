import { DocumentError } from '../errors.js';
import { mammoth } from '../lazyModules.js';
import { resolveExtractOptions } from '../options.js';
import type { ExtractOptions } from '../options.js';
import { buildText, checkParagraphCount } from '../textBuilder.js';
import type { DocumentMetadata, ExtractedText } from '../types.js';
import { parseDocument } from '../html/dom.js';
import { htmlParagraphs } from '../html/htmlParagraphs.js';
import { checkDocxBudget } from './checkDocxBudget.js';
import { readZipEntries } from './readZipEntries.js';
import { writeStoredZip } from './writeStoredZip.js';

// Parts that never hold text: images, embedded objects, fonts, thumbnails. Not inflated (their sizes still count).
const BINARY_PART = /^(?:word\/(?:media|embeddings|fonts)\/|docProps\/thumbnail)/i;

/**
 * Extracts the text of a DOCX document with mammoth: paragraphs and headings in order, tables one row per paragraph
 * (cells separated by tabs), footnote and endnote references as `[n]` and the notes themselves at the end as
 * `[n] text`. The archive is inflated within limits first (see `readZipEntries`) and mammoth only reads the
 * rebuilt, already inflated archive; images are never decoded and external files are never read.
 * The XML is counted first (elements, paragraphs, character data; see `checkDocxBudget`), since mammoth's memory
 * grows with the element count.
 * @throws {DocumentError} `TOO_LARGE`, `ARCHIVE_TOO_LARGE`, `TOO_MANY_ELEMENTS`, `TOO_MANY_PARAGRAPHS`, `ENCRYPTED`,
 * `CORRUPT`, `NO_TEXT`, `TOO_MUCH_TEXT`.
 */
export async function extractDocx(bytes: Uint8Array, options: ExtractOptions = {}): Promise<ExtractedText> {
  const limits = resolveExtractOptions(options);
  if (bytes.byteLength > limits.maxBytes) {
    throw new DocumentError('TOO_LARGE', `The DOCX file is larger than the limit of ${limits.maxBytes} bytes.`);
  }
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries = readZipEntries(buffer, {
    maxUncompressedBytes: limits.maxUncompressedBytes,
    maxEntries: limits.maxZipEntries,
    skip: (name) => BINARY_PART.test(name),
  });
  if (!entries.some((entry) => entry.name === 'word/document.xml')) {
    throw new DocumentError('CORRUPT', 'The file is a ZIP archive but not a DOCX document (no word/document.xml).');
  }
  checkDocxBudget(entries, limits);
  let html: string;
  try {
    const result = await mammoth().convertToHtml({ buffer: writeStoredZip(entries) }, {
      convertImage: mammoth().images.imgElement(async () => ({ src: '' })),
      externalFileAccess: false,
      ignoreEmptyParagraphs: true,
    });
    html = result.value;
  } catch (error) {
    throw new DocumentError('CORRUPT', 'The DOCX file is damaged and its text cannot be read.', { cause: error });
  }
  if (html.length > 4 * limits.maxTextLength) {
    throw new DocumentError('TOO_MUCH_TEXT', `The DOCX document holds more than ${limits.maxTextLength} characters of text.`);
  }
  const document = parseDocument(`<!DOCTYPE html><html><body>${html}</body></html>`);
  for (const note of Array.from(document.querySelectorAll('li[id^="footnote-"], li[id^="endnote-"]'))) {
    for (const back of Array.from(note.querySelectorAll('a[href^="#footnote-ref-"], a[href^="#endnote-ref-"]'))) back.remove();
    const number = /-(\d+)$/.exec(note.getAttribute('id') ?? '')?.[1];
    const first = note.querySelector('p') ?? note;
    if (number !== undefined) first.prepend(`[${number}] `);
  }
  const built = buildText(document.body === null ? [] : htmlParagraphs(document.body));
  if (built.text.length > limits.maxTextLength) {
    throw new DocumentError('TOO_MUCH_TEXT', `The DOCX document holds more than ${limits.maxTextLength} characters of text.`);
  }
  checkParagraphCount(built.paragraphs.length, limits.maxParagraphs, 'DOCX document');
  if (built.text === '') throw new DocumentError('NO_TEXT', 'The DOCX document has no text.');
  return { format: 'docx', ...built, metadata: docxMetadata(entries) };
}

/** Title and author from docProps/core.xml (Dublin Core), when present. */
function docxMetadata(entries: readonly { name: string; data: Buffer }[]): DocumentMetadata {
  const core = entries.find((entry) => entry.name === 'docProps/core.xml')?.data.toString('utf8');
  const metadata: DocumentMetadata = {};
  if (core === undefined) return metadata;
  // indexOf rather than a regular expression: `<tag[^>]*>([^<]*)</tag>` is quadratic on a part of unclosed tags.
  const field = (tag: string) => {
    const open = core.indexOf(`<${tag}`);
    const contentStart = open < 0 ? -1 : core.indexOf('>', open) + 1;
    if (contentStart <= 0 || core[contentStart - 2] === '/') return undefined;
    const close = core.indexOf(`</${tag}>`, contentStart);
    const value = close < 0 ? undefined : core.slice(contentStart, close);
    if (value === undefined || value.includes('<')) return undefined;
    const trimmed = value.trim();
    return trimmed === '' ? undefined : decodeXmlEntities(trimmed);
  };
  const title = field('dc:title');
  const author = field('dc:creator');
  const description = field('dc:description');
  if (title) metadata.title = title;
  if (author) metadata.author = author;
  if (description) metadata.description = description;
  return metadata;
}

function decodeXmlEntities(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (entity, name: string) => {
    const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return named[name.toLowerCase()] ?? entity;
  });
}
