// Evaluates the shipped AI-text detector (the built package, end to end: normalisation, features, ONNX model,
// calibration) on the 'test' split of ../shared/datasets/aitext, which no step of training, feature selection or
// calibration read. Prints, per dataset, generator family and domain: AUROC, TPR at 1% FPR (threshold set on the
// slice's own human texts) and FPR / TPR at the shipped threshold (human score < 50).
// Usage: node scripts/ai-text/evaluate-legacy.mjs [--version 1.1.0] [--min-chars 300] [--limit N]
// (--version: the detector version to evaluate; the default version when absent)
import { createAiTextDetector, HUMAN_SCORE_THRESHOLD } from '../../packages/classifiers/dist/index.js';
import { datasetsRoot, loadRows } from '../../packages/classifiers/training/datasets.mjs';
import { auroc } from '../lib/auroc.mjs';

const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const minChars = arg('--min-chars', 300);
const limit = arg('--limit', Infinity);
const versionAt = args.indexOf('--version');
const version = versionAt === -1 ? undefined : args[versionAt + 1];

const root = datasetsRoot();
if (root === undefined) {
  console.log('SKIPPED: datasets not found (set CONTENT_ANALYSIS_DATASETS to the folder holding aitext/)');
  process.exit(0);
}
const detector = await createAiTextDetector(version === undefined ? {} : { version });
const rows = loadRows(root).filter((r) => r.split === 'test' && r.text.length >= minChars).slice(0, limit);
const scored = [];
for (const r of rows) {
  const text = r.text.length > 150_000 ? r.text.slice(0, 150_000) : r.text;
  try {
    const res = await detector.detect(text, { sentences: false, language: r.language === 'en' ? 'en' : 'auto' });
    scored.push({ ...r, score: res.score });
  } catch (error) {
    if (error.code !== 'UNSUPPORTED_LANGUAGE') throw error;
    scored.push({ ...r, score: null }); // refused: non-English text is not scored
  }
}

function metrics(humans, ais) {
  const sortedH = [...humans].sort((a, b) => a - b);
  const cut = sortedH[Math.floor(0.01 * sortedH.length)]; // at most 1% of humans score below this
  const tprAt1 = ais.filter((s) => s < cut).length / ais.length;
  const fpr = humans.filter((s) => s < HUMAN_SCORE_THRESHOLD).length / humans.length;
  const tpr = ais.filter((s) => s < HUMAN_SCORE_THRESHOLD).length / ais.length;
  return { auroc: auroc(humans, ais), tprAt1, fpr, tpr };
}

const pct = (v) => (v === undefined || Number.isNaN(v) ? '   -  ' : `${(100 * v).toFixed(1).padStart(5)}%`);
console.log(`detector ${detector.version}; test split, texts >= ${minChars} characters; shipped threshold: human score < ${HUMAN_SCORE_THRESHOLD}`);
console.log(`${'slice'.padEnd(52)} ${'human'.padStart(6)} ${'ai'.padStart(6)}  AUROC  TPR@1%FPR  FPR@thr  TPR@thr`);
function report(name, slice) {
  const valid = slice.filter((r) => r.score !== null);
  const humans = valid.filter((r) => r.label === 0).map((r) => r.score);
  const ais = valid.filter((r) => r.label === 1).map((r) => r.score);
  const refused = slice.length - valid.length;
  const m = humans.length > 0 && ais.length > 0 ? metrics(humans, ais) : undefined;
  const fpr = humans.length > 0 ? humans.filter((s) => s < HUMAN_SCORE_THRESHOLD).length / humans.length : undefined;
  const tpr = ais.length > 0 ? ais.filter((s) => s < HUMAN_SCORE_THRESHOLD).length / ais.length : undefined;
  console.log(
    `${name.padEnd(52)} ${String(humans.length).padStart(6)} ${String(ais.length).padStart(6)}  ` +
      `${m ? m.auroc.toFixed(3) : '  -  '}  ${pct(m?.tprAt1).padStart(9)}  ${pct(fpr).padStart(7)}  ${pct(tpr).padStart(7)}` +
      (refused > 0 ? `  (${refused} refused: not English)` : ''),
  );
}
const datasets = [...new Set(scored.map((r) => r.dataset))];
for (const dataset of datasets) {
  const inSet = scored.filter((r) => r.dataset === dataset);
  const seen = dataset === 'fastdetectgpt_open_models' || dataset === 'm4_llama2' ? 'seen family, unseen groups' : 'family never trained on';
  report(`${dataset} [${seen}]`, inSet);
  const families = [...new Set(inSet.filter((r) => r.label === 1).map((r) => r.generator))];
  if (families.length > 1) {
    for (const g of families) report(`  generator ${g}`, inSet.filter((r) => r.label === 0 || r.generator === g));
  }
  const domains = [...new Set(inSet.map((r) => r.domain))];
  if (domains.length > 1 && domains.length <= 10) for (const d of domains) report(`  domain ${d}`, inSet.filter((r) => r.domain === d));
}
const english = scored.filter((r) => r.language === 'en');
// Length buckets (characters of the input) of the English rows: the calibration is per length.
const LENGTH_EDGES = [300, 400, 800, 1600, 3200];
LENGTH_EDGES.forEach((lo, i) => {
  const hi = LENGTH_EDGES[i + 1] ?? Infinity;
  report(`length ${lo}..${hi === Infinity ? '' : hi - 1} chars`, english.filter((r) => r.text.length >= lo && r.text.length < hi));
});
report('ALL English test rows', english);
report('ALL never-trained families (ChatGPT, Falcon)', english.filter((r) => ['hc3plus_si', 'mgtbench_truthfulqa', 'binoculars_pubmed'].includes(r.dataset)));
