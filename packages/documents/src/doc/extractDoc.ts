import { DocumentError } from '../errors.js';
import { resolveExtractOptions } from '../options.js';
import type { ExtractOptions } from '../options.js';
import { buildText, checkParagraphCount } from '../textBuilder.js';
import type { TextPiece } from '../textBuilder.js';
import type { ExtractedText } from '../types.js';
import { docLines } from './docLines.js';
import { readWordDocument } from './wordExtractor.js';

// An encrypted Office document is an OLE2 file holding an "EncryptedPackage" stream (MS-OFFCRYPTO 2.3.4.4).
const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

/**
 * Extracts the text of a legacy Word 97-2003 document with word-extractor: one paragraph per body line, table rows
 * as their cells separated by tabs, then the footnotes and endnotes as `[n] text` in order.
 * @throws {DocumentError} `TOO_LARGE`, `ENCRYPTED`, `CORRUPT`, `NO_TEXT`, `TOO_MUCH_TEXT`, `TOO_MANY_PARAGRAPHS`.
 */
export async function extractDoc(bytes: Uint8Array, options: ExtractOptions = {}): Promise<ExtractedText> {
  const limits = resolveExtractOptions(options);
  if (bytes.byteLength > limits.maxBytes) {
    throw new DocumentError('TOO_LARGE', `The DOC file is larger than the limit of ${limits.maxBytes} bytes.`);
  }
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.includes(ENCRYPTED_PACKAGE)) {
    throw new DocumentError('ENCRYPTED', 'The document is password protected; send a document that opens without a password.');
  }
  let parts;
  try {
    parts = await readWordDocument(buffer);
  } catch (error) {
    throw new DocumentError('CORRUPT', 'The DOC file is damaged or not a Word document and its text cannot be read.', { cause: error });
  }
  const notes = [...docLines(parts.getFootnotes()), ...docLines(parts.getEndnotes())].map((note, index) => `[${index + 1}] ${note}`);
  const body = docLines(parts.getBody());
  checkParagraphCount(body.length + notes.length, limits.maxParagraphs, 'DOC document');
  const paragraphs: TextPiece[][] = [...body, ...notes].map((text) => [{ text }]);
  const built = buildText(paragraphs);
  if (built.text.length > limits.maxTextLength) {
    throw new DocumentError('TOO_MUCH_TEXT', `The DOC document holds more than ${limits.maxTextLength} characters of text.`);
  }
  if (built.text === '') throw new DocumentError('NO_TEXT', 'The DOC document has no text.');
  return { format: 'doc', ...built, metadata: {} };
}
