// Computes the feature vector of every non-resource row with the package's own TypeScript code (train/inference
// parity), plus windows of the train and calib rows cut at several lengths, into out/features.jsonl.
// Which base features are dumped depends on the version (paths.mjs). With AI_TEXT_VERSION=1.1.0 (and
// models/ai-text/1.1.0/lm.json written by training/lm/train_lm.py) the character language-model features are appended
// (LM_FEATURE_NAMES). Versions after 1.0.0 dump only train and calib rows (the test split is read by
// scripts/ai-text/evaluate.mjs alone), into out/<version>/features.jsonl.
// Usage: [AI_TEXT_VERSION=1.1.0|1.2.0] node packages/classifiers/training/dump-features.mjs   (after build-resources.mjs)
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import {
  CharLm, DEFLATE_FEATURES, FEATURE_NAMES, featurePlan, LM_FEATURE_NAMES, loadFeatureResources, normalizeText,
  planFeatures, prepareDocument,
} from '../dist/index.js';
import { datasetsRoot, loadRows } from './datasets.mjs';
import { baseFeatureNames, FEATURES_DIR, FIXED_INPUT, MODEL_DIR, MODEL_VERSION, RESOURCE_DIR } from './paths.mjs';

const WINDOW_CHARS = [150, 300, 600, 1200, 2500];
const root = datasetsRoot();
if (root === undefined) {
  console.error('datasets not found: set CONTENT_ANALYSIS_DATASETS (skipping)');
  process.exit(0);
}
const resources = await loadFeatureResources(RESOURCE_DIR);
const lmCardPath = `${MODEL_DIR}/lm.json`;
const lm = existsSync(lmCardPath) ? await CharLm.load(MODEL_DIR, JSON.parse(readFileSync(lmCardPath, 'utf8'))) : undefined;
const base = baseFeatureNames(FEATURE_NAMES, DEFLATE_FEATURES);
// The runtime's own mapping from the names a model reads to the package's features (every name is used here).
const plan = featurePlan(MODEL_DIR, base, base);
const names = lm ? [...base, ...LM_FEATURE_NAMES] : base;
const prepare = (text) => prepareDocument(normalizeText(text).text, resources, { compression: plan.compression });
// Features of a range of sentences: the base features, then (with a language model) its features.
const featuresOf = (doc, trace, first, lastSentence) => {
  const base = Array.from(planFeatures(plan, doc, first, lastSentence, resources));
  if (!lm) return base;
  return [...base, ...lm.rangeFeatures(trace, doc.sentences[first].start, doc.sentences[lastSentence].end)];
};
mkdirSync(FEATURES_DIR, { recursive: true });
const out = createWriteStream(`${FEATURES_DIR}/features.jsonl`);
const rows = loadRows(root).filter((r) => r.split !== 'resource' && (MODEL_VERSION === '1.0.0' || r.split !== 'test'));
const started = Date.now();
let written = 0;
for (const r of rows) {
  const doc = prepare(r.text);
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
const fixed = prepare(FIXED_INPUT);
const fixedTrace = lm ? await lm.trace(fixed.canonical) : undefined;
writeFileSync(`${FEATURES_DIR}/meta.json`, JSON.stringify({
  featureNames: names,
  lm: lm ? lm.card : undefined,
  fixedInput: { text: FIXED_INPUT, features: featuresOf(fixed, fixedTrace, 0, fixed.sentences.length - 1) },
}));
console.log(`${written} vectors of ${names.length} features in ${((Date.now() - started) / 1000).toFixed(1)} s`);
