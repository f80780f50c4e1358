import type { IncomingMessage } from 'node:http';
import { ApiError } from '@content-analysis/engine';

/** Bytes of an over-long body the server still reads (and discards) so the client can read its 400. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

function mib(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 100) / 100} MiB`;
}

function tooLarge(limit: number): ApiError {
  return new ApiError('BAD_REQUEST', `The request body exceeds the limit of ${mib(limit)} for this endpoint.`);
}

/**
 * Discards the rest of a rejected body, up to a bound, so that the client finishes sending and then reads the
 * answer; past the bound the connection is cut. Resolves when the body has ended or the connection closed: an
 * answer sent before that races the client's upload (the server closes a connection whose request it did not
 * read to the end, and the client still writing sees a reset instead of the 400).
 */
export function drain(req: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    if (req.readableEnded || req.destroyed) {
      resolve();
      return;
    }
    let seen = 0;
    req.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_LIMIT) req.destroy();
    });
    req.once('end', () => resolve());
    req.once('close', () => resolve());
    req.resume();
  });
}

/**
 * Reads a request body of at most `limit` bytes. Throws BAD_REQUEST past the limit, after draining the rest (see
 * `drain`). Reads by events, not by async iteration: leaving an async iterator early destroys the stream.
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    await drain(req);
    throw tooLarge(limit);
  }
  const body = await new Promise<Buffer | undefined>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      req.off('end', onEnd);
      chunks.length = 0;
      void drain(req).then(() => resolve(undefined));
    };
    const onEnd = (): void => resolve(Buffer.concat(chunks, size));
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', reject);
    req.once('close', () => {
      if (!req.readableEnded) reject(new ApiError('BAD_REQUEST', 'The request body ended before it was complete.'));
    });
  });
  if (body === undefined) throw tooLarge(limit);
  return body;
}

/** Parses a JSON body; a malformed one is BAD_REQUEST saying where it broke. */
export function parseJson(bytes: Buffer): unknown {
  const text = bytes.toString('utf8');
  if (text.trim().length === 0) throw new ApiError('BAD_REQUEST', 'The request body is empty; a JSON object is expected.');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError('BAD_REQUEST', `Malformed JSON body: ${(error as Error).message}`);
  }
}

/** Whether a Content-Type header names JSON (`application/json`, any parameters, any case). */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const type = header.split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/json';
}
