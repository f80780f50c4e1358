// Evaluates AI-text detectors on the test split of the training corpus (packages/classifiers/training/corpus/
// build_corpus.py), which no step of training or calibration read, end to end through the built package
// (normalisation, features, ONNX model, calibration). Prints:
// 1. the held-out tables of 2.0.0 (`train.py --heldout`, out/v2/heldout.json), 2.1.0 (training/v21/build.py,
//    out/v21/heldout.json), 3.0.0 (AI_TEXT_VERSION=3.0.0 train.py --heldout, out/v3/heldout.json) and 3.2.0
//    (training/v32/train.py --heldout, out/v32/heldout.json): for each generator family and each domain, a model trained without it, its AUROC and TPR
//    at 1% FPR on the left-out rows, per domain;
// 2. for each version asked for (default: 2.1.0, 2.0.0 and 1.0.0 side by side): AUROC, TPR at 1% FPR and TPR at the shipped
//    threshold per family, domain, format and length; human FPR at the shipped threshold per human domain; AI-edited
//    human text and attacked text apart.
// 3. with --model NAME=DIR (repeatable), each plugged model (a Hugging Face / Optimum ONNX folder, see
//    packages/classifiers/README.md) as a column `custom:NAME` beside the shipped versions, through the same detect().
// --dataset FILE.jsonl evaluates on one of the shared labelled sets instead of the corpus test split (a path under
// $CONTENT_ANALYSIS_DATASETS, e.g. aitext/binoculars_pubmed/pubmed_falcon7.jsonl: text, label human|ai, generator).
// Usage: node scripts/ai-text/evaluate.mjs [--version 2.1.0,2.0.0,1.0.0] [--model NAME=DIR ...] [--dataset FILE]
//        [--limit N] [--min-chars 300]
// (1.x on the corpus of 1.x: node scripts/ai-text/evaluate-legacy.mjs [--version V])
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { basename } from 'node:path';
import {
  createAiTextDetector, CustomModels, HUMAN_SCORE_THRESHOLD, isCustomVersion, parseModelSpec,
} from '../../packages/classifiers/dist/index.js';
import { auroc } from '../lib/auroc.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : args[i + 1];
};
const versions = option('--version', '2.1.0,2.0.0,1.0.0').split(',');
const limit = Number(option('--limit', Infinity));
const minChars = Number(option('--min-chars', 300));
const out = resolve(import.meta.dirname, '../../packages/classifiers/training/out');
const datasetOption = option('--dataset', undefined);
const datasets = resolve(import.meta.dirname, '../..', process.env.CONTENT_ANALYSIS_DATASETS ?? '../shared/datasets');
const dataset = datasetOption === undefined ? undefined : resolve(datasets, datasetOption);
const corpus = dataset ?? resolve(out, 'corpus/rows.jsonl');
const modelSpecs = args.flatMap((a, i) => (a === '--model' ? [args[i + 1]] : []));
const customModels = await CustomModels.load(modelSpecs.map((spec) => parseModelSpec(spec)));
const columns = [...versions, ...customModels.versions('ai-text')];
if (dataset !== undefined && !existsSync(dataset)) {
  console.log(`SKIPPED: ${dataset} not found (CONTENT_ANALYSIS_DATASETS=${datasets})`);
  process.exit(0);
}
if (!existsSync(corpus)) {
  console.log(`SKIPPED: ${corpus} not found; build it with /usr/bin/python3 packages/classifiers/training/corpus/build_corpus.py`);
  process.exit(0);
}

const MIN_SLICE = 50;
const pct = (v) => (v === undefined || v === null || Number.isNaN(v) ? '    -' : `${(100 * v).toFixed(1).padStart(5)}%`);
const num = (v) => (v === undefined || v === null ? '   - ' : v.toFixed(3));

