import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ModelLoadError } from '../errors.js';
import { readChecked } from '../runtime/readChecked.js';
import { NGRAM_CHAR_ORDERS, NGRAM_HASH_BITS, NGRAM_WORD_ORDERS } from './ngramProfile.js';

/** The `ngram` section of a 2.x model card: the weight table of the hashed n-gram profile. */
export interface NgramCard {
  /** File of the table, relative to the model folder: gzip of `2^hash_bits` little-endian float16 weights, times `scale`. */
  weights: string;
  /** SHA-256 (hex) of that file. */
  sha256: string;
  hash_bits: number;
  char_orders: number[];
  word_orders: number[];
  /** Factor every stored weight is multiplied by (the features' scale in training). */
  scale: number;
}

/** Decodes IEEE 754 half-precision values (little endian) to float32. */
export function float16ToFloat32(bytes: Uint8Array): Float32Array {
  const out = new Float32Array(bytes.length >>> 1);
  for (let i = 0; i < out.length; i++) {
    const h = bytes[2 * i]! | (bytes[2 * i + 1]! << 8);
    const sign = h & 0x8000 ? -1 : 1;
    const exponent = (h >>> 10) & 0x1f;
    const fraction = h & 0x3ff;
    if (exponent === 0) out[i] = sign * fraction * 2 ** -24;
    else if (exponent === 31) out[i] = fraction === 0 ? sign * Infinity : NaN;
    else out[i] = sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
  }
  return out;
}

/**
 * Reads a model's n-gram weight table, after checking that the card's hashing is the one this package computes and
 * that the file is the one the model was trained with.
 */
export async function loadNgramTable(folder: string, card: NgramCard): Promise<Float32Array> {
  if (card.hash_bits !== NGRAM_HASH_BITS || card.char_orders.join() !== NGRAM_CHAR_ORDERS.join() ||
    card.word_orders.join() !== NGRAM_WORD_ORDERS.join()) {
    throw new ModelLoadError(folder, 'the model\'s n-gram hashing differs from this package\'s');
  }
  const path = resolve(folder, card.weights);
  const bytes = await readChecked(folder, path, card.sha256);
  const table = float16ToFloat32(gunzipSync(bytes));
  if (!(card.scale > 0)) throw new ModelLoadError(folder, 'the n-gram card has no positive scale');
  for (let i = 0; i < table.length; i++) table[i] = table[i]! * card.scale;
  if (table.length !== 2 ** NGRAM_HASH_BITS) throw new ModelLoadError(folder, `${path} holds ${table.length} weights`);
  return table;
}
