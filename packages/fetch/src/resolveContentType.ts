import {
  DOCX,
  UNKNOWN_CONTENT_TYPE,
  contentTypeEssence,
  isGenericContentType,
  isSniffableContentType,
  isTextContentType,
} from './contentTypes.js';
import { FetchError } from './errors.js';
import { sniffContentType } from './sniffContentType.js';

/**
 * Decides the content type of a fetched body from its bytes, checking the declared
 * Content-Type against them and the result against the accepted kinds.
 *
 * A declared type that names a kind the bytes do not have is a mismatch; a generic declared type
 * (`application/octet-stream`, none) lets the bytes decide. Bytes cannot tell HTML without a leading
 * tag from plain text, so a text body declared `text/html` is taken as HTML.
 *
 * @throws {FetchError} `CONTENT_TYPE_MISMATCH`
 */
export function resolveContentType(
  bytes: Uint8Array,
  declaredHeader: string | undefined,
  accept: readonly string[] | undefined,
  url: string,
): string {
  const declared = contentTypeEssence(declaredHeader);
  const sniffed = sniffContentType(bytes);
  const mismatch = (message: string): FetchError => new FetchError('CONTENT_TYPE_MISMATCH', message, { url });
  let type: string;
  if (sniffed === undefined) {
    if (isSniffableContentType(declared)) {
      const what = bytes.length === 0 ? 'the body is empty' : 'the bytes do not match it';
      throw mismatch(`The server declared ${declared} but ${what}`);
    }
    type = UNKNOWN_CONTENT_TYPE;
  } else if (isTextContentType(sniffed)) {
    if (!isGenericContentType(declared) && !isTextContentType(declared)) {
      throw mismatch(`The server declared ${declared} but sent ${sniffed === 'text/html' ? 'HTML' : 'text'}`);
    }
    type = sniffed === 'text/plain' && declared === 'text/html' ? 'text/html' : sniffed;
  } else {
    const compatible = declared === sniffed || (sniffed === DOCX && declared === 'application/zip');
    if (!isGenericContentType(declared) && !compatible) {
      throw mismatch(`The server declared ${declared} but the bytes are ${sniffed}`);
    }
    type = sniffed;
  }
  if (accept !== undefined && !accept.includes(type)) {
    throw mismatch(`The content is ${type}; expected ${accept.join(', ')}`);
  }
  return type;
}
