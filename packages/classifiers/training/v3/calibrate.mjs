// The shipped calibration of AI-text 3.0.0: a deployment calibration profile (the same code as `content-analysis
// calibrate ai-text`: createCalibrationProfile with the runtime's scorer) made on the human texts of the corpus's
// calib split only (training side; the test split is never read here). The target is chosen on the calib split too:
// the largest of TARGETS for which no human domain of the calib split with at least MIN_DOMAIN texts has more than
// DOMAIN_FPR of its texts flagged (the promise is per domain, the profile is made on all of them pooled). Writes the
// profile into card.json -> `calibration` (its buckets are what the runtime applies), `fixed_input` and the calib
// AUROC. The held-out human domains are measured afterwards on the test split (scripts/ai-text/evaluate.mjs,
// scripts/ai-text/calibration.mjs --corpus).
// Usage: AI_TEXT_VERSION=3.0.0 node packages/classifiers/training/v3/calibrate.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { aiTextCalibrationScorer, createCalibrationProfile, createAiTextScorer, humanScore, HUMAN_SCORE_THRESHOLD } from '../../dist/index.js';
import { auroc } from '../../../../scripts/lib/auroc.mjs';
import { corpusRows, FIXED_INPUT, modelDir } from '../paths.mjs';

const TARGETS = [0.01, 0.005, 0.002, 0.001];
const DOMAIN_FPR = 0.01;
const MIN_DOMAIN = 25;
const version = process.env.AI_TEXT_VERSION ?? '3.0.0';
const cardPath = join(modelDir('ai-text', version), 'card.json');
const card = JSON.parse(readFileSync(cardPath, 'utf8'));
const scorer = await aiTextCalibrationScorer({ version });
const raw = await createAiTextScorer({ version });

const human = []; // {text, domain, whole}
const docs = { human: [], ai: [] };
for await (const r of corpusRows()) {
  if (r.split !== 'calib') continue;
  const scored = await scorer.score(r.text, []);
  if ('skip' in scored) continue;
  (r.label === 0 ? docs.human : docs.ai).push(scored.ranges[0].raw);
  if (r.label === 0) human.push({ text: r.text, domain: r.domain, whole: scored.ranges[0] });
}

let chosen;
for (const target of TARGETS) {
  const { profile, used, skipped } = await createCalibrationProfile(human.map((h) => h.text), scorer, {
    targetFpr: target, source: 'training/corpus calib split, human texts (every domain pooled)', now: new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`),
  });
  const byDomain = new Map();
  for (const h of human) {
    const d = byDomain.get(h.domain) ?? { n: 0, flagged: 0 };
    d.n++;
    if (humanScore(h.whole.raw, h.whole.chars, profile.buckets) < HUMAN_SCORE_THRESHOLD) d.flagged++;
    byDomain.set(h.domain, d);
  }
  const worst = [...byDomain].filter(([, d]) => d.n >= MIN_DOMAIN).map(([name, d]) => [name, d.flagged / d.n]).sort((a, b) => b[1] - a[1]);
  console.log(`target ${target}: ${used} texts used (${JSON.stringify(skipped)}); worst calib domains ${worst.slice(0, 4).map(([n, f]) => `${n} ${(100 * f).toFixed(2)}%`).join(', ')}`);
  chosen = { target, profile, worst };
  if (worst[0][1] <= DOMAIN_FPR) break;
}

const fixed = await raw.score(FIXED_INPUT, []);
card.calibration = {
  ...chosen.profile,
  human_quantile: null,
  rule: `a deployment calibration profile (createCalibrationProfile, as content-analysis calibrate ai-text) on the calib split's human texts, every domain pooled; target the largest of ${TARGETS.join(', ')} that keeps every calib human domain with >= ${MIN_DOMAIN} texts at <= ${DOMAIN_FPR} flagged (chosen: ${chosen.target}; worst calib domain ${chosen.worst[0][0]} ${(100 * chosen.worst[0][1]).toFixed(2)}%)`,
  score: 'human score = 100 * sigmoid(2 * (threshold - ai_logit) / scale)',
};
card.fixed_input = { text: FIXED_INPUT, ai_logit: fixed[0].logit };
card.metrics = { ...(card.metrics ?? {}), calib_split_doc_auroc: auroc(docs.ai, docs.human) };
writeFileSync(cardPath, `${JSON.stringify(card, null, 2)}\n`);
console.log(`calibrated on ${human.length} calib human texts at target ${chosen.target}; calib AUROC ${card.metrics.calib_split_doc_auroc.toFixed(4)}`);
for (const b of chosen.profile.buckets) console.log(`  >= ${b.min_chars} chars: threshold ${b.threshold.toFixed(1)} n ${b.n_human} bound ${(100 * b.fpr_bound).toFixed(2)}%${b.meets_target ? '' : ' (inherited)'}`);