// 1. Held-out tables, of 2.0.0 (train.py --heldout) and of 2.1.0 (training/v21/build.py, which also gives the
// AUROC of each of its two parts, each trained without the left-out slice).
const heldoutTables = [
  ['v2/heldout.json', '2.0.0 (n-gram model)', 'train.py --heldout', '/usr/bin/python3 packages/classifiers/training/v2/train.py --heldout'],
  ['v21/heldout.json', '2.1.0 (n-gram model + token encoder, stacked)', 'training/v21/build.py',
    '/usr/bin/python3 packages/classifiers/training/v21/build.py --tables-only (after train.py --heldout and train_neural.py)'],
  ['v3/heldout.json', '3.0.0 (n-gram model, domain-weighted, with question answering)', 'AI_TEXT_VERSION=3.0.0 train.py --heldout',
    'AI_TEXT_VERSION=3.0.0 AI_TEXT_WEIGHTING=domain /usr/bin/python3 packages/classifiers/training/v2/train.py --heldout (tables with 2.0.0 beside: training/v3/tables.py)'],
  ['v32/heldout.json', '3.2.0 (n-gram model, stronger penalty chosen on the train split)', 'training/v32/train.py --heldout',
    '/usr/bin/python3 packages/classifiers/training/v32/train.py --heldout (tables with 3.0.0 and 2.0.0 beside: training/v32/tables.py)'],
];
for (const [file, model, how, command] of dataset === undefined ? heldoutTables : []) {
  const heldoutPath = resolve(out, file);
  if (!existsSync(heldoutPath)) {
    console.log(`(no held-out tables of ${model}: run ${command})`);
    continue;
  }
  const heldout = JSON.parse(readFileSync(heldoutPath, 'utf8'));
  for (const [kind, title] of [['families', 'leave-one-family-out'], ['domains', 'leave-one-domain-out']]) {
    const parts = Object.values(heldout[kind]).some((r) => r.ngram_auroc !== undefined);
    console.log(`\n${model}, ${title} (${how}: a model trained without it; test split; human = test human text of the same domains)`);
    console.log(`${'left out'.padEnd(26)} ${'ai'.padStart(6)} ${'human'.padStart(6)}  AUROC  TPR@1%FPR  TPR@calib-thr${kind === 'domains' ? '  human FPR@thr' : ''}` +
      (parts ? '  (n-gram alone, encoder alone)' : ''));
    const values = [];
    for (const [name, r] of Object.entries(heldout[kind])) {
      // The mean counts slices with enough text on both sides for an AUROC to mean something.
      if (r.n_ai >= MIN_SLICE && r.n_human >= MIN_SLICE) values.push(r.auroc);
      const label = r.never_trained ? `${name} (never trained)` : name;
      console.log(`${label.padEnd(26)} ${String(r.n_ai).padStart(6)} ${String(r.n_human).padStart(6)}  ${num(r.auroc)}  ${pct(r.tpr_at_1pct_fpr).padStart(9)}  ${pct(r.tpr_at_calib_threshold).padStart(13)}` +
        (kind === 'domains' ? `  ${pct(r.human_fpr_at_threshold).padStart(14)}` : '') +
        (parts ? `  (${num(r.ngram_auroc)}, ${num(r.neural_auroc)})` : ''));
      for (const [d, m] of Object.entries(r.domains)) {
        if (Object.keys(r.domains).length > 1) console.log(`  ${d.padEnd(24)} ${String(m.n_ai).padStart(6)} ${String(m.n_human).padStart(6)}  ${num(m.auroc)}  ${pct(m.tpr_at_1pct_fpr).padStart(9)}`);
      }
    }
    const valid = values.filter((v) => v !== null);
    console.log(`mean AUROC ${num(valid.reduce((a, b) => a + b, 0) / valid.length)}, lowest ${num(Math.min(...valid))} ` +
      `(over the ${valid.length} slices with >= ${MIN_SLICE} AI and >= ${MIN_SLICE} human test texts)`);
  }
}

// 2. The shipped versions on the test split.
const rows = [];
for await (const line of createInterface({ input: createReadStream(corpus), crlfDelay: Infinity })) {
  if (line.trim() === '') continue;
  let r = JSON.parse(line);
  // A shared set: every row is held out from training; its file is the domain, its generator the family.
  if (dataset !== undefined) {
    const ai = r.label === 'ai' || r.label === 1;
    r = { text: r.text, label: ai ? 1 : 0, split: 'test', family: ai ? (r.generator ?? 'ai') : 'human', domain: r.domain ?? basename(dataset, '.jsonl'),
      format: 'unknown', source: basename(dataset) };
  }
  if (r.split === 'test' && r.text.length >= minChars && rows.length < limit) rows.push(r);
}
const scores = new Map(); // version -> Float64Array of human scores (NaN: refused)
for (const version of columns) {
  const detector = isCustomVersion(version) ? customModels.text(version) : await createAiTextDetector({ version });
  const s = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    try {
      s[i] = (await detector.detect(rows[i].text.slice(0, 150_000), { sentences: false, language: 'en' })).score;
    } catch (error) {
      if (error.code !== 'BAD_REQUEST') throw error;
      s[i] = NaN;
    }
  }
  scores.set(version, s);
}

