import { guardedFetch } from '@content-analysis/fetch';
import { extractDocument } from './extractDocument.js';
import { resolveExtractOptions } from './options.js';
import type { ExtractOptions } from './options.js';
import type { FetchPassThrough } from './remoteOptions.js';
import type { ExtractedText } from './types.js';

/** Options of {@link fetchDocument}. `maxBytes` is also the download limit. */
export interface FetchDocumentOptions extends ExtractOptions {
  /**
   * Passed to the guarded fetcher (time limits, redirects, test hooks).
   * @default {}
   */
  fetch?: FetchPassThrough;
  /**
   * Extracts the fetched bytes' text with the resolved limits, where the caller wants it done (a server runs it in a
   * worker thread, so that a hostile document's bounded work does not hold its event loop).
   * @default extractDocument, on this thread
   */
  extract?: (bytes: Uint8Array, limits: ExtractOptions) => Promise<ExtractedText>;
}

/** A document fetched from a URL, with the URL it was finally read from (after redirects). */
export interface FetchedDocument extends ExtractedText {
  url: string;
}

/**
 * Fetches a PDF, DOCX or DOC document through the guarded fetcher (public addresses only, at most `maxBytes`,
 * default 20 MiB) and extracts its text.
 * @throws {FetchError} when the URL is invalid or not accessible (see `inputErrorToApiCode`).
 * @throws {DocumentError} when the document cannot be read.
 */
export async function fetchDocument(url: string, options: FetchDocumentOptions = {}): Promise<FetchedDocument> {
  const limits = resolveExtractOptions(options);
  const resource = await guardedFetch(url, { ...options.fetch, maxBytes: limits.maxBytes });
  const extracted = await (options.extract ?? extractDocument)(resource.bytes, limits);
  return { ...extracted, url: resource.url };
}
