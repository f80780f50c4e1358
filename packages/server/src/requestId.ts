import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Longest incoming `x-request-id` kept; a longer one is replaced. */
export const MAX_REQUEST_ID_LENGTH = 128;

/** Letters, digits and `-_.:/+=@`: a UUID, a ULID, a trace id, base64; nothing that could break a log line or header. */
const WELL_FORMED = /^[A-Za-z0-9._:/+=@-]+$/;

/**
 * The request id of a request: the caller's `x-request-id` when it is well formed (1 to 128 safe characters, one
 * header), else a new random UUID, so a proxy's id follows the request and every request has one.
 */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  if (typeof incoming === 'string' && incoming.length <= MAX_REQUEST_ID_LENGTH && WELL_FORMED.test(incoming)) return incoming;
  return randomUUID();
}
