import { isFetchError } from '@content-analysis/fetch';

/**
 * Stable codes of {@link DocumentError}. Callers branch on these, never on messages.
 *
 * - `NO_INPUT`: none of `website`, `file` and `text` was given.
 * - `UNSUPPORTED_TYPE`: the file is not a PDF, DOCX or DOC (judged on the bytes).
 * - `NO_TEXT`: the document has no extractable text (a scanned PDF, an empty document).
 * - `ENCRYPTED`: the document is password protected.
 * - `CORRUPT`: the document cannot be parsed.
 * - `TOO_MANY_PAGES`: the PDF has more pages than `maxPages`.
 * - `TOO_LARGE`: the document bytes exceed `maxBytes` (when the bytes are given directly).
 * - `ARCHIVE_TOO_LARGE`: the DOCX archive inflates beyond `maxUncompressedBytes` or holds more than `maxZipEntries`
 *   entries (a zip bomb).
 * - `TOO_MUCH_TEXT`: the extracted text exceeds `maxTextLength`.
 * - `TOO_MANY_ELEMENTS`: the DOCX document's XML holds more than `maxElements` elements.
 * - `TOO_MANY_PARAGRAPHS`: the document holds more than `maxParagraphs` paragraphs.
 * - `STREAMS_TOO_LARGE`: the PDF's compressed streams inflate beyond `maxInflatedStreamBytes` (a decompression bomb).
 */
export type DocumentErrorCode =
  | 'NO_INPUT'
  | 'UNSUPPORTED_TYPE'
  | 'NO_TEXT'
  | 'ENCRYPTED'
  | 'CORRUPT'
  | 'TOO_MANY_PAGES'
  | 'TOO_LARGE'
  | 'ARCHIVE_TOO_LARGE'
  | 'TOO_MUCH_TEXT'
  | 'TOO_MANY_ELEMENTS'
  | 'TOO_MANY_PARAGRAPHS'
  | 'STREAMS_TOO_LARGE';

/**
 * A document or input the engine cannot turn into text. `message` is written for the API caller (it becomes the
 * `description` of the error body).
 */
export class DocumentError extends Error {
  override readonly name = 'DocumentError';
  readonly code: DocumentErrorCode;

  constructor(code: DocumentErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}

/** Narrows an unknown thrown value to a {@link DocumentError}. */
export function isDocumentError(value: unknown): value is DocumentError {
  return value instanceof DocumentError;
}

/** API error codes of the response fields spec that input failures map to. */
export type InputApiErrorCode = 'BAD_REQUEST' | 'FORBIDDEN';

/**
 * Maps a failure of {@link resolveTextInput} (or of any fetch or extraction here) to the API error code:
 * every {@link DocumentError} is the caller's document, so `BAD_REQUEST`; a `FetchError` keeps the fetcher's
 * mapping (`BAD_REQUEST` for an invalid URL, `FORBIDDEN` when the URL is not accessible to the service, including
 * a body above the size limit). Anything else is not an input failure and gives `undefined` (an internal error).
 */
export function inputErrorToApiCode(error: unknown): InputApiErrorCode | undefined {
  if (isDocumentError(error)) return 'BAD_REQUEST';
  if (isFetchError(error)) return error.forbidden ? 'FORBIDDEN' : 'BAD_REQUEST';
  return undefined;
}
