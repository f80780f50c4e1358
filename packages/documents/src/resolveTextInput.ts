import { DocumentError } from './errors.js';
import { fetchDocument } from './fetchDocument.js';
import type { FetchDocumentOptions } from './fetchDocument.js';
import { fetchWebPage } from './fetchWebPage.js';
import type { FetchWebPageOptions } from './fetchWebPage.js';
import { splitPlainText } from './splitPlainText.js';
import type { ExtractedText } from './types.js';

/** The three ways a caller can give text (request fields of the API). */
export interface TextInputFields {
  website?: unknown;
  file?: unknown;
  text?: unknown;
}

/** Which input was used, for the result's `input` field. */
export type TextInputKind = 'website' | 'file' | 'text';

/** Options of {@link resolveTextInput}: document limits, page limits and fetch options together. */
export interface ResolveTextInputOptions extends Omit<FetchDocumentOptions, 'fetch'>, Omit<FetchWebPageOptions, 'fetch'> {
  /**
   * Passed to the guarded fetcher for `website` and `file`.
   * @default {}
   */
  fetch?: FetchDocumentOptions['fetch'];
  /** Where a `file`'s text is extracted (see {@link FetchDocumentOptions.extract}). @default this thread */
  extract?: FetchDocumentOptions['extract'];
}

/** The text to analyse and where it came from. */
export interface ResolvedTextInput extends ExtractedText {
  input: TextInputKind;
  /** The URL read, after redirects; absent for `text`. */
  url?: string;
  /** The document or page title, when known (same as `metadata.title`). */
  title?: string;
}

const given = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

/**
 * Picks the input by the API's priority, website, then file, then text (a field counts when it is present and not
 * an empty string), and returns its text: the main content of the web page, the text of the PDF/DOCX/DOC document,
 * or the text itself unchanged. A failing higher-priority input is an error; it never falls back to a lower one.
 * Bounds on the text length are the caller's (they differ per endpoint).
 * @throws {DocumentError} `NO_INPUT` when no field is given, and the document errors.
 * @throws {FetchError} for a URL that is invalid or not accessible. Map either with `inputErrorToApiCode`.
 */
export async function resolveTextInput(fields: TextInputFields, options: ResolveTextInputOptions = {}): Promise<ResolvedTextInput> {
  const fetch = options.fetch ?? {};
  if (given(fields.website)) {
    const page = await fetchWebPage(fields.website as string, {
      fetch,
      ...(options.maxHtmlBytes === undefined ? {} : { maxHtmlBytes: options.maxHtmlBytes }),
      ...(options.maxElements === undefined ? {} : { maxElements: options.maxElements }),
    });
    return withTitle({ ...page, input: 'website' });
  }
  if (given(fields.file)) {
    const { maxHtmlBytes: _html, maxElements: _elements, fetch: _fetch, extract: _extract, ...limits } = options;
    const document = await fetchDocument(fields.file as string, { ...limits, fetch, ...(options.extract ? { extract: options.extract } : {}) });
    return withTitle({ ...document, input: 'file' });
  }
  if (typeof fields.text === 'string' && fields.text !== '') {
    return { input: 'text', format: 'text', ...splitPlainText(fields.text), metadata: {} };
  }
  if (given(fields.text)) throw new DocumentError('NO_INPUT', 'text must be a string.');
  throw new DocumentError('NO_INPUT', 'Give one of website, file or text.');
}

function withTitle(result: ResolvedTextInput): ResolvedTextInput {
  return result.metadata.title === undefined ? result : { ...result, title: result.metadata.title };
}
