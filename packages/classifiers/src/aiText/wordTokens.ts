import { FNV_OFFSET, FNV_PRIME, mix } from './ngramProfile.js';

/**
 * Tokens of a canonical text for the neural part of version 2.1.0: words (as `wordSpansOf` finds them) and every
 * other non-space character on its own. Each token is hashed once (FNV-1a over its UTF-16 units, then MurmurHash3's
 * finaliser); the model looks it up twice, by the low and by the high 16 bits of the hash, in one table of
 * `2^WORD_TOKEN_BITS` embeddings and adds the two, so that two words share both rows only when all 32 bits collide.
 */
export const WORD_TOKEN_BITS = 16;

const TOKEN = /[\p{L}\p{N}]+(?:'[\p{L}]+)*|[^\s\p{L}\p{N}]/gu;

/** Tokens of a text: character spans and the 32-bit hash of each. */
export interface WordTokens {
  starts: Int32Array;
  ends: Int32Array;
  hashes: Uint32Array;
  count: number;
}

/** 32-bit hash of a token's characters. */
export function tokenHash(text: string, start = 0, end = text.length): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return mix(h);
}

/** Tokens of `text` (already canonical). */
export function wordTokens(text: string): WordTokens {
  const starts: number[] = [];
  const ends: number[] = [];
  for (const m of text.matchAll(TOKEN)) {
    starts.push(m.index);
    ends.push(m.index + m[0].length);
  }
  const count = starts.length;
  const hashes = new Uint32Array(count);
  for (let t = 0; t < count; t++) hashes[t] = tokenHash(text, starts[t], ends[t]);
  return { starts: Int32Array.from(starts), ends: Int32Array.from(ends), hashes, count };
}

/** The model's input: for each token its two embedding rows (low and high 16 bits of the hash), as int64. */
export function tokenRows(hashes: Uint32Array): BigInt64Array {
  const out = new BigInt64Array(hashes.length * 2);
  for (let t = 0; t < hashes.length; t++) {
    out[2 * t] = BigInt(hashes[t]! & 0xffff);
    out[2 * t + 1] = BigInt(hashes[t]! >>> 16);
  }
  return out;
}
