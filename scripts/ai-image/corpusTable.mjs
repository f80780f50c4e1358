// The corpus tables of scripts/ai-image/evaluate.mjs: leave-generator-family-out and leave-one-source-out AUROC with
// TPR / FPR at the shipped threshold of the newest version trained on the corpus of training/ai-image/v6 (7), as
// training/ai-image/v6/train.py measured them (out-of-fold, recorded in the card), and version 5 beside them,
// measured here on a sample of the same images (version 5 never trained on these sources; the ai-vs-real-train ones
// it did train on are left out of its columns). Version 6's card holds its tables on the corpus as it was then.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { aiImageModelCard } from '../../packages/classifiers/dist/index.js';
import { auroc } from '../lib/auroc.mjs';

/** Where build-corpus.mjs writes the corpus of versions 6 and 7. */
export const CORPUS = resolve(import.meta.dirname, '../../packages/classifiers/training/out/ai-image-v6');
const fmt = (v, w = 6) => (v === null || v === undefined || Number.isNaN(v) ? '-'.padStart(w) : v.toFixed(3).padStart(w));

/** At most `n` items of `list`, spread evenly: every (length / n)-th from the first. */
export const spread = (list, n) => list.filter((_, i) => i % Math.max(1, Math.floor(list.length / n)) === 0).slice(0, n);

/** `spread` over the manifest rows of each family (AI) or source (real), at most `cap` of each. */
function sample(rows, key, cap) {
  const groups = new Map();
  for (const r of rows) {
    const k = r[key];
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(r);
  }
  return [...groups.values()].flatMap((g) => spread(g, cap));
}

/** The version whose card holds the tables of the corpus as it is built now. */
export const CORPUS_VERSION = '7';

/** Prints both tables; `manifest`: the corpus rows (readManifest), `perGroup`: version 5's sample per family. */
export async function printCorpusTables(classifier, manifest, { perGroup = 40 } = {}) {
  const v = CORPUS_VERSION;
  const card = aiImageModelCard(v);
  const m = card.metrics;
  const rows = manifest.filter((r) => !r.source.startsWith('avrt-'));
  const picked = [...sample(rows.filter((r) => r.label === 'ai'), 'family', perGroup), ...sample(rows.filter((r) => r.label === 'real'), 'source', 2 * perGroup)];
  const v5 = new Map();
  for (const r of picked) v5.set(r.file, (await classifier.classify(readFileSync(join(CORPUS, r.file)), { version: '5' })).ai_probability);
  const v5Real = picked.filter((r) => r.label === 'real').map((r) => v5.get(r.file));
  const v5Ai = picked.filter((r) => r.label === 'ai').map((r) => v5.get(r.file));

  console.log(`\nVersion ${v}, leave-generator-family-out (out-of-fold; mean AUROC ${fmt(m.leave_family_out.mean_auroc)}, ` +
    `TPR at the threshold ${fmt(m.leave_family_out.tpr_at_threshold)}); version 5 on up to ${perGroup} images per family against ${v5Real.length} real`);
  console.log('family'.padEnd(22), '     n', `v${v} AUROC`, ' as-published', '  as-shared', ` v${v} TPR`, '  v5 n', 'v5 AUROC', '  v5 TPR');
  for (const [family, f] of Object.entries(m.leave_family_out.per_family)) {
    const mine = picked.filter((r) => r.label === 'ai' && (r.family === family || (family === 'other-small' && f.members?.includes(r.family))));
    const s = mine.map((r) => v5.get(r.file));
    console.log(family.padEnd(22), String(f.n).padStart(6), fmt(f.auroc, 8), fmt(f.auroc_original, 13), fmt(f.auroc_shared, 11), fmt(f.tpr, 8),
      String(s.length).padStart(6), fmt(s.length ? auroc(s, v5Real) : null, 8), fmt(s.length ? s.filter((p) => p >= 0.5).length / s.length : null, 8));
  }
  console.log(`\nVersion ${v}, leave-one-source-out (mean AUROC ${fmt(m.leave_source_out.mean_auroc)}); an AI source ranked against held-out real photos, ` +
    'a real source against the out-of-fold AI scores; TPR (AI) or FPR (real) at the threshold; version 5 on a sample beside it');
  console.log('source'.padEnd(28), 'kind', '     n', `v${v} AUROC`, ' TPR/FPR', '  v5 n', 'v5 AUROC', ' TPR/FPR');
  for (const [source, s] of Object.entries(m.leave_source_out.per_source)) {
    const mine = picked.filter((r) => r.source === source).map((r) => v5.get(r.file));
    const v5Auroc = mine.length === 0 ? null : s.kind === 'ai' ? auroc(mine, v5Real) : auroc(v5Ai, mine);
    const v5Rate = mine.length === 0 ? null : mine.filter((p) => p >= 0.5).length / mine.length;
    console.log(source.padEnd(28), s.kind.padEnd(4), String(s.n).padStart(6), fmt(s.auroc, 8), fmt(s.kind === 'ai' ? s.tpr : s.fpr, 8),
      String(mine.length).padStart(6), fmt(v5Auroc, 8), fmt(v5Rate, 8));
  }
  console.log(`\nVersion ${v} calibration split (real photos held apart, ${card.training.calibration_real_images} images): FPR ${fmt(m.calibration_split_fpr)}`);
}

