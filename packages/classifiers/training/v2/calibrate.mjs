// Sets the decision threshold of AI-text model 2.x (2.0.0 after training/v2/train.py, 2.1.0 after
// training/v21/build.py; AI_TEXT_VERSION, default 2.0.0) with the package's own runtime
// code: every human text of the calib split, whole and cut to its leading sentences at several lengths, is scored by
// the model's features and ONNX head (createAiTextScorer). Per length bucket, the threshold is the highest, over the
// human domains with at least MIN_DOMAIN_ROWS texts in that bucket, of the domain's HUMAN_QUANTILE quantile: so at
// most 1 - HUMAN_QUANTILE of each domain's calib texts is flagged. Writes `calibration`, `fixed_input` and the calib
// AUROC into the version's card.json (training/paths.mjs modelDir: 2.1.0's is in packages/models-extra).
// Usage: [AI_TEXT_VERSION=2.1.0] node packages/classifiers/training/v2/calibrate.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAiTextScorer } from '../../dist/index.js';
import { auroc } from '../../../../scripts/lib/auroc.mjs';
import { corpusRows, FIXED_INPUT, modelDir } from '../paths.mjs';

const HUMAN_QUANTILE = 0.998;
const MIN_DOMAIN_ROWS = 25;
const BUCKETS = [0, 200, 400, 800, 1600, 3200];
const WINDOW_CHARS = [150, 300, 600, 1200, 2500];
const version = process.env.AI_TEXT_VERSION ?? '2.0.0';
const cardPath = join(modelDir('ai-text', version), 'card.json');
const card = JSON.parse(readFileSync(cardPath, 'utf8'));
// The runtime's own features and ONNX head, without calibration.
const scorer = await createAiTextScorer({ version });
const windowScores = async (text, windows = WINDOW_CHARS) =>
  (await scorer.score(text, windows)).map(({ chars, logit }) => ({ chars, raw: logit }));

function quantile(values, q) {
  const s = Float64Array.from(values).sort();
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (at - lo);
}

const human = []; // {domain, chars, raw}
const docs = { human: [], ai: [] };
for await (const r of corpusRows()) {
  if (r.split !== 'calib') continue;
  const scores = await windowScores(r.text, r.label === 0 ? WINDOW_CHARS : []);
  if (scores.length === 0) continue;
  (r.label === 0 ? docs.human : docs.ai).push(scores[0].raw);
  if (r.label === 0) for (const s of scores) human.push({ domain: r.domain, ...s });
}

const buckets = [];
const domains = {};
BUCKETS.forEach((min, k) => {
  const max = BUCKETS[k + 1] ?? Infinity;
  const inBucket = human.filter((h) => h.chars >= min && h.chars < max);
  const byDomain = new Map();
  for (const h of inBucket) byDomain.set(h.domain, [...(byDomain.get(h.domain) ?? []), h.raw]);
  let threshold = -Infinity;
  let from;
  for (const [domain, values] of byDomain) {
    if (values.length < MIN_DOMAIN_ROWS) continue;
    const q = quantile(values, HUMAN_QUANTILE);
    (domains[domain] ??= {})[min] = { n_human: values.length, quantile: q };
    if (q > threshold) [threshold, from] = [q, domain];
  }
  const raws = inBucket.map((h) => h.raw);
  const mean = raws.reduce((a, b) => a + b, 0) / Math.max(1, raws.length);
  const scale = Math.sqrt(raws.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, raws.length - 1));
  if (from === undefined) {
    const previous = buckets[buckets.length - 1];
    buckets.push({ ...previous, min_chars: min, n_human: raws.length, inherited: true });
  } else {
    buckets.push({ min_chars: min, n_human: raws.length, threshold, scale, set_by_domain: from });
  }
});
if (buckets[0].threshold === undefined) throw new Error('no calib human text in the shortest bucket');

const fixed = await windowScores(FIXED_INPUT, []);
card.calibration = {
  human_quantile: HUMAN_QUANTILE,
  rule: `per length bucket, the highest ${HUMAN_QUANTILE} quantile of the human domains with >= ${MIN_DOMAIN_ROWS} calib texts in it`,
  buckets,
  data: 'human texts of the calib split (documents and their leading windows of 150-2,500 characters)',
  domains,
  score: 'human score = 100 * sigmoid(2 * (threshold - ai_logit) / scale)',
};
card.fixed_input = { text: FIXED_INPUT, ai_logit: fixed[0].raw };
card.metrics.calib_split_doc_auroc = auroc(docs.ai, docs.human); // machine text has the higher logits
writeFileSync(cardPath, `${JSON.stringify(card, null, 2)}\n`);
console.log(`calibrated on ${human.length} human windows; calib AUROC ${card.metrics.calib_split_doc_auroc.toFixed(4)}`);
for (const b of buckets) console.log(`  >= ${b.min_chars} chars: threshold ${b.threshold.toFixed(3)} (${b.set_by_domain ?? 'inherited'}, ${b.n_human} human)`);
