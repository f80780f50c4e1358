import type { IncomingMessage } from 'node:http';
import { createHash } from 'node:crypto';

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

/** The rate-limit key of a caller: its token (hashed, so no token is held in memory) or else its address. */
export function clientKey(req: IncomingMessage, token: string | undefined): string {
  if (token) return `t:${createHash('sha256').update(token).digest('base64url').slice(0, 22)}`;
  return `a:${req.socket.remoteAddress ?? 'unknown'}`;
}
