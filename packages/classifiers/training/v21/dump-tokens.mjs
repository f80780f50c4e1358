// Token streams of every corpus row (training/corpus/build_corpus.py writes out/corpus/rows.jsonl) for the neural
// part of AI-text model 2.1.0, computed by the package's own code (normalizeText, canonicalSentences, wordTokens).
// Writes out/v21/: rows.jsonl (row metadata with `offset` and `tokens`), vocab.u32 (the distinct token hashes, most
// frequent first) and tokens.u32 (per token, its index in vocab.u32; rows cut to their first MAX_TOKENS tokens), the
// files that training/v21/train_neural.py reads (on a GPU machine: pack them with training/v21/pack.sh).
// Usage: node packages/classifiers/training/v21/dump-tokens.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { canonicalSentences, normalizeText, wordTokens } from '../../dist/index.js';
import { corpusRows, OUT_DIR } from '../paths.mjs';

export const MAX_TOKENS = 1024;
const corpus = corpusRows();
const dir = resolve(OUT_DIR, 'v21');
mkdirSync(dir, { recursive: true });
const started = Date.now();
const meta = [];
const streams = [];
const frequency = new Map();
let total = 0;
for await (const { text, ...row } of corpus) {
  const { canonical } = canonicalSentences(normalizeText(text).text);
  const tokens = wordTokens(canonical);
  if (tokens.count === 0) continue;
  const hashes = tokens.hashes.subarray(0, Math.min(tokens.count, MAX_TOKENS));
  for (const h of hashes) frequency.set(h, (frequency.get(h) ?? 0) + 1);
  streams.push(hashes);
  meta.push({ ...row, chars: canonical.length, offset: total, tokens: hashes.length });
  total += hashes.length;
}
const vocab = Uint32Array.from([...frequency.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([h]) => h));
const index = new Map(Array.from(vocab, (h, i) => [h, i]));
const ids = new Uint32Array(total);
let at = 0;
for (const hashes of streams) for (const h of hashes) ids[at++] = index.get(h);
writeFileSync(resolve(dir, 'vocab.u32'), vocab);
writeFileSync(resolve(dir, 'tokens.u32'), ids);
writeFileSync(resolve(dir, 'rows.jsonl'), meta.map((m) => `${JSON.stringify(m)}\n`).join(''));
console.log(`${meta.length} rows, ${total} tokens, ${vocab.length} distinct in ${((Date.now() - started) / 1000).toFixed(1)} s`);
