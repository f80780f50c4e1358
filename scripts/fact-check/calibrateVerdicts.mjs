// Fits the verdict calibration of @content-analysis/fact-check (models/verdict-calibration.json): for each entailment
// model (1.x, 2.0), a multinomial logistic regression from the claim-level features of its relevant passages
// (verdictFeatures: entailment probabilities and how the passages agree, the overlap-weighted vote, overlap and wording,
// the claim resolver's conflicts) to SUPPORTED / REFUTED / NOT_ENOUGH_EVIDENCE / PARTIALLY_SUPPORTED, on the
// calibration parts of claimSets.mjs ONLY: the CLIMATE-FEVER dev split (156 claims) and the calibration half of the
// FEVER test-split claims (gold evidence and NEI passages). evaluate.mjs reports the other parts.
// Each domain weighs the same in the fit (climate claims are up-weighted); full-batch gradient descent with momentum
// from zeros (deterministic). Since 2.2.0 (issue 34):
// - the L2 strength is chosen by 5-fold cross-validation on the calibration data (folds by a hash of the claim, so
//   the FEVER items of one claim stay together): the lowest out-of-fold log loss, the mean of the two domains;
// - the decision (minimum probability, class weights, whether unstated comparison / cause words block SUPPORTED) is
//   chosen on the OUT-OF-FOLD probabilities of that strength (by the mean of the two sets' macro F1), not on the
//   probabilities of a model that has seen the same claims;
// - FACT_CHECK_COMPARE=1 also cross-validates the 14 features of 2.1.0 and prints them beside (not shipped).
// Since calibration 1.2.0 (issue 34, second attempt): the decision search also chooses a DISPUTED rule (one passage
// entails with at least minEntailment while one contradicts with at least minContradiction -> PARTIALLY_SUPPORTED,
// or no rule), on the same out-of-fold probabilities. The objective stays the mean of each set's own macro F1
// (CLIMATE-FEVER dev over its 4 classes, FEVER over its 3), so neither set dominates; only CLIMATE-FEVER has a
// DISPUTED class, so the rule is kept only when it raises the climate score by more than it costs FEVER. The line
// `decision without the DISPUTED rule` prints the best decision of 1.1.0's search on the same probabilities beside.
// Run: node scripts/fact-check/calibrateVerdicts.mjs  (after tsc -b packages/fact-check; about 10 minutes on the shared machine)
process.env.DOTENV_CONFIG_QUIET = 'true';
import { writeFileSync } from 'node:fs';
import { hash, requireFactcheckRoot } from '../../packages/fact-check/training/datasets.mjs';
import { claimSets, scoreItems, SET_LABELS, verdictLabel } from './claimSets.mjs';
import { scores } from './verdictScores.mjs';

const fc = await import('../../packages/fact-check/dist/index.js');
const root = requireFactcheckRoot();
const vectors = fc.loadWordVectors();
const sets = claimSets(root, 'calibration');
const CLASS = { SUPPORTS: 0, REFUTES: 1, NOT_ENOUGH_INFO: 2, DISPUTED: 3 };
const K = 4;
const FOLDS = 5;
const LAMBDAS = [0.003, 0.01, 0.03, 0.1, 0.3];
const fmt = (x) => x.toFixed(3);

