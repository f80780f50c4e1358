// Computes the feature vector of every non-resource row with the package's own TypeScript code (train/inference
// parity), plus windows of the train and calib rows cut at several lengths, into out/features.jsonl.
// With AI_TEXT_VERSION=1.1.0 (and models/ai-text/1.1.0/lm.json written by training/lm/train_lm.py) the character
// language-model features are appended (LM_FEATURE_NAMES) and only train and calib rows are dumped (the test split
// is read by scripts/ai-text/evaluate.mjs alone), into out/1.1.0/features.jsonl.
// Usage: [AI_TEXT_VERSION=1.1.0] node packages/classifiers/training/dump-features.mjs   (after build-resources.mjs)
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import {
  CharLm, FEATURE_NAMES, LM_FEATURE_NAMES, loadFeatureResources, normalizeText, prepareDocument, rangeFeatures,
} from '../dist/index.js';
import { datasetsRoot, loadRows } from './datasets.mjs';
import { FEATURES_DIR, FIXED_INPUT, MODEL_DIR } from './paths.mjs';

const WINDOW_CHARS = [150, 300, 600, 1200, 2500];
const root = datasetsRoot();
if (root === undefined) {
  console.error('datasets not found: set CONTENT_ANALYSIS_DATASETS (skipping)');
  process.exit(0);
}
const resources = await loadFeatureResources(MODEL_DIR);
const lmCardPath = `${MODEL_DIR}/lm.json`;
const lm = existsSync(lmCardPath) ? await CharLm.load(MODEL_DIR, JSON.parse(readFileSync(lmCardPath, 'utf8'))) : undefined;
const names = lm ? [...FEATURE_NAMES, ...LM_FEATURE_NAMES] : [...FEATURE_NAMES];
// Features of a range of sentences: the base features, then (with a language model) its features.
const featuresOf = (doc, trace, first, lastSentence) => {
  const base = Array.from(rangeFeatures(doc, first, lastSentence, resources));
  if (!lm) return base;
  return [...base, ...lm.rangeFeatures(trace, doc.sentences[first].start, doc.sentences[lastSentence].end)];
};
mkdirSync(FEATURES_DIR, { recursive: true });
const out = createWriteStream(`${FEATURES_DIR}/features.jsonl`);
const rows = loadRows(root).filter((r) => r.split !== 'resource' && (!lm || r.split !== 'test'));
const started = Date.now();
let written = 0;
for (const r of rows) {
  const doc = prepareDocument(normalizeText(r.text).text, resources);
  if (doc.sentences.length === 0) continue;
  const meta = {
    id: r.id, dataset: r.dataset, domain: r.domain, group: r.group, language: r.language, family: r.family,
    label: r.label, split: r.split,
  };
  const last = doc.sentences.length - 1;
  const trace = lm ? await lm.trace(doc.canonical) : undefined;
  const emit = (kind, first, lastSentence) => {
    const chars = doc.sentences[lastSentence].end - doc.sentences[first].start;
    const features = featuresOf(doc, trace, first, lastSentence).map((v) => Math.round(v * 1e6) / 1e6);
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
const fixedTrace = lm ? await lm.trace(fixed.canonical) : undefined;
writeFileSync(`${FEATURES_DIR}/meta.json`, JSON.stringify({
  featureNames: names,
  lm: lm ? lm.card : undefined,
  fixedInput: { text: FIXED_INPUT, features: featuresOf(fixed, fixedTrace, 0, fixed.sentences.length - 1) },
}));
console.log(`${written} vectors of ${names.length} features in ${((Date.now() - started) / 1000).toFixed(1)} s`);