function metrics(slice, s) {
  const h = slice.filter((i) => rows[i].label === 0 && !Number.isNaN(s[i])).map((i) => s[i]);
  const a = slice.filter((i) => rows[i].label === 1 && !Number.isNaN(s[i])).map((i) => s[i]);
  const sorted = [...h].sort((x, y) => x - y);
  const cut = sorted[Math.floor(0.01 * sorted.length)];
  return {
    h: h.length, a: a.length,
    auroc: h.length && a.length ? auroc(h, a) : null, // human scores are higher
    tprAt1: h.length && a.length ? a.filter((v) => v < cut).length / a.length : null,
    fpr: h.length ? h.filter((v) => v < HUMAN_SCORE_THRESHOLD).length / h.length : null,
    tpr: a.length ? a.filter((v) => v < HUMAN_SCORE_THRESHOLD).length / a.length : null,
  };
}
console.log(`\n${customModels.size ? 'shipped detectors and plugged models' : 'shipped detectors'} on ${dataset === undefined ? 'the corpus test split' : basename(dataset)} ` +
  `(texts >= ${minChars} characters; threshold: human score < ${HUMAN_SCORE_THRESHOLD}); per version: AUROC  TPR@1%FPR  FPR@thr  TPR@thr`);
console.log(`${'slice'.padEnd(44)} ${'human'.padStart(6)} ${'ai'.padStart(6)}  ${columns.map((v) => v.padEnd(31)).join(' ')}`);
function report(name, slice) {
  const cols = columns.map((v) => {
    const m = metrics(slice, scores.get(v));
    return `${num(m.auroc)} ${pct(m.tprAt1)} ${pct(m.fpr)} ${pct(m.tpr)}`.padEnd(31);
  });
  const m = metrics(slice, scores.get(versions[0]));
  console.log(`${name.padEnd(44)} ${String(m.h).padStart(6)} ${String(m.a).padStart(6)}  ${cols.join(' ')}`);
}
const all = rows.map((_, i) => i);
const humans = all.filter((i) => rows[i].label === 0);
const plainAi = all.filter((i) => rows[i].label === 1 && !rows[i].edited_human && !rows[i].attack);
const values = (key, idx) => [...new Set(idx.map((i) => rows[i][key]))].sort();
report('ALL (every AI text, edited and attacked too)', all);
report('AI generated, not attacked', [...humans, ...plainAi]);
console.log('-- per family (human: test human text of the same domains)');
for (const f of values('family', plainAi)) {
  const ai = plainAi.filter((i) => rows[i].family === f);
  const domains = new Set(ai.map((i) => rows[i].domain));
  report(`family ${f}`, [...humans.filter((i) => domains.has(rows[i].domain)), ...ai]);
}
console.log('-- per domain');
for (const d of values('domain', all)) report(`domain ${d}`, all.filter((i) => rows[i].domain === d));
console.log('-- per format / attack');
for (const f of values('format', plainAi)) {
  const ai = plainAi.filter((i) => rows[i].format === f);
  const domains = new Set(ai.map((i) => rows[i].domain));
  report(`format ${f}`, [...humans.filter((i) => domains.has(rows[i].domain)), ...ai]);
}
const edited = all.filter((i) => rows[i].edited_human);
report('AI-edited human text (polish, rewrite, ...)', [...humans.filter((i) => new Set(edited.map((j) => rows[j].domain)).has(rows[i].domain)), ...edited]);
for (const a of values('attack', all.filter((i) => rows[i].attack))) {
  const hit = all.filter((i) => rows[i].attack === a);
  const domains = new Set(hit.map((i) => rows[i].domain));
  report(`attack ${a}`, [...humans.filter((i) => domains.has(rows[i].domain) && !rows[i].attack), ...hit]);
}
console.log('-- length (characters of the input)');
report('short 300..799', all.filter((i) => rows[i].text.length < 800));
report('long 800+', all.filter((i) => rows[i].text.length >= 800));
console.log('-- human FPR at the shipped threshold per human domain');
for (const d of values('domain', humans)) report(`human ${d}`, humans.filter((i) => rows[i].domain === d));
console.log('-- per source');
for (const src of values('source', all)) report(`source ${src}`, all.filter((i) => rows[i].source === src));
await customModels.release();
