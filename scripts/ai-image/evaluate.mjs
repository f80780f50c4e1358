// Evaluates the shipped AI-image classifier, every version, end to end (decode, normalising views, backbone
// features, probe, calibration) on the image sets no version trained on or chose anything with, and prints next
// to them the leave-generator-out figures each version's card records (measured by training/ai-image/train.py:
// every ai-vs-real-train image scored by a model that never saw its generator family or its content group).
// Per version and dataset: AUROC and the TPR / FPR at the shipped threshold (ai_probability >= 0.5, score < 50).
// Then, when the corpus of versions 6 and 7 is built (packages/classifiers/training/ai-image/v6/build-corpus.mjs),
// the version 7 leave-generator-family-out and leave-one-source-out tables with version 5 beside them
// (corpusTable.mjs), and the robustness of versions 5, 6 and 7 to re-compression, resizing, cropping and screenshots
// (robustness.mjs) on the held-out camera photos, the real photos held apart for the threshold and a sample of the
// corpus's AI images (version 5 is model 9 since 2026-11-27, model 8 before it; legacy-5 the model that was 5 before both).
// First the tables of the default model (version 5 = model 9) from its card (`--default-only`: only them).
// With --model NAME=DIR (repeatable), each plugged image model (a Hugging Face / Optimum ONNX folder, see
// packages/classifiers/src/custom/README.md) gets the same per-dataset table as version `custom:NAME`, beside the
// shipped versions.
// Usage: node scripts/ai-image/evaluate.mjs [--default-only] [--version N] [--model NAME=DIR ...] [--skip-corpus]
//   [--skip-robustness] [--robustness-per-group N (60)] [--robustness-versions a,b (legacy-5,6,7,5)]   (after npm run build)
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AI_IMAGE_VERSIONS, aiImageModelCard, createAiImageClassifier, CustomModels, isCustomVersion, parseModelSpec,
} from '../../packages/classifiers/dist/index.js';
import { evaluationImages, requireDatasets } from '../../packages/classifiers/training/ai-image/datasets.mjs';
import { readManifest } from '../../packages/classifiers/training/ai-image/v6/manifest.mjs';
import { auroc } from '../lib/auroc.mjs';
import { CORPUS, printCorpusTables, printDefaultModelTables, spread } from './corpusTable.mjs';
import { printRobustness } from './robustness.mjs';

requireDatasets();
printDefaultModelTables();
if (process.argv.includes('--default-only')) process.exit(0);
const option = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const at = process.argv.indexOf('--version');
const versions = at === -1 ? AI_IMAGE_VERSIONS : [process.argv[at + 1]];
const modelSpecs = process.argv.flatMap((a, i) => (a === '--model' ? [process.argv[i + 1]] : []));
const customModels = await CustomModels.load(modelSpecs.map((spec) => parseModelSpec(spec)));
const classifier = createAiImageClassifier({ threads: 2 });
const rows = await evaluationImages();
const bytes = rows.map((r) => readFileSync(r.path));

const fmt = (v) => (v === null || v === undefined ? '   -  ' : v.toFixed(3).padStart(6));
const pct = (flags) => (flags.length === 0 ? null : flags.filter(Boolean).length / flags.length);

const columns = [...versions, ...customModels.versions('ai-image')];
const width = Math.max(7, ...columns.map((v) => String(v).length));
console.log('dataset'.padEnd(46), 'version'.padStart(width), '  n_ai', 'n_real', ' AUROC', '   TPR', '   FPR');
for (const version of columns) {
  const custom = isCustomVersion(version) ? customModels.image(version) : undefined;
  const card = custom ? { metrics: {} } : aiImageModelCard(version);
  const lgo = card.metrics.leave_generator_out;
  if (lgo) {
    console.log(
      'ai-vs-real-train, leave-gen-out'.padEnd(46), String(version).padStart(width), String(lgo.n_ai).padStart(6),
      String(lgo.n_real).padStart(6), fmt(lgo.auroc), fmt(lgo.tpr), fmt(lgo.fpr), ' (from the card)',
    );
  }
  const scores = [];
  for (const [i, r] of rows.entries()) {
    const result = custom ? await custom.classify(bytes[i]) : await classifier.classify(bytes[i], { version });
    scores.push({ ...r, p: result.ai_probability });
  }
  const sets = [...new Set(rows.map((r) => r.dataset)), 'all real photographs (held out)'];
  for (const set of sets) {
    const slice = set.startsWith('all real') ? scores.filter((s) => s.label === 0 && !s.dataset.startsWith('cifake')) : scores.filter((s) => s.dataset === set);
    const ai = slice.filter((s) => s.label === 1).map((s) => s.p);
    const real = slice.filter((s) => s.label === 0).map((s) => s.p);
    console.log(
      set.padEnd(46), String(version).padStart(width), String(ai.length).padStart(6), String(real.length).padStart(6),
      fmt(auroc(ai, real)), fmt(pct(ai.map((p) => p >= 0.5))), fmt(pct(real.map((p) => p >= 0.5))),
    );
  }
}

if (!existsSync(join(CORPUS, 'manifest.csv'))) {
  console.log(`\nskipped the corpus tables: ${CORPUS}/manifest.csv not found (node packages/classifiers/training/ai-image/v6/build-corpus.mjs)`);
} else {
  const manifest = readManifest(CORPUS);
  if (!process.argv.includes('--skip-corpus')) await printCorpusTables(classifier, manifest, { perGroup: 40 });
  if (!process.argv.includes('--skip-robustness')) {
    // The real photos train.py held apart for the threshold (the manifest's split).
    const calib = manifest.filter((r) => r.split === 'calibration');
    const ai = manifest.filter((r) => r.label === 'ai');
    const n = Number(option('--robustness-per-group', '60'));
    const images = [
      ...spread(rows.filter((r) => r.dataset.startsWith('camera')), n + 8).map((r) => readFileSync(r.path)),
      ...spread(calib, n).map((r) => readFileSync(join(CORPUS, r.file))),
      ...spread(ai, n).map((r) => readFileSync(join(CORPUS, r.file))),
    ];
    await printRobustness(classifier, images, option('--robustness-versions', 'legacy-5,6,7,5').split(','));
  }
}
await customModels.release();
