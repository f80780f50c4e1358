// Writes the canonical text (the form every feature is computed on) of the 'resource' split -- the only rows the
// language models may learn from -- to ../out/lm-corpus.txt, one document per line, human and machine text alike.
// The held-out families (ChatGPT, Falcon) are test only and never reach this split (datasets.mjs).
// Usage: node packages/classifiers/training/lm/dump-lm-corpus.mjs   (after building the package)
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { canonicalText, normalizeText } from '../../dist/index.js';
import { datasetsRoot, loadRows } from '../datasets.mjs';
import { OUT_DIR } from '../paths.mjs';

const root = datasetsRoot();
if (root === undefined) {
  console.error('datasets not found: set CONTENT_ANALYSIS_DATASETS (skipping)');
  process.exit(0);
}
const rows = loadRows(root).filter((r) => r.split === 'resource');
const order = (r) => createHash('sha1').update(r.id).digest('hex');
rows.sort((a, b) => (order(a) < order(b) ? -1 : 1));
const lines = rows.map((r) => canonicalText(normalizeText(r.text).text).replace(/\n/g, ' ')).filter((t) => t.length > 0);
mkdirSync(OUT_DIR, { recursive: true });
writeFileSync(`${OUT_DIR}/lm-corpus.txt`, `${lines.join('\n')}\n`);
console.log(`${lines.length} documents, ${lines.reduce((n, t) => n + t.length, 0)} characters -> out/lm-corpus.txt`);
