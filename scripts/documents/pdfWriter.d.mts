// Types of pdfWriter.mjs, for the tests that build their PDFs with it.

/** Escapes a PDF literal string (7.3.4.2). Bytes above 0x7e are written as octal escapes. */
export function pdfString(bytes: Uint8Array): string;

export interface PdfSpec {
  /** One content stream per page. */
  pageContents: string[];
  /** Resource name -> font dictionary source. */
  fonts?: Record<string, string>;
  /** Resource name -> image XObject. */
  xobjects?: Record<string, { dict: string; stream: Buffer }>;
  /** @default [612, 792] (US Letter) */
  mediaBox?: [number, number];
  /** /Count written in the page tree instead of the real one. */
  declaredCount?: number;
  /** Extra trailer entries (e.g. /Encrypt). */
  trailerExtra?: string;
  /** Document information dictionary. */
  info?: Record<string, string>;
  /** Every page uses the first content stream. */
  shareContent?: boolean;
}

/** Builds a PDF file. */
export function buildPdf(spec: PdfSpec): Buffer;
