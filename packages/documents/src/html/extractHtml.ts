import { DocumentError } from '../errors.js';
import { readability } from '../lazyModules.js';
import { positiveInteger } from '../options.js';
import { buildText } from '../textBuilder.js';
import type { ExtractedText } from '../types.js';
import { decodeHtml } from './decodeHtml.js';
import { parseDocument } from './dom.js';
import type { DomDocument, DomNode } from './dom.js';
import { htmlParagraphs } from './htmlParagraphs.js';
import { readPageMetadata } from './readPageMetadata.js';

/** Options of {@link extractHtml}. */
export interface ExtractHtmlOptions {
  /**
   * The `Content-Type` header the page came with, for its charset.
   * @default undefined
   */
  contentType?: string;
  /**
   * Most elements the main-content extractor examines; a larger page fails with `TOO_LARGE`.
   * @default 100000
   */
  maxElements?: number;
}

// Overlays that Readability's own heuristics do not always catch: consent and cookie banners, dialogs.
const OVERLAYS = '[id*="cookie" i], [class*="cookie" i], [id*="consent" i], [class*="consent" i], [role="dialog"], [aria-modal="true"], dialog';

/**
 * Extracts the main content of a web page, as a reader sees it: the article without navigation, ads, cookie
 * banners, comments or footer (Mozilla Readability, after removing consent overlays), split into paragraphs; and
 * the page metadata (see `readPageMetadata`). A page where Readability finds no article falls back to its body.
 * @throws {DocumentError} `NO_TEXT` (nothing to read), `TOO_LARGE` (more than `maxElements` elements).
 */
export function extractHtml(bytes: Uint8Array | string, options: ExtractHtmlOptions = {}): ExtractedText {
  const maxElements = positiveInteger('maxElements', options.maxElements, 100_000);
  const html = typeof bytes === 'string' ? bytes : decodeHtml(bytes, options.contentType);
  // Start tags are counted on the string first, so a page of half a million empty elements fails before the DOM is built.
  const tags = countStartTags(html, maxElements);
  if (tags > maxElements) throw new DocumentError('TOO_LARGE', `The page has more than ${maxElements} elements; the limit is ${maxElements}.`);
  const document = parseDocument(html);
  // Counted here: Readability's own maxElemsToParse relies on getElementsByTagName('*'), which linkedom does not match.
  const elements = document.querySelectorAll('*').length;
  if (elements > maxElements) throw new DocumentError('TOO_LARGE', `The page has ${elements} elements; the limit is ${maxElements}.`);
  const metadata = readPageMetadata(document);
  for (const overlay of Array.from(document.querySelectorAll(OVERLAYS))) {
    if (overlay.tagName !== 'BODY' && overlay.tagName !== 'HTML') overlay.remove();
  }
  const article = new (readability().Readability<DomNode>)(document as never, { serializer: (node) => node as unknown as DomNode }).parse();
  const root: DomNode | null | undefined = article?.content ?? bodyOf(document);
  const built = buildText(root ? htmlParagraphs(root) : []);
  if (built.text === '') throw new DocumentError('NO_TEXT', 'The web page has no readable text.');
  if (metadata.author === undefined && article?.byline) metadata.author = article.byline.trim();
  if (metadata.title === undefined && article?.title) metadata.title = article.title.trim();
  return { format: 'html', ...built, metadata };
}

/** `<` followed by a letter, counted up to `stop + 1` (an upper bound of the elements a parser creates). */
function countStartTags(html: string, stop: number): number {
  let count = 0;
  for (let at = html.indexOf('<'); at >= 0 && count <= stop; at = html.indexOf('<', at + 1)) {
    const next = html.charCodeAt(at + 1) | 0x20;
    if (next >= 0x61 && next <= 0x7a) count += 1;
  }
  return count;
}

function bodyOf(document: DomDocument): DomNode | null {
  return document.body;
}
