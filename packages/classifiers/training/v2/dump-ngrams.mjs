// Hashed n-gram features of every corpus row (training/corpus/build_corpus.py writes out/corpus/rows.jsonl),
// computed by the package's own code (normalizeText, canonicalSentences, ngramSlots), as a sparse matrix for
// training/v2/train.py: out/v2/ngrams.bin holds, per row, `nnz` uint32 slots then `nnz` float32 values (n-gram
// counts divided by the row's characters, word n-gram counts by its words); out/v2/rows.jsonl the row metadata with
// its offset. Train and calib rows are cut to their first MAX_TRAIN_CHARS canonical characters (memory); test rows
// are whole. Usage: node packages/classifiers/training/v2/dump-ngrams.mjs
import { createWriteStream, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { canonicalSentences, ngramSlots, normalizeText } from '../../dist/index.js';
import { corpusRows, OUT_DIR } from '../paths.mjs';

const MAX_TRAIN_CHARS = 3000;
const corpus = corpusRows();
const dir = resolve(OUT_DIR, 'v2');
mkdirSync(dir, { recursive: true });
const bin = createWriteStream(resolve(dir, 'ngrams.bin'));
const meta = createWriteStream(resolve(dir, 'rows.jsonl'));
const started = Date.now();
let offset = 0;
let rows = 0;
let nnzTotal = 0;

/** Sparse features of one canonical text: sorted slots and their values. */
function sparseFeatures(canonical) {
  const slots = ngramSlots(canonical);
  const chars = canonical.length;
  const values = new Map();
  const add = (slot, v) => values.set(slot, (values.get(slot) ?? 0) + v);
  for (const s of slots.charSlots) if (s >= 0) add(s, 1 / chars);
  if (slots.wordCount > 0) for (const s of slots.wordSlots) if (s >= 0) add(s, 1 / slots.wordCount);
  const keys = Uint32Array.from(values.keys()).sort();
  const vals = Float32Array.from(keys, (k) => values.get(k));
  return { keys, vals };
}

for await (const r of corpus) {
  let { canonical } = canonicalSentences(normalizeText(r.text).text);
  const chars = canonical.length;
  if (r.split !== 'test' && canonical.length > MAX_TRAIN_CHARS) {
    const cut = canonical.lastIndexOf(' ', MAX_TRAIN_CHARS);
    canonical = canonical.slice(0, cut > MAX_TRAIN_CHARS / 2 ? cut : MAX_TRAIN_CHARS);
  }
  if (canonical.length === 0) continue;
  const { keys, vals } = sparseFeatures(canonical);
  const ok = bin.write(Buffer.concat([Buffer.from(keys.buffer), Buffer.from(vals.buffer)]));
  const { text, ...rest } = r;
  meta.write(`${JSON.stringify({ ...rest, chars, offset, nnz: keys.length })}\n`);
  offset += keys.length * 8;
  nnzTotal += keys.length;
  rows++;
  if (!ok) await new Promise((done) => bin.once('drain', done));
}
await Promise.all([new Promise((done) => bin.end(done)), new Promise((done) => meta.end(done))]);
console.log(`${rows} rows, ${nnzTotal} non-zeros in ${((Date.now() - started) / 1000).toFixed(1)} s`);
