import type { PDFDocumentLoadingTask, PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { DocumentError } from '../errors.js';
import { pdfjs } from './pdfjs.js';

/** An open PDF and the task to destroy when done. */
export interface OpenPdf {
  document: PDFDocumentProxy;
  destroy: () => Promise<void>;
}

// Read by the project's patch of pdf.js (patches/pdfjs-dist@*.patch, in DecodeStream.ensureBuffer): a stream whose
// decoded bytes would pass the limit throws there, counting the hit, instead of growing its buffer.
interface DecodeLimitGlobals {
  __contentAnalysisMaxDecodedStreamBytes?: number;
  __contentAnalysisDecodeLimitHits?: number;
}
const decodeGlobals = globalThis as DecodeLimitGlobals;

/**
 * Sets the most bytes pdf.js may decode from any one stream (a page's content, a form, a font), process-wide: the
 * backstop of `checkPdfStreams` for what a pre-scan cannot measure (filters other than FlateDecode first, streams
 * that call themselves images). pdf.js reports such a failure only as a warning, so callers compare
 * {@link decodeLimitHits} before and after.
 */
export function setDecodeLimit(maxBytes: number): void {
  decodeGlobals.__contentAnalysisMaxDecodedStreamBytes = maxBytes;
}

/** How many times, in this process, pdf.js stopped a stream at the decode limit. */
export function decodeLimitHits(): number {
  return decodeGlobals.__contentAnalysisDecodeLimitHits ?? 0;
}

/**
 * Opens a PDF with pdf.js for text extraction only: no network, no system fonts, no font faces, no eval, no XFA.
 * The bytes are copied, since pdf.js takes ownership of (detaches) the buffer it is given.
 * @throws {DocumentError} `ENCRYPTED` when a password is needed, `CORRUPT` when the file cannot be parsed.
 */
export async function loadPdf(bytes: Uint8Array): Promise<OpenPdf> {
  const { getDocument } = await pdfjs();
  const task: PDFDocumentLoadingTask = getDocument({
    data: new Uint8Array(bytes),
    verbosity: 0,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    enableXfa: false,
    stopAtErrors: false,
    isOffscreenCanvasSupported: false,
  });
  try {
    const document = await task.promise;
    return { document, destroy: () => task.destroy() };
  } catch (error) {
    await task.destroy().catch(() => undefined);
    throw pdfLoadError(error);
  }
}

function pdfLoadError(error: unknown): DocumentError {
  const name = error instanceof Error ? error.name : '';
  if (name === 'PasswordException') {
    return new DocumentError('ENCRYPTED', 'The PDF is password protected; send a PDF that opens without a password.', { cause: error });
  }
  return new DocumentError('CORRUPT', 'The PDF file is damaged or not a valid PDF and its text cannot be read.', { cause: error });
}
