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
 * Discards the rest of a rejected body, up to a bound, so that the client finishes sending and reads the
 * answer; past the bound the connection is cut.
 */
export function drain(req: IncomingMessage): void {
  let seen = 0;
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DRAIN_LIMIT) req.destroy();
  });
  req.resume();
}

/** Reads a request body of at most `limit` bytes. Throws BAD_REQUEST past the limit (and drains the rest). */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    drain(req);
    throw tooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      drain(req);
      throw tooLarge(limit);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
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
