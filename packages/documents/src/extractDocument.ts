import { sniffContentType } from '@content-analysis/fetch';
import { extractDoc } from './doc/extractDoc.js';
import { extractDocx } from './docx/extractDocx.js';
import { DocumentError } from './errors.js';
import type { ExtractOptions } from './options.js';
import { extractPdf } from './pdf/extractPdf.js';
import type { ExtractedText } from './types.js';

/**
 * Extracts the text of a PDF, DOCX or legacy DOC document, recognised from its bytes (never from a file name or a
 * declared type).
 * @throws {DocumentError} `UNSUPPORTED_TYPE` for anything else, and the errors of `extractPdf`, `extractDocx`,
 * `extractDoc`.
 */
export async function extractDocument(bytes: Uint8Array, options: ExtractOptions = {}): Promise<ExtractedText> {
  const type = sniffContentType(bytes);
  switch (type) {
    case 'application/pdf':
      return extractPdf(bytes, options);
    case 'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
      return extractDocx(bytes, options);
    case 'application/msword':
      return extractDoc(bytes, options);
    default:
      throw new DocumentError('UNSUPPORTED_TYPE', `The file must be a PDF, DOC or DOCX document${type === undefined ? '' : ` (received ${type})`}.`);
  }
}
