// Counts the character language models and cuts the deflate dictionaries from the 'resource' split only.
// Usage: node packages/classifiers/training/build-resources.mjs   (after building the package)
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { CharNgramModel, canonicalText, normalizeText, RESOURCE_FILES } from '../dist/index.js';
import { datasetsRoot, loadRows } from './datasets.mjs';
import { MODEL_DIR } from './paths.mjs';

const DICTIONARY_BYTES = 32 * 1024; // deflate's window: a longer preset dictionary is not used
const root = datasetsRoot();
if (root === undefined) {
  console.error('datasets not found: set CONTENT_ANALYSIS_DATASETS (skipping)');
  process.exit(0);
}
const rows = loadRows(root).filter((r) => r.split === 'resource');
const order = (r) => createHash('sha1').update(r.id).digest('hex');
rows.sort((a, b) => (order(a) < order(b) ? -1 : 1));

mkdirSync(MODEL_DIR, { recursive: true });
for (const [label, lmFile, dictFile] of [
  [0, RESOURCE_FILES.humanLm, RESOURCE_FILES.humanDictionary],
  [1, RESOURCE_FILES.machineLm, RESOURCE_FILES.machineDictionary],
]) {
  const lm = new CharNgramModel({ order: 5, tableBits: 20, prior: 2 });
  let dictionary = '';
  let docs = 0;
  for (const r of rows) {
    if (r.label !== label) continue;
    const text = canonicalText(normalizeText(r.text).text);
    lm.add(text);
    docs++;
    // Dictionary: a 400-character piece of each document until it is full (many short pieces cover more
    // domains than a few long ones).
    if (dictionary.length < DICTIONARY_BYTES) dictionary += `${text.slice(0, 400)} `;
  }
  const bytes = lm.serialize();
  writeFileSync(`${MODEL_DIR}/${lmFile}`, bytes);
  writeFileSync(`${MODEL_DIR}/${dictFile}`, Buffer.from(dictionary, 'utf8').subarray(0, DICTIONARY_BYTES));
  console.log(`${label ? 'machine' : 'human'}: ${docs} documents, ${lm.total} characters, ${bytes.length} bytes`);
}
