import { constants, createInflateRaw } from 'node:zlib';
import { DocumentError } from '../errors.js';

const STREAM = Buffer.from('stream');
const END_STREAM = Buffer.from('endstream');
// How far before `stream` its dictionary is looked for; dictionaries of content streams are short.
const DICTIONARY_WINDOW = 4096;
const FLATE_FIRST = /\/Filter\s*(?:\[\s*)?\/(?:FlateDecode|Fl)(?![A-Za-z0-9])/;
const IMAGE = /\/Subtype\s*\/Image(?![A-Za-z0-9])/;
const LENGTH = /\/Length\s+(\d+)(?!\s+\d+\s+R)/;
// Image data is never decoded for text, but a stream that calls itself an image can still be a page's content: image
// streams have their own, larger allowance, and pdf.js's decoding is capped per stream as well (see loadPdf).
const IMAGE_ALLOWANCE = 16;

/**
 * Measures what the compressed streams of a PDF inflate to, before pdf.js sees the file: pdf.js holds a whole
 * decoded content stream in memory and parses every operator in it, so a 1 MB file whose page content inflates to
 * 1 GiB took 18 s and 2.36 GB. Each stream whose first filter is FlateDecode is inflated and counted, never held:
 * all but images against `maxInflatedBytes`, images (which text extraction does not decode unless they are a page's
 * content in disguise) against 16 times that. Streams that are not
 * zlib data are left to pdf.js, which refuses them too.
 * @throws {DocumentError} `STREAMS_TOO_LARGE` when the streams inflate to more than `maxInflatedBytes` in all.
 */
export async function checkPdfStreams(bytes: Uint8Array, maxInflatedBytes: number): Promise<void> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const maxImageBytes = IMAGE_ALLOWANCE * maxInflatedBytes;
  let total = 0;
  let images = 0;
  let keyword = buffer.indexOf(STREAM);
  while (keyword >= 0) {
    const next = keyword + STREAM.length;
    const start = dataStart(buffer, next);
    if (start < 0 || !followsDictionary(buffer, keyword)) {
      keyword = buffer.indexOf(STREAM, next);
      continue;
    }
    const dictionary = buffer.toString('latin1', Math.max(0, buffer.lastIndexOf('<<', keyword, 'latin1') - DICTIONARY_WINDOW), keyword);
    const ownDictionary = dictionary.slice(dictionary.lastIndexOf(' obj') + 1);
    const declared = Number(LENGTH.exec(ownDictionary)?.[1] ?? Number.NaN);
    let end = Number.isInteger(declared) && start + declared <= buffer.length ? start + declared : buffer.indexOf(END_STREAM, start);
    if (end < 0) end = buffer.length;
    if (FLATE_FIRST.test(ownDictionary)) {
      if (IMAGE.test(ownDictionary)) {
        images += await inflatedSize(buffer.subarray(start, end), maxImageBytes - images);
        if (images > maxImageBytes) {
          throw new DocumentError('STREAMS_TOO_LARGE', `The PDF's compressed images inflate to more than ${maxImageBytes} bytes (a decompression bomb); the limit is ${maxImageBytes}.`);
        }
      } else {
        total += await inflatedSize(buffer.subarray(start, end), maxInflatedBytes - total);
        if (total > maxInflatedBytes) {
          throw new DocumentError('STREAMS_TOO_LARGE', `The PDF's compressed streams inflate to more than ${maxInflatedBytes} bytes (a decompression bomb); the limit is ${maxInflatedBytes}.`);
        }
      }
    }
    keyword = buffer.indexOf(STREAM, Math.max(next, end));
  }
}

/** Where the data of a stream starts: after `stream` and its end of line (CRLF, LF, or a lone CR as pdf.js allows). */
function dataStart(buffer: Buffer, afterKeyword: number): number {
  const first = buffer[afterKeyword];
  if (first === 0x0a) return afterKeyword + 1;
  if (first === 0x0d) return buffer[afterKeyword + 1] === 0x0a ? afterKeyword + 2 : afterKeyword + 1;
  return -1;
}

/** Whether `stream` at `keyword` follows a dictionary's `>>` (so it is the keyword, not `endstream` or text). */
function followsDictionary(buffer: Buffer, keyword: number): boolean {
  let position = keyword - 1;
  while (position > 0 && (buffer[position] === 0x20 || buffer[position] === 0x0a || buffer[position] === 0x0d || buffer[position] === 0x09)) position -= 1;
  return buffer[position] === 0x3e && buffer[position - 1] === 0x3e;
}

/**
 * Bytes a zlib stream inflates to as pdf.js reads it: the header checked, the checksum not, a truncated or damaged
 * stream counted up to where it breaks. Inflated data is counted and dropped as it comes (64 KiB at a time), and
 * reading stops once past `budget`.
 */
function inflatedSize(data: Buffer, budget: number): Promise<number> {
  const header = ((data[0] ?? 0) << 8) | (data[1] ?? 0);
  if (data.length < 2 || (data[0]! & 0x0f) !== 8 || header % 31 !== 0) return Promise.resolve(0);
  return new Promise((resolve) => {
    const inflate = createInflateRaw({ finishFlush: constants.Z_SYNC_FLUSH, chunkSize: 1 << 16 });
    let size = 0;
    const done = () => {
      inflate.removeAllListeners('data');
      resolve(size);
    };
    inflate.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > budget) {
        inflate.destroy();
        done();
      }
    });
    inflate.on('error', done);
    inflate.on('end', done);
    inflate.on('close', done);
    inflate.end(data.subarray(2));
  });
}
