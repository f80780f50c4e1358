// A guarded shipped calibration for the AI-text version AI_TEXT_VERSION (written into its card): 3.0.0's deployment
// calibration profile (createCalibrationProfile's rule, the code of `content-analysis calibrate ai-text`, on the calib
// split's human texts pooled) with a per-domain guard, made on the calib split only (the test split is never read):
// per length bucket the pooled Clopper-Pearson order statistic at POOLED_TARGET (calibrateThresholds), raised to the
// split-conformal DOMAIN_TARGET quantile of every calib human domain with at least MIN_DOMAIN ranges in the bucket
// (guardThresholds, src/calibration/guardThresholds.ts: a new text of that domain lies above it with probability
// <= DOMAIN_TARGET once the domain has >= 1 / DOMAIN_TARGET - 1 ranges there, else <= 1 / (n + 1)).
// The per-domain promise is what issue 30 asks of the default profile (every human domain <= 1%), which a pooled
// bound does not give: a domain with a tenth of the pool can sit at ten times the pooled rate.
// Writes the profile into card.json -> `calibration` (its buckets are what the runtime applies), the per-domain
// figures into `calibration.domains`, `fixed_input` and the calib AUROC.
// Usage: AI_TEXT_VERSION=<version> [AI_TEXT_POOLED_TARGET=0.005 AI_TEXT_DOMAIN_TARGET=0.005] node packages/classifiers/training/v32/calibrate.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  aiTextCalibrationScorer, createAiTextScorer, HUMAN_SCORE_THRESHOLD, humanScore, PROFILE_METHOD, profileWindowChars,
} from '../../dist/index.js';
import { auroc } from '../../../../scripts/lib/auroc.mjs';
import { corpusRows, FIXED_INPUT, modelDir } from '../paths.mjs';
import { guardedBuckets } from './guard.mjs';

const POOLED_TARGET = Number(process.env.AI_TEXT_POOLED_TARGET ?? 0.005);
const DOMAIN_TARGET = Number(process.env.AI_TEXT_DOMAIN_TARGET ?? 0.005);
const CONFIDENCE = 0.95;
const MIN_DOMAIN = 25;
const version = process.env.AI_TEXT_VERSION;
if (version === undefined) throw new Error('set AI_TEXT_VERSION to the version whose card gets the calibration');
const cardPath = join(modelDir('ai-text', version), 'card.json');
const card = JSON.parse(readFileSync(cardPath, 'utf8'));
const scorer = await aiTextCalibrationScorer({ version });
const raw = await createAiTextScorer({ version });
const windows = profileWindowChars();

const human = []; // {domain, ranges}
const docs = { human: [], ai: [] };
const seen = new Set();
for await (const r of corpusRows()) {
  if (r.split !== 'calib') continue;
  if (r.label === 0 && seen.has(r.text)) continue;
  seen.add(r.text);
  const scored = await scorer.score(r.text, r.label === 0 ? windows : []);
  if ('skip' in scored) continue;
  (r.label === 0 ? docs.human : docs.ai).push(scored.ranges[0]);
  if (r.label === 0) human.push({ domain: r.domain, ranges: scored.ranges });
}

const { buckets, domains } = guardedBuckets(human, { pooledTarget: POOLED_TARGET, domainTarget: DOMAIN_TARGET, confidence: CONFIDENCE, minDomain: MIN_DOMAIN });
// Per domain, over its whole calib texts: flagged at the shipped buckets and the conformal statement per bucket.
for (const h of human) {
  const d = (domains[h.domain] ??= {});
  d.texts = (d.texts ?? 0) + 1;
  const w = h.ranges[0];
  if (humanScore(w.raw, w.chars, buckets) < HUMAN_SCORE_THRESHOLD) d.flagged = (d.flagged ?? 0) + 1;
}

const fixed = await raw.score(FIXED_INPUT, []);
card.calibration = {
  kind: 'content-analysis/calibration-profile', format: 1, detector: { ...scorer.detector },
  created: `${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`, target_fpr: POOLED_TARGET, confidence: CONFIDENCE,
  method: `${PROFILE_METHOD} Then, per bucket, raised to the split-conformal quantile at ${DOMAIN_TARGET} of each calib human domain with >= ${MIN_DOMAIN} ranges in the bucket (the ceil((n+1)(1-${DOMAIN_TARGET}))-th smallest, or the largest): a new text of that domain lies above it with probability <= (n+1-rank)/(n+1); exceedances and fpr_bound restated at the raised threshold (pooled).`,
  human_texts: human.length,
  source: 'training/corpus calib split, human texts (every domain pooled, then a per-domain guard: training/v32/calibrate.mjs)',
  buckets,
  human_quantile: null,
  rule: `pooled Clopper-Pearson at ${POOLED_TARGET} (95%), raised per bucket to every calib human domain's split-conformal ${DOMAIN_TARGET} quantile`,
  domains,
  score: 'human score = 100 * sigmoid(2 * (threshold - ai_logit) / scale)',
};
card.fixed_input = { text: FIXED_INPUT, ai_logit: fixed[0].logit };
card.metrics = { ...(card.metrics ?? {}), calib_split_doc_auroc: auroc(docs.ai.map((d) => d.raw), docs.human.map((d) => d.raw)) };
writeFileSync(cardPath, `${JSON.stringify(card, null, 2)}\n`);
const flagged = (list) => list.filter((d) => humanScore(d.raw, d.chars, buckets) < HUMAN_SCORE_THRESHOLD).length / list.length;
console.log(`calibrated on ${human.length} calib human texts; calib AUROC ${card.metrics.calib_split_doc_auroc.toFixed(4)}; ` +
  `calib AI flagged ${(100 * flagged(docs.ai)).toFixed(1)}%, human ${(100 * flagged(docs.human)).toFixed(2)}%`);
for (const b of buckets) console.log(`  >= ${b.min_chars} chars: threshold ${b.threshold.toFixed(1)} (${b.set_by}) n ${b.n_human} exceed ${b.exceedances} bound ${(100 * b.fpr_bound).toFixed(2)}%`);
const worst = Object.entries(domains).filter(([, d]) => d.texts >= MIN_DOMAIN).map(([n, d]) => [n, (d.flagged ?? 0) / d.texts]).sort((a, b) => b[1] - a[1]);
console.log(`worst calib domains: ${worst.slice(0, 5).map(([n, f]) => `${n} ${(100 * f).toFixed(2)}%`).join(', ')}`);
