import { guardedFetch } from '@content-analysis/fetch';
import { DocumentError } from './errors.js';
import { decodeHtml } from './html/decodeHtml.js';
import { extractHtml } from './html/extractHtml.js';
import { positiveInteger } from './options.js';
import type { FetchPassThrough } from './remoteOptions.js';
import { splitPlainText } from './splitPlainText.js';
import type { ExtractedText } from './types.js';

/** Options of {@link fetchWebPage}. */
export interface FetchWebPageOptions {
  /**
   * Largest page accepted, in bytes after content decoding; a larger page fails with the fetcher's `TOO_LARGE`.
   * @default 5242880 (5 MiB)
   */
  maxHtmlBytes?: number;
  /**
   * Most elements the main-content extractor examines.
   * @default 100000
   */
  maxElements?: number;
  /**
   * Passed to the guarded fetcher (time limits, redirects, test hooks).
   * @default {}
   */
  fetch?: FetchPassThrough;
}

/** Default size limit of a web page. */
export const DEFAULT_MAX_HTML_BYTES = 5 * 1024 * 1024;

/** A page fetched from a URL, with the URL it was finally read from (after redirects). */
export interface FetchedWebPage extends ExtractedText {
  url: string;
}

/**
 * Fetches a web page through the guarded fetcher (public addresses only, HTML or plain text, at most
 * `maxHtmlBytes`) and extracts its main content and metadata (see `extractHtml`).
 * @throws {FetchError} when the URL is invalid, not accessible, too large or not a page (see `inputErrorToApiCode`).
 * @throws {DocumentError} `NO_TEXT` when the page has nothing to read.
 */
export async function fetchWebPage(url: string, options: FetchWebPageOptions = {}): Promise<FetchedWebPage> {
  const maxBytes = positiveInteger('maxHtmlBytes', options.maxHtmlBytes, DEFAULT_MAX_HTML_BYTES);
  const resource = await guardedFetch(url, { ...options.fetch, maxBytes, accept: ['text/html', 'text/plain'] });
  if (resource.contentType === 'text/plain') {
    const built = splitPlainText(decodeHtml(resource.bytes, resource.declaredContentType));
    if (built.text.trim() === '') throw new DocumentError('NO_TEXT', 'The web page has no readable text.');
    return { format: 'text', ...built, metadata: {}, url: resource.url };
  }
  const extractOptions = options.maxElements === undefined ? {} : { maxElements: options.maxElements };
  const page = extractHtml(resource.bytes, { ...extractOptions, ...(resource.declaredContentType === undefined ? {} : { contentType: resource.declaredContentType }) });
  return { ...page, url: resource.url };
}
