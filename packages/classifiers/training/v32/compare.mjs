// Compares shipped calibrations of one AI-text version on the corpus test split, in one scoring pass: the version's
// card calibration as shipped, and guarded profiles (guard.mjs) made on the calib split's human texts for each
// POOLED/DOMAIN target pair. Prints, per profile: TPR on the test AI texts, human FPR on the test split pooled and per
// human domain (the worst first), and how many domains exceed 1%. The calib split only sets thresholds; the test
// split only measures. Usage: node packages/classifiers/training/v32/compare.mjs --version 3.0.0 [--pairs 0.005:0.005,0.01:0.005]
import { aiTextCalibrationScorer, HUMAN_SCORE_THRESHOLD, humanScore, loadModel, profileWindowChars } from '../../dist/index.js';
import { corpusRows } from '../paths.mjs';
import { guardedBuckets } from './guard.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const version = option('--version', '3.0.0');
const pairs = option('--pairs', '0.002:0.005,0.005:0.005,0.01:0.005,0.01:0.01').split(',').map((p) => p.split(':').map(Number));
const scorer = await aiTextCalibrationScorer({ version });
const model = await loadModel('ai-text', { version });
const windows = profileWindowChars();
const human = [];
const test = [];
const started = Date.now();
for await (const r of corpusRows()) {
  if (r.split === 'train' || (r.split === 'calib' && r.label !== 0)) continue;
  const scored = await scorer.score(r.text, r.split === 'calib' ? windows : []);
  if ('skip' in scored) continue;
  if (r.split === 'calib') human.push({ domain: r.domain, ranges: scored.ranges });
  else test.push({ domain: r.domain, label: r.label, family: r.family, ...scored.ranges[0] });
}
console.log(`${version}: ${human.length} calib human texts, ${test.length} test texts scored in ${((Date.now() - started) / 1000).toFixed(0)} s`);
const profiles = [['shipped', model.card.calibration.buckets]];
for (const [pooledTarget, domainTarget] of pairs) {
  profiles.push([`guard pooled ${pooledTarget} domain ${domainTarget}`, guardedBuckets(human, { pooledTarget, domainTarget }).buckets]);
}
for (const [name, buckets] of profiles) {
  const flagged = (t) => humanScore(t.raw, t.chars, buckets) < HUMAN_SCORE_THRESHOLD;
  const ai = test.filter((t) => t.label === 1);
  const hum = test.filter((t) => t.label === 0);
  const byDomain = new Map();
  for (const t of hum) {
    const d = byDomain.get(t.domain) ?? { n: 0, f: 0 };
    d.n++;
    if (flagged(t)) d.f++;
    byDomain.set(t.domain, d);
  }
  const over = [...byDomain].filter(([, d]) => d.f / d.n > 0.01).sort((a, b) => b[1].f / b[1].n - a[1].f / a[1].n);
  console.log(`${name}: TPR ${(100 * ai.filter(flagged).length / ai.length).toFixed(1)}%, human FPR ${(100 * hum.filter(flagged).length / hum.length).toFixed(2)}%; ` +
    `domains over 1%: ${over.length === 0 ? 'none' : over.map(([d, v]) => `${d} ${v.f}/${v.n}`).join(', ')}; thresholds ${buckets.map((b) => b.threshold.toFixed(0)).join(' ')}`);
}