/** Multinomial logistic regression, full-batch gradient descent with momentum on standardised features. */
function fit(X, y, w, lambda, steps = 3000, rate = 0.5) {
  const n = X.length;
  const F = X[0].length;
  const total = w.reduce((a, b) => a + b, 0);
  const mean = new Float64Array(F);
  const scale = new Float64Array(F);
  for (let j = 0; j < F; j++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += w[i] * X[i][j];
    mean[j] = s / total;
    let v = 0;
    for (let i = 0; i < n; i++) v += w[i] * (X[i][j] - mean[j]) ** 2;
    scale[j] = Math.sqrt(v / total) || 1;
  }
  const xs = X.map((r) => Float64Array.from(r, (v, j) => (v - mean[j]) / scale[j]));
  const W = Array.from({ length: K }, () => new Float64Array(F));
  const b = new Float64Array(K);
  const vW = Array.from({ length: K }, () => new Float64Array(F));
  const vb = new Float64Array(K);
  const logits = new Float64Array(K);
  for (let step = 0; step < steps; step++) {
    const gW = Array.from({ length: K }, () => new Float64Array(F));
    const gb = new Float64Array(K);
    for (let i = 0; i < n; i++) {
      const x = xs[i];
      let top = -Infinity;
      for (let k = 0; k < K; k++) {
        let s = b[k];
        for (let j = 0; j < F; j++) s += W[k][j] * x[j];
        logits[k] = s;
        if (s > top) top = s;
      }
      let z = 0;
      for (let k = 0; k < K; k++) z += (logits[k] = Math.exp(logits[k] - top));
      for (let k = 0; k < K; k++) {
        const g = w[i] * (logits[k] / z - (y[i] === k ? 1 : 0));
        gb[k] += g;
        for (let j = 0; j < F; j++) gW[k][j] += g * x[j];
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
  const round = (v) => Math.round(v * 1e6) / 1e6;
  return { mean: [...mean], scale: [...scale], weights: W.map((row) => [...row].map(round)), bias: [...b].map(round) };
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

/** Out-of-fold probabilities of every row with evidence, and the mean (over domains) out-of-fold log loss. */
function crossValidate(rows, lambda, featureCount) {
  const probabilities = new Map();
  for (let fold = 0; fold < FOLDS; fold++) {
    const train = rows.filter((r) => r.fold !== fold);
    const model = fit(train.map((r) => r.x.slice(0, featureCount)), train.map((r) => r.y), train.map((r) => r.w), lambda, 1500);
    for (const r of rows.filter((row) => row.fold === fold)) probabilities.set(r, fc.calibratedProbabilities(r.x.slice(0, featureCount), model));
  }
  const loss = {};
  for (const r of rows) {
    loss[r.set] ??= { sum: 0, n: 0 };
    loss[r.set].sum -= Math.log(Math.max(1e-9, probabilities.get(r)[r.y]));
    loss[r.set].n++;
  }
  const perSet = Object.fromEntries(Object.entries(loss).map(([name, l]) => [name, l.sum / l.n]));
  return { probabilities, perSet, logLoss: Object.values(perSet).reduce((a, b) => a + b, 0) / Object.keys(perSet).length };
}

/**
 * The decision settings with the best mean macro F1 of the calibration sets, given each row's probabilities (rows
 * without evidence are NOT_ENOUGH_EVIDENCE); ties keep the smaller change from (0.5, 1, 1, 1, blocking).
 */
const DISPUTE_THRESHOLDS = [0.5, 0.6, 0.7, 0.8, 0.9];
const DISPUTE_RULES = [null, ...DISPUTE_THRESHOLDS.flatMap((e) => DISPUTE_THRESHOLDS.map((c) => ({ minEntailment: e, minContradiction: c })))];

function chooseDecision(items, probabilityOf, disputeRules = DISPUTE_RULES) {
  let best;
  for (const disputed of disputeRules) {
    const here = chooseWeights(items, probabilityOf, disputed);
    if (!best || here.objective > best.objective + 1e-9) best = here;
  }
  return best;
}

function chooseWeights(items, probabilityOf, disputed) {
  let best;
  const bySet = Object.keys(sets).map((name) => [name, items.filter((r) => r.set === name)]);
  const grid = [0.75, 1, 1.25, 1.5, 2];
  for (const blockUnstated of [true, false]) {
    for (const min of [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6]) {
      for (const wR of grid) {
        for (const wN of grid) {
          for (const wD of [1, 1.5, 2, 2.5, 3]) {
            const candidate = { minProbability: min, decisionWeights: [1, wR, wN, wD], blockUnstated, disputed };
            const perSet = bySet.map(([name, inSet]) => {
              const pairs = inSet.map((r) => [r.label, verdictLabel(r.x ? fc.chooseVerdict(probabilityOf(r), r.conflicts, candidate, r.stance).verdict : 'NOT_ENOUGH_EVIDENCE', name)]);
              return { name, ...scores(pairs, SET_LABELS[name]) };
            });
            const objective = perSet.reduce((s, r) => s + r.macroF1, 0) / perSet.length;
            const change = Math.abs(wR - 1) + Math.abs(wN - 1) + Math.abs(wD - 1) + Math.abs(min - 0.5) + (blockUnstated ? 0 : 0.01);
            if (!best || objective > best.objective + 1e-9 || (Math.abs(objective - best.objective) <= 1e-9 && change < best.change)) {
              best = { objective, change, min, weights: [1, wR, wN, wD], blockUnstated, disputed, perSet };
            }
          }
        }
      }
    }
  }
  return best;
}

const describeRule = (r) => (r ? `DISPUTED when entailment >= ${r.minEntailment} and contradiction >= ${r.minContradiction}` : 'no DISPUTED rule');
const describe = (d) => `min ${d.min}, weights ${d.weights.join(' / ')}, blocking ${d.blockUnstated}, ${describeRule(d.disputed)}: mean macro F1 ${fmt(d.objective)} (${d.perSet.map((r) => `${r.name} accuracy ${fmt(r.accuracy)} macro F1 ${fmt(r.macroF1)}`).join('; ')})`;

const models = {};
for (const version of ['1.x', '2.0']) {
  const items = [];
  for (const [name, list] of Object.entries(sets)) {
    const scored = await scoreItems(fc, list, version, vectors);
    const evidenced = scored.filter((r) => r.judged.length > 0).length;
    scored.forEach((r, i) => {
      const fold = hash(`verdict-cv:${list[i].claim}`) % FOLDS;
      if (r.judged.length === 0) {
        items.push({ set: name, label: r.label, fold });
        return;
      }
      const support = r.judged.reduce((b, s, j) => (s.p[0] > r.judged[b].p[0] ? j : b), 0);
      items.push({
        set: name, label: r.label, fold, y: CLASS[r.label], w: 1000 / evidenced, x: [...fc.verdictFeatures(r.judged)],
        conflicts: fc.passageConflicts(r.judged[support].alignment, r.judged[support].overlap),
        stance: { maxEntailment: r.judged[support].p[0], maxContradiction: Math.max(...r.judged.map((s) => s.p[2])) },
      });
    });
  }
  const rows = items.filter((r) => r.x);
  const F = fc.VERDICT_FEATURES.length;
  const featureSets = process.env.FACT_CHECK_COMPARE === '1' ? [14, F] : [F];
  let chosen;
  for (const featureCount of featureSets) {
    let bestHere;
    for (const lambda of LAMBDAS) {
      const cv = crossValidate(rows, lambda, featureCount);
      console.log(`  ${version}, ${featureCount} features, L2 ${lambda}: out-of-fold log loss ${fmt(cv.logLoss)} (${Object.entries(cv.perSet).map(([n, l]) => `${n} ${fmt(l)}`).join(', ')})`);
      if (!bestHere || cv.logLoss < bestHere.logLoss - 1e-9) bestHere = { ...cv, lambda };
    }
    const withoutRule = chooseDecision(items, (r) => bestHere.probabilities.get(r), [null]);
    console.log(`  ${version}, ${featureCount} features: L2 ${bestHere.lambda}; decision without the DISPUTED rule (1.1.0's search) on the out-of-fold probabilities: ${describe(withoutRule)}`);
    const decision = chooseDecision(items, (r) => bestHere.probabilities.get(r));
    console.log(`  ${version}, ${featureCount} features: L2 ${bestHere.lambda}; decision on the out-of-fold probabilities: ${describe(decision)}`);
    console.log(`  ${version}, out-of-fold confusion (gold -> answered) of that decision: ${JSON.stringify(confusion(items, (r) => bestHere.probabilities.get(r), decision))}`);
    if (featureCount === F) chosen = { ...bestHere, decision };
  }
  const model = fit(rows.map((r) => r.x), rows.map((r) => r.y), rows.map((r) => r.w), chosen.lambda);
  const { decision } = chosen;
  const calibration = {
    features: [...fc.VERDICT_FEATURES], ...model, minProbability: decision.min, decisionWeights: decision.weights, blockUnstated: decision.blockUnstated,
    disputed: decision.disputed,
  };
  const fitted = rows.map((r) => fc.calibratedProbabilities(r.x, calibration));
  const outOfFold = rows.map((r) => chosen.probabilities.get(r));
  const inSample = new Map(rows.map((r, i) => [r, fitted[i]]));
  console.log(`  ${version}, the shipped model with that decision, on the claims it was fitted on (optimistic): ${describe({ ...decision, ...chooseDecisionAt(items, (r) => inSample.get(r), decision) })}`);
  models[version] = {
    ...calibration,
    l2: chosen.lambda,
    fittedOn: Object.fromEntries(Object.keys(sets).map((n) => [n, rows.filter((r) => r.set === n).length])),
    calibrationEce: Math.round(ece(fitted, rows.map((r) => r.y)) * 1000) / 1000,
    crossValidatedEce: Math.round(ece(outOfFold, rows.map((r) => r.y)) * 1000) / 1000,
    crossValidatedLogLoss: Object.fromEntries(Object.entries(chosen.perSet).map(([n, l]) => [n, Math.round(l * 1000) / 1000])),
    crossValidatedMacroF1: Object.fromEntries(decision.perSet.map((r) => [r.name, Math.round(r.macroF1 * 1000) / 1000])),
  };
  console.log(`${version}: L2 ${chosen.lambda}, minProbability ${decision.min}, decision weights ${decision.weights.join(' / ')}, blocking unstated words ${decision.blockUnstated}, ${describeRule(decision.disputed)}; cross-validated mean macro F1 ${fmt(decision.objective)}; ECE of the top class: out of fold ${fmt(models[version].crossValidatedEce)}, on the fit ${fmt(models[version].calibrationEce)}; rows ${JSON.stringify(models[version].fittedOn)}`);
}

/** The scores of one fixed decision (for the in-sample line). */
function chooseDecisionAt(items, probabilityOf, d) {
  const candidate = { minProbability: d.min, decisionWeights: d.weights, blockUnstated: d.blockUnstated, disputed: d.disputed };
  const perSet = Object.keys(sets).map((name) => ({
    name,
    ...scores(items.filter((r) => r.set === name).map((r) => [r.label, verdictLabel(r.x ? fc.chooseVerdict(probabilityOf(r), r.conflicts, candidate, r.stance).verdict : 'NOT_ENOUGH_EVIDENCE', name)]), SET_LABELS[name]),
  }));
  return { perSet, objective: perSet.reduce((s, r) => s + r.macroF1, 0) / perSet.length };
}

/** Per set, gold label -> answered label counts of one decision (out-of-fold calibration data only). */
function confusion(items, probabilityOf, d) {
  const candidate = { minProbability: d.min, decisionWeights: d.weights, blockUnstated: d.blockUnstated, disputed: d.disputed };
  const table = {};
  for (const r of items) {
    const answered = verdictLabel(r.x ? fc.chooseVerdict(probabilityOf(r), r.conflicts, candidate, r.stance).verdict : 'NOT_ENOUGH_EVIDENCE', r.set);
    const row = ((table[r.set] ??= {})[r.label] ??= {});
    row[answered] = (row[answered] ?? 0) + 1;
  }
  return table;
}

const out = new URL('../../packages/fact-check/models/verdict-calibration.json', import.meta.url);
writeFileSync(out, `${JSON.stringify({ version: '1.2.0', classes: [...fc.CALIBRATED_CLASSES], models }, null, 1)}\n`);
console.log(`wrote ${out.pathname}`);
