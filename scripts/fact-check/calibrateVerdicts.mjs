// Fits the verdict calibration of @content-analysis/fact-check (models/verdict-calibration.json): for each entailment
// model (1.x, 2.0), a multinomial logistic regression from the claim-level features of its relevant passages
// (verdictFeatures: entailment probabilities, vote, overlap, the claim resolver's conflicts) to SUPPORTED / REFUTED /
// NOT_ENOUGH_EVIDENCE / PARTIALLY_SUPPORTED, on the calibration parts of claimSets.mjs ONLY: the CLIMATE-FEVER dev
// split (156 claims) and the calibration half of the FEVER test-split claims (gold evidence and NEI passages).
// evaluate.mjs reports the other parts. Each domain weighs the same in the fit (climate claims are up-weighted), L2
// 1e-2, full-batch gradient descent from zeros (deterministic). The verdict's minimum probability, the class weights of the
// decision and whether unstated comparison / cause words block SUPPORTED are then chosen on the same calibration
// data, by the mean of the two sets' macro F1.
// Run: node scripts/fact-check/calibrateVerdicts.mjs  (after tsc -b packages/fact-check; a few minutes)
process.env.DOTENV_CONFIG_QUIET = 'true';
import { writeFileSync } from 'node:fs';
import { requireFactcheckRoot } from '../../packages/fact-check/training/datasets.mjs';
import { claimSets, scoreItems, SET_LABELS, verdictLabel } from './claimSets.mjs';
import { scores } from './verdictScores.mjs';

const fc = await import('../../packages/fact-check/dist/index.js');
const root = requireFactcheckRoot();
const vectors = fc.loadWordVectors();
const sets = claimSets(root, 'calibration');
const CLASS = { SUPPORTS: 0, REFUTES: 1, NOT_ENOUGH_INFO: 2, DISPUTED: 3 };
const K = 4;
const F = fc.VERDICT_FEATURES.length;
const fmt = (x) => x.toFixed(3);

/** Multinomial logistic regression, full-batch gradient descent with momentum on standardised features. */
function fit(rows, weights, lambda = 1e-2, steps = 3000, rate = 0.5) {
  const n = rows.length;
  const mean = Array.from({ length: F }, (_, j) => rows.reduce((s, r, i) => s + weights[i] * r.x[j], 0) / weights.reduce((a, b) => a + b, 0));
  const scale = Array.from({ length: F }, (_, j) => Math.sqrt(rows.reduce((s, r, i) => s + weights[i] * (r.x[j] - mean[j]) ** 2, 0) / weights.reduce((a, b) => a + b, 0)) || 1);
  const xs = rows.map((r) => r.x.map((v, j) => (v - mean[j]) / scale[j]));
  const W = Array.from({ length: K }, () => new Float64Array(F));
  const b = new Float64Array(K);
  const vW = Array.from({ length: K }, () => new Float64Array(F));
  const vb = new Float64Array(K);
  const total = weights.reduce((a, c) => a + c, 0);
  for (let step = 0; step < steps; step++) {
    const gW = Array.from({ length: K }, () => new Float64Array(F));
    const gb = new Float64Array(K);
    for (let i = 0; i < n; i++) {
      const logits = W.map((row, k) => row.reduce((s, w, j) => s + w * xs[i][j], b[k]));
      const top = Math.max(...logits);
      const e = logits.map((l) => Math.exp(l - top));
      const z = e.reduce((a, c) => a + c, 0);
      for (let k = 0; k < K; k++) {
        const g = weights[i] * (e[k] / z - (rows[i].y === k ? 1 : 0));
        gb[k] += g;
        for (let j = 0; j < F; j++) gW[k][j] += g * xs[i][j];
      }
    }
    for (let k = 0; k < K; k++) {
      vb[k] = 0.9 * vb[k] + gb[k] / total;
      b[k] -= rate * vb[k];
      for (let j = 0; j < F; j++) {
        vW[k][j] = 0.9 * vW[k][j] + gW[k][j] / total + lambda * W[k][j];
        W[k][j] -= rate * vW[k][j];
      }
    }
  }
  return { mean, scale, weights: W.map((row) => [...row].map((v) => Math.round(v * 1e6) / 1e6)), bias: [...b].map((v) => Math.round(v * 1e6) / 1e6) };
}

/** Expected calibration error of the top class over 10 equal-width bins. */
function ece(probabilities, gold) {
  const bins = Array.from({ length: 10 }, () => ({ n: 0, conf: 0, hit: 0 }));
  probabilities.forEach((p, i) => {
    const top = p.indexOf(Math.max(...p));
    const bin = bins[Math.min(9, Math.floor(p[top] * 10))];
    bin.n++;
    bin.conf += p[top];
    bin.hit += top === gold[i] ? 1 : 0;
  });
  return bins.reduce((s, bin) => s + Math.abs(bin.conf - bin.hit), 0) / probabilities.length;
}

