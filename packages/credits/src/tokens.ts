import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Access tokens and ids.
 *
 * A token is `ca_` followed by 32 random bytes in base64url. Only the SHA-256 of a token is stored. An unsalted
 * fast hash is the right choice here, unlike for passwords: salts and slow hashes exist to make guessing
 * low-entropy secrets expensive, and a 256-bit random token cannot be guessed or found in a precomputed table
 * however fast the hash is. A fast hash keeps authentication cheap on every request, and a stored hash is
 * deterministic, so the token can be looked up by it (an index) instead of trying every account's salt.
 */

/** Prefix of every access token; lets secret scanners and humans recognise one. */
export const TOKEN_PREFIX = 'ca_';

const TOKEN_BYTES = 32;
/** Length of a well-formed token: the prefix and 43 base64url characters (32 bytes, unpadded). */
const TOKEN_LENGTH = TOKEN_PREFIX.length + Math.ceil((TOKEN_BYTES * 4) / 3);
const TOKEN_PATTERN = /^ca_[A-Za-z0-9_-]{43}$/;

/** A fresh access token. */
export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(TOKEN_BYTES).toString('base64url');
}

/** True if `token` has the shape of a token; the shape is public, so checking it first leaks nothing. */
export function isWellFormedToken(token: unknown): token is string {
  return typeof token === 'string' && token.length === TOKEN_LENGTH && TOKEN_PATTERN.test(token);
}

/** SHA-256 of the token, in hex: what is stored. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Constant-time comparison of two hex hashes. The lookup by hash that precedes it may take time that depends on
 * the hash of the presented token, but that tells an attacker nothing about any stored token's preimage; this
 * compare is what a ledger without an index would rely on, and it keeps the final check free of early exits.
 */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A short random id with a prefix (`tok_`, `ch_`, `acct_`…): 12 random bytes, 16 base64url characters. */
export function randomId(prefix: string): string {
  return prefix + randomBytes(12).toString('base64url');
}
