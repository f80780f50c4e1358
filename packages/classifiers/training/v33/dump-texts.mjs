// Step 1 of the v33 experiment (README.md beside): from the corpus (training/corpus/build_corpus.py) writes
//   out/v33/lm-corpus.txt  canonical text of every human row of the human-only domains (domains with no AI row:
//                          MASC genres, speeches, movie and product reviews), one document per line: the only text
//                          the experiment's character language models learn from, so none of the AI domains that
//                          the leave-one-domain-out tables hold out was ever read by them;
//   out/v33/sample.jsonl   a fixed sample of the rows of the AI domains (per split, domain and label the first CAP
//                          rows in sha1(id) order), with their canonical text and the package's own style features
//                          (planFeatures: the runtime's code, so a shipped model would see the same values).
// Usage: node packages/classifiers/training/v33/dump-texts.mjs   (after build_corpus.py and the package build)
import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  canonicalSentences, FEATURE_NAMES, featurePlan, loadFeatureResources, normalizeText, planFeatures, prepareDocument,
} from '../../dist/index.js';
import { corpusRows, modelDir, OUT_DIR } from '../paths.mjs';

/** Rows kept per (split, domain, label) cell. */
const CAP = { train: 150, calib: 150, test: 400 };
/**
 * Style features kept from the runtime's FEATURE_NAMES: none of them reads a reference text (lm_* and deflate_human /
 * deflate_machine read 1.x's n-gram models and dictionaries, counted on machine text of the very domains held out).
 */
export const STYLE_FEATURES = [
  'deflate_bpc', 'sentence_len_mean', 'sentence_len_cv', 'word_len_mean', 'word_len_sd', 'mattr', 'function_words',
  'comma', 'semicolon_colon', 'dash', 'paren', 'quote', 'question_exclaim', 'digit', 'repeated_trigrams',
];

const dir = resolve(OUT_DIR, 'v33');
mkdirSync(dir, { recursive: true });
const sha = (s) => createHash('sha1').update(s).digest('hex');
const rows = [];
for await (const r of corpusRows()) rows.push(r);
const aiDomains = new Set(rows.filter((r) => r.label === 1).map((r) => r.domain));

// Language-model text: human rows of the human-only domains, every split (those rows never enter the sample).
const lmRows = rows.filter((r) => !aiDomains.has(r.domain) && r.label === 0);
lmRows.sort((a, b) => (sha(a.id) < sha(b.id) ? -1 : 1));
const lmLines = lmRows.map((r) => prepareCanonical(r.text)).filter((t) => t.length > 0);
writeFileSync(resolve(dir, 'lm-corpus.txt'), `${lmLines.join('\n')}\n`);
console.log(`lm corpus: ${lmLines.length} documents, ${lmLines.reduce((n, t) => n + t.length, 0)} characters`);

// The sample.
const cells = new Map();
for (const r of rows) {
  if (!aiDomains.has(r.domain)) continue;
  const key = `${r.split}|${r.domain}|${r.label}`;
  if (!cells.has(key)) cells.set(key, []);
  cells.get(key).push(r);
}
const picked = [];
for (const [key, list] of [...cells].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
  list.sort((a, b) => (sha(a.id) < sha(b.id) ? -1 : 1));
  picked.push(...list.slice(0, CAP[key.split('|')[0]]));
}
const resourceDir = modelDir('ai-text', '1.1.0');
const resources = await loadFeatureResources(resourceDir);
const base = FEATURE_NAMES.slice(0, FEATURE_NAMES.indexOf('repeated_trigrams') + 1);
const plan = featurePlan(resourceDir, base, base);
const columns = STYLE_FEATURES.map((n) => base.indexOf(n));
const out = createWriteStream(resolve(dir, 'sample.jsonl'));
const started = Date.now();
let written = 0;
for (const r of picked) {
  const doc = prepareDocument(normalizeText(r.text).text, resources, { compression: plan.compression });
  if (doc.sentences.length === 0) continue;
  const all = planFeatures(plan, doc, 0, doc.sentences.length - 1, resources);
  const style = columns.map((c) => Math.round(all[c] * 1e6) / 1e6);
  const { id, split, domain, label, family, format, source, generator, group } = r;
  const ok = out.write(`${JSON.stringify({
    id, split, domain, label, family, format, source, generator, group, chars: doc.canonical.length, style,
    canonical: doc.canonical,
  })}\n`);
  if (!ok) await new Promise((done) => out.once('drain', done));
  written++;
}
await new Promise((done) => out.end(done));
writeFileSync(resolve(dir, 'sample-meta.json'), JSON.stringify({ cap: CAP, style: STYLE_FEATURES, rows: written }, null, 1));
console.log(`sample: ${written} rows of ${aiDomains.size} AI domains in ${((Date.now() - started) / 1000).toFixed(0)} s`);

/** The canonical text the runtime's language-model features read (prepareDocument's), on one line. */
function prepareCanonical(text) {
  return canonicalSentences(normalizeText(text).text).canonical.replace(/\n/g, ' ');
}