const models = {};
for (const version of ['1.x', '2.0']) {
  const scored = {};
  for (const [name, items] of Object.entries(sets)) scored[name] = await scoreItems(fc, items, version, vectors);
  const rows = [];
  const weights = [];
  const evidenced = Object.fromEntries(Object.entries(scored).map(([name, s]) => [name, s.filter((r) => r.judged.length > 0)]));
  for (const [name, list] of Object.entries(evidenced)) {
    const domainWeight = 1 / list.length;
    for (const r of list) {
      rows.push({ x: [...fc.verdictFeatures(r.judged)], y: CLASS[r.label] });
      weights.push(domainWeight * 1000);
    }
  }
  const calibration = { features: [...fc.VERDICT_FEATURES], ...fit(rows, weights), minProbability: 0.5, decisionWeights: [1, 1, 1, 1], blockUnstated: true };
  const probabilities = rows.map((r) => fc.calibratedProbabilities(r.x, calibration));
  const calibrationError = ece(probabilities, rows.map((r) => r.y));
  // The decision: the minimum probability, the class weights (REFUTED, NOT_ENOUGH_EVIDENCE and PARTIALLY_SUPPORTED
  // against SUPPORTED at 1) and whether unstated comparison / cause words block SUPPORTED, by the mean macro F1 of the
  // calibration sets; ties keep the smaller change from (0.5, 1, 1, 1, blocking).
  const prepared = Object.entries(scored).map(([name, list]) => ({
    name,
    rows: list.map((r) => {
      if (r.judged.length === 0) return { label: r.label };
      const support = r.judged.reduce((b, s, i) => (s.p[0] > r.judged[b].p[0] ? i : b), 0);
      return { label: r.label, p: fc.calibratedProbabilities(fc.verdictFeatures(r.judged), calibration), conflicts: fc.passageConflicts(r.judged[support].alignment, r.judged[support].overlap) };
    }),
  }));
  let best;
  const grid = [0.75, 1, 1.25, 1.5, 2];
  for (const blockUnstated of [true, false]) {
    for (const min of [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6]) {
      for (const wR of grid) {
        for (const wN of grid) {
          for (const wD of [1, 1.5, 2, 2.5, 3]) {
            const candidate = { minProbability: min, decisionWeights: [1, wR, wN, wD], blockUnstated };
            const perSet = prepared.map(({ name, rows: list }) => {
              const pairs = list.map((r) => [r.label, verdictLabel(r.p ? fc.chooseVerdict(r.p, r.conflicts, candidate).verdict : 'NOT_ENOUGH_EVIDENCE', name)]);
              return { name, ...scores(pairs, SET_LABELS[name]) };
            });
            const objective = perSet.reduce((s, r) => s + r.macroF1, 0) / perSet.length;
            const change = Math.abs(wR - 1) + Math.abs(wN - 1) + Math.abs(wD - 1) + Math.abs(min - 0.5) + (blockUnstated ? 0 : 0.01);
            if (!best || objective > best.objective + 1e-9 || (Math.abs(objective - best.objective) <= 1e-9 && change < best.change)) {
              best = { objective, change, min, weights: [1, wR, wN, wD], blockUnstated, perSet };
            }
          }
        }
      }
    }
    const bestHere = best;
    console.log(`  ${version} best so far (blocking unstated words ${blockUnstated}): min ${bestHere.min}, weights ${bestHere.weights.join(' / ')}, blocking ${bestHere.blockUnstated}, mean macro F1 ${fmt(bestHere.objective)}`);
  }
  console.log(`  ${version}: ${best.perSet.map((r) => `${r.name} accuracy ${fmt(r.accuracy)} macro F1 ${fmt(r.macroF1)}`).join('; ')}`);
  calibration.minProbability = best.min;
  calibration.decisionWeights = best.weights;
  calibration.blockUnstated = best.blockUnstated;
  models[version] = { ...calibration, fittedOn: Object.fromEntries(Object.entries(evidenced).map(([n, l]) => [n, l.length])), calibrationEce: Math.round(calibrationError * 1000) / 1000 };
  console.log(`${version}: chose minProbability ${best.min}, decision weights ${best.weights.join(' / ')}, blocking unstated words ${best.blockUnstated} (mean macro F1 ${fmt(best.objective)} on the calibration parts); ECE of the top class on the fit ${fmt(calibrationError)}; rows ${JSON.stringify(models[version].fittedOn)}`);
}
const out = new URL('../../packages/fact-check/models/verdict-calibration.json', import.meta.url);
writeFileSync(out, `${JSON.stringify({ version: '1.0.0', classes: [...fc.CALIBRATED_CLASSES], models }, null, 1)}\n`);
console.log(`wrote ${out.pathname}`);