const pct = (v) => (v === null || v === undefined ? '     -' : `${(100 * v).toFixed(1).padStart(5)}%`);

/**
 * The tables of the default model (version 5 = model 9; model 8 before it) as training/ai-image/v8/train.py (which
 * v9/train.py runs) measured them: per real
 * source left out of training, the false positive rate at the threshold the rule sets without it, as published, as
 * shared (long side <= 1080 px, JPEG q75) and as a screenshot (80%, PNG), with version 7 (`latest` before) beside it
 * on the photos of that source held apart (which it never trained on); per generator family left out, AUROC and TPR
 * at the threshold, as published and as shared (and as a screenshot where the card has it).
 */
export function printDefaultModelTables() {
  const card = aiImageModelCard('5');
  const m = card.metrics;
  const kinds = ['original', 'asshared', 'screenshot'];
  console.log(`\nVersion 5 (the default; model ${card.version}), real sources left out one at a time: share flagged at the threshold set without them`);
  console.log('source'.padEnd(30), '     n', ' published', '    shared', 'screenshot', ' | v7 held-apart n', ' published', '    shared', 'screenshot');
  for (const [source, s] of Object.entries(m.leave_source_out_real)) {
    const v7 = m.version_7_calibration_split_fpr_by_source?.[source];
    console.log(source.padEnd(30), String(s.n).padStart(6), ...kinds.map((k) => pct(s.fpr[k]).padStart(10)), ' |',
      String(v7?.n ?? '-').padStart(16), ...kinds.map((k) => pct(v7?.fpr[k]).padStart(10)));
  }
  const summary = m.summary;
  console.log('worst'.padEnd(30), '      ', ...kinds.map((k) => pct(summary.leave_source_out_real_worst_fpr[k]?.fpr).padStart(10)));
  console.log(`\nVersion 5 (model ${card.version}), generator families left out one at a time: AUROC against real photos left out, TPR at the fold's threshold`);
  // Model 9's card also holds the screenshot copies of the AI images (model 8 never computed them).
  const shots = Object.values(m.leave_family_out).some((f) => f.screenshot);
  console.log('family'.padEnd(22), '     n', 'AUROC published', ' shared', ...(shots ? [' screenshot'] : []), ' TPR published', ' shared', ...(shots ? [' screenshot'] : []));
  for (const [family, f] of Object.entries(m.leave_family_out)) {
    console.log(family.padEnd(22), String(f.n).padStart(6), fmt(f.original.auroc, 15), fmt(f.asshared.auroc, 7), ...(shots ? [fmt(f.screenshot?.auroc, 11)] : []),
      pct(f.original.tpr).padStart(14), pct(f.asshared.tpr).padStart(7), ...(shots ? [pct(f.screenshot?.tpr).padStart(11)] : []));
  }
  for (const k of shots ? ['original', 'asshared', 'screenshot'] : ['original', 'asshared']) {
    console.log(`mean (${{ original: 'as published', asshared: 'as shared', screenshot: 'screenshot' }[k]})`.padEnd(22), '      ', fmt(summary.leave_family_out[k].mean_auroc, 15),
      ' TPR at the threshold', pct(summary.leave_family_out[k].tpr_at_threshold));
  }
  console.log(`Calibration split (real photos held apart; the threshold was set on them): ${kinds.map((k) => `${k} ${pct(summary.calibration_split_fpr[k])}`).join(', ')}`);
}
