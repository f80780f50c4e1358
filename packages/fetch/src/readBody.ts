import type { IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import type { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { FetchError } from './errors.js';

const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/**
 * Reads a response body, decoding its Content-Encoding, and fails as soon as the decoded size
 * passes `maxBytes` (a compressed bomb stops after at most one decoder chunk past the limit).
 * A declared Content-Length above the limit fails before any byte is read. Every failure
 * destroys the response and with it the socket.
 *
 * @throws {FetchError} `TOO_LARGE` or `NETWORK`; the signal's reason when it aborts.
 */
export async function readBody(
  response: IncomingMessage,
  maxBytes: number,
  signal: AbortSignal,
  url: string,
): Promise<Buffer> {
  const tooLarge = (size: string): FetchError =>
    new FetchError('TOO_LARGE', `The resource is ${size} bytes; the limit is ${maxBytes} bytes`, { url });
  const declaredLength = Number(response.headers['content-length']);
  if (Number.isFinite(declaredLength) && declaredLength > maxBytes) {
    response.destroy();
    throw tooLarge(String(declaredLength));
  }
  let decoders: Transform[];
  try {
    decoders = decodersFor(response.headers['content-encoding']);
  } catch (error) {
    response.destroy();
    throw new FetchError('NETWORK', (error as Error).message, { url });
  }

  const chunks: Buffer[] = [];
  let total = 0;
  const collect = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      total += chunk.length;
      if (total > maxBytes) {
        callback(tooLarge(`more than ${maxBytes}`));
        return;
      }
      chunks.push(chunk);
      callback();
    },
  });
  try {
    await pipeline([response, ...decoders, collect], { signal });
  } catch (error) {
    response.destroy();
    if (signal.aborted) throw signal.reason;
    if (error instanceof FetchError) throw error;
    throw bodyError(error, decoders.length > 0, url);
  }
  return Buffer.concat(chunks, total);
}

function decodersFor(header: string | undefined): Transform[] {
  const codings = (header ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  // Codings are listed in the order they were applied, so they are undone from the last.
  return codings.reverse().map((coding) => {
    const create = DECODERS[coding];
    if (create === undefined) throw new Error(`Unsupported content encoding "${coding}"`);
    return create();
  });
}

function bodyError(error: unknown, decoding: boolean, url: string): FetchError {
  const code = (error as { code?: unknown }).code;
  const message =
    decoding && typeof code === 'string' && code.startsWith('Z_')
      ? `Could not decode the response body (${code})`
      : `The connection failed while reading the body (${typeof code === 'string' ? code : (error as Error).message})`;
  return new FetchError('NETWORK', message, { url, cause: error });
}
