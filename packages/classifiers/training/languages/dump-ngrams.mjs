// Hashed n-gram features of every row of the non-English corpus (training/languages/build_corpus.py writes
// out/languages/rows.jsonl), computed by the package's own code (normalizeText, canonicalSentences, ngramSlots, the
// same features as AI text 2.0.0), as a sparse matrix for training/languages/train.py: out/languages/ngrams.bin
// holds, per row, `nnz` uint32 slots then `nnz` float32 values (character n-gram counts divided by the row's
// characters, word n-gram counts by its words); out/languages/features.jsonl the row metadata with its offset.
// Every row is followed by its leading windows (WINDOW_CHARS: the first sentences up to the first that reaches the
// length, as the engine's scorer cuts them), marked `window`, for the length buckets of the calibration.
// Usage: node packages/classifiers/training/languages/dump-ngrams.mjs
import { createReadStream, createWriteStream } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { canonicalSentences, ngramSlots, normalizeText } from '../../dist/index.js';

const dir = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'out', 'languages');
const bin = createWriteStream(resolve(dir, 'ngrams.bin'));
const meta = createWriteStream(resolve(dir, 'features.jsonl'));
const WINDOW_CHARS = [300, 600];
let offset = 0;
let rows = 0;

/** Sparse features of one canonical text: sorted slots and their values (as training/v2/dump-ngrams.mjs). */
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

for await (const line of createInterface({ input: createReadStream(resolve(dir, 'rows.jsonl')) })) {
  const r = JSON.parse(line);
  const { canonical, sentences } = canonicalSentences(normalizeText(r.text).text);
  const { text, ...rest } = r;
  const pieces = [[canonical, 0]];
  for (const target of WINDOW_CHARS) {
    const end = sentences.findIndex((s) => s.end - sentences[0].start >= target);
    if (end >= 0 && end < sentences.length - 1) pieces.push([canonical.slice(sentences[0].start, sentences[end].end), target]);
  }
  for (const [piece, window] of pieces) {
    const { keys, vals } = sparseFeatures(piece);
    const ok = bin.write(Buffer.concat([Buffer.from(keys.buffer), Buffer.from(vals.buffer)]));
    meta.write(`${JSON.stringify({ ...rest, window, chars: piece.length, offset, nnz: keys.length })}\n`);
    offset += keys.length * 8;
    rows++;
    if (!ok) await new Promise((done) => bin.once('drain', done));
  }
}
await Promise.all([new Promise((done) => bin.end(done)), new Promise((done) => meta.end(done))]);
console.log(`${rows} rows -> ${dir}`);
