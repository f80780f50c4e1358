// Computes the feature vector of every non-resource row with the package's own TypeScript code (train/inference
// parity), plus windows of the train and calib rows cut at several lengths, into out/features.jsonl.
// Usage: node packages/classifiers/training/dump-features.mjs   (after build-resources.mjs and a build)
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import {
  FEATURE_NAMES, loadFeatureResources, normalizeText, prepareDocument, rangeFeatures,
} from '../dist/index.js';
import { datasetsRoot, loadRows } from './datasets.mjs';
import { FIXED_INPUT, MODEL_DIR, OUT_DIR } from './paths.mjs';

const WINDOW_CHARS = [150, 300, 600, 1200, 2500];
const root = datasetsRoot();
if (root === undefined) {
  console.error('datasets not found: set CONTENT_ANALYSIS_DATASETS (skipping)');
  process.exit(0);
}
const resources = await loadFeatureResources(MODEL_DIR);
mkdirSync(OUT_DIR, { recursive: true });
const out = createWriteStream(`${OUT_DIR}/features.jsonl`);
const rows = loadRows(root).filter((r) => r.split !== 'resource');
const started = Date.now();
let written = 0;
for (const r of rows) {
  const doc = prepareDocument(normalizeText(r.text).text, resources);
  if (doc.sentences.length === 0) continue;
  const meta = {
    id: r.id, dataset: r.dataset, domain: r.domain, language: r.language, family: r.family, label: r.label,
    split: r.split,
  };
  const last = doc.sentences.length - 1;
  const emit = (kind, first, lastSentence) => {
    const chars = doc.sentences[lastSentence].end - doc.sentences[first].start;
    const features = Array.from(rangeFeatures(doc, first, lastSentence, resources), (v) => Math.round(v * 1e6) / 1e6);
    out.write(`${JSON.stringify({ ...meta, kind, chars, features })}\n`);
    written++;
  };
  emit('doc', 0, last);
  if (r.split === 'train' || r.split === 'calib') {
    for (const target of WINDOW_CHARS) {
      let end = 0;
      while (end < last && doc.sentences[end].end - doc.sentences[0].start < target) end++;
      if (end === last) break; // the document itself is no longer than this window
      emit(`window${target}`, 0, end);
    }
  }
}
out.end();
const fixed = prepareDocument(normalizeText(FIXED_INPUT).text, resources);
writeFileSync(`${OUT_DIR}/meta.json`, JSON.stringify({
  featureNames: FEATURE_NAMES,
  fixedInput: { text: FIXED_INPUT, features: Array.from(rangeFeatures(fixed, 0, fixed.sentences.length - 1, resources)) },
}));
console.log(`${written} vectors of ${FEATURE_NAMES.length} features in ${((Date.now() - started) / 1000).toFixed(1)} s`);
