// Evaluates @content-analysis/fact-check's entailment models, 2.0 (neural) and 1.x (alignment-feature MLP), and the
// verdicts built on them, on data neither was trained on (../shared/datasets/factcheck):
// 1. SNLI test (9,824 pairs): 3-way accuracy (argmax), beside the majority class.
// 2. FEVER gold evidence, test split by claim (hash(claim) % 5 == 0, as in training): SUPPORTS vs REFUTES accuracy,
//    p(entailment) > p(contradiction), beside the majority class.
// 3. Verdicts on every labelled claim set held apart from the verdict calibration (claimSets.mjs: CLIMATE-FEVER test
//    split, the evaluation half of the FEVER test claims with gold and NEI evidence, SNLI test, Breaking NLI test,
//    ConjNLI dev, RTE dev): accuracy, macro F1 and per-label F1 of the calibrated verdicts (the default since 2.1.0,
//    models/verdict-calibration.md) and of the threshold rule of 2.0 and before (today's verdicts before issue 34,
//    `verdictRule: 'thresholds'`), for both models, beside the majority class and always NOT_ENOUGH_EVIDENCE.
//    Verdicts map SUPPORTED -> SUPPORTS, REFUTED -> REFUTES, PARTIALLY_SUPPORTED -> DISPUTED, NOT_ENOUGH_EVIDENCE ->
//    NOT_ENOUGH_INFO (RTE: SUPPORTED or not). Each claim's store holds only its own evidence; top 5 passages.
// 4. Evidence retrieval: all CLIMATE-FEVER evidence sentences of all claims in one store; recall@5.
// Neither model ever sees CLIMATE-FEVER in training; the verdict calibration sees only the CLIMATE-FEVER dev split and
// the calibration half of the FEVER test claims.
// Run: nice -n 10 node scripts/fact-check/evaluate.mjs  (after `node_modules/.bin/tsc -b packages/fact-check`; ~10 min
// on the shared machine). FACT_CHECK_SETS=climate,fever evaluates only those claim sets; FACT_CHECK_PAIRS=0 skips 1-2.
process.env.DOTENV_CONFIG_QUIET = 'true';
const fc = await import(process.env.FACT_CHECK_DIST ?? '../../packages/fact-check/dist/index.js');
import { climateFever, requireFactcheckRoot } from '../../packages/fact-check/training/datasets.mjs';
import { argmax, pairProbabilities, testPairs } from './pairAccuracy.mjs';
import { claimSets, scoreItems, SET_LABELS, verdictLabel } from './claimSets.mjs';
import { scores } from './verdictScores.mjs';

const { EvidenceStore, loadWordVectors } = fc;
const root = requireFactcheckRoot();
const vectors = loadWordVectors();
const started = Date.now();
const versions = fc.loadNeuralEntailment ? ['2.0', '1.x'] : ['1.x'];
const fmt = (x) => x.toFixed(3);
const majorityOf = (labels) => Math.max(...[...new Set(labels)].map((l) => labels.filter((x) => x === l).length)) / labels.length;

const { snli, fever } = testPairs(root);
if (process.env.FACT_CHECK_PAIRS !== '0') {
  console.log(`SNLI test (${snli.length} pairs), 3-way accuracy; majority class ${fmt(majorityOf(snli.map((p) => p.label)))}`);
  for (const version of versions) {
    const probs = await pairProbabilities(fc, snli, version, vectors);
    console.log(`  ${version}: ${fmt(snli.filter((p, i) => argmax(probs[i]) === p.label).length / snli.length)}`);
  }
  console.log(`FEVER gold evidence, test split by claim (${fever.length} pairs, ${new Set(fever.map((p) => p.hypothesis)).size} claims), SUPPORTS vs REFUTES accuracy; majority class ${fmt(majorityOf(fever.map((p) => p.label)))}`);
  for (const version of versions) {
    const probs = await pairProbabilities(fc, fever, version, vectors);
    console.log(`  ${version}: ${fmt(fever.filter((p, i) => (probs[i][0] > probs[i][2]) === (p.label === 0)).length / fever.length)}`);
  }
}

const claims = climateFever(root);
const sets = claimSets(root, 'evaluation');
const only = process.env.FACT_CHECK_SETS?.split(',');
for (const [name, items] of Object.entries(sets)) {
  if (only && !only.includes(name)) continue;
  const labels = SET_LABELS[name];
  const gold = items.map((item) => item.label);
  const counts = Object.fromEntries(labels.map((l) => [l, gold.filter((g) => g === l).length]));
  const majorityLabel = labels.reduce((a, b) => (counts[b] > counts[a] ? b : a));
  console.log(`Verdicts, ${name} (${items.length} claims held apart from the calibration; gold ${JSON.stringify(counts)})`);
  const line = (what, pairs) => {
    const s = scores(pairs, labels);
    const predicted = Object.fromEntries(labels.map((l) => [l, pairs.filter(([, p]) => p === l).length]));
    console.log(`  ${what.padEnd(34)} accuracy ${fmt(s.accuracy)}, macro F1 ${fmt(s.macroF1)} (F1 ${labels.map((l, i) => `${l} ${fmt(s.f1s[i])}`).join(', ')}); predicted ${JSON.stringify(predicted)}`);
  };
  line(`majority class (${majorityLabel})`, gold.map((g) => [g, majorityLabel]));
  line('always NOT_ENOUGH_EVIDENCE', gold.map((g) => [g, verdictLabel('NOT_ENOUGH_EVIDENCE', name)]));
  for (const version of versions) {
    const scored = await scoreItems(fc, items, version, vectors);
    const d = fc.VERDICT_DEFAULTS[version];
    const thresholds = { decisive: d.decisiveProbability, partial: d.partialProbability, minVotes: d.minVotingPassages, refuteBelow: d.refuteVoteBelow, supportFrom: d.supportVoteFrom, minStance: d.minStanceProbability };
    line(`${version} thresholds (before issue 34)`, scored.map((r) => [r.label, verdictLabel(r.judged.length === 0 ? 'NOT_ENOUGH_EVIDENCE' : fc.decideVerdict(r.judged, thresholds).verdict, name)]));
    if (!fc.loadVerdictCalibration) continue;
    const calibration = fc.loadVerdictCalibration(version);
    const decisions = scored.map((r) => (r.judged.length === 0 ? undefined : fc.calibratedVerdict(r.judged, calibration)));
    line(`${version} calibrated${version === fc.DEFAULT_ENTAILMENT_MODEL ? ' (default)' : ''}`, scored.map((r, i) => [r.label, verdictLabel(decisions[i]?.verdict ?? 'NOT_ENOUGH_EVIDENCE', name)]));
    if (name === 'rte') continue;
    // Reliability of the calibrated probabilities on this held-apart set: the top class's probability against its hit rate.
    const classOf = { SUPPORTS: 0, REFUTES: 1, NOT_ENOUGH_INFO: 2, DISPUTED: 3 };
    const bins = Array.from({ length: 10 }, () => ({ n: 0, conf: 0, hit: 0 }));
    let blocked = 0;
    decisions.forEach((decision, i) => {
      if (!decision) return;
      if (decision.blocked) blocked++;
      const p = decision.probabilities;
      const top = p.indexOf(Math.max(...p));
      const bin = bins[Math.min(9, Math.floor(p[top] * 10))];
      bin.n++;
      bin.conf += p[top];
      bin.hit += top === classOf[scored[i].label] ? 1 : 0;
    });
    const n = bins.reduce((s, b) => s + b.n, 0);
    const ece = bins.reduce((s, b) => s + Math.abs(b.conf - b.hit), 0) / Math.max(1, n);
    console.log(`    calibration on the ${n} claims with evidence: ECE ${fmt(ece)} (top-class probability vs hit rate, 10 bins); verdicts decided by a resolver conflict (SUPPORTED turned down, or REFUTED under the minimum kept): ${blocked}`);
  }
}

// Retrieval: every evidence sentence of every claim in one store.
const big = new EvidenceStore();
for (const claim of claims) for (const e of claim.evidences) big.add({ url: `climate-fever:${claim.claim_id}:${e.evidence_id}`, title: e.article, text: e.evidence });
let withGold = 0;
let hit = 0;
let shareSum = 0;
for (const claim of claims) {
  const gold = new Set(claim.evidences.filter((e) => e.evidence_label !== 'NOT_ENOUGH_INFO').map((e) => `climate-fever:${claim.claim_id}:${e.evidence_id}`));
  if (gold.size === 0) continue;
  withGold++;
  const retrieved = new Set(big.search(claim.claim, 5).map((p) => p.url));
  const found = [...gold].filter((url) => retrieved.has(url)).length;
  if (found > 0) hit++;
  shareSum += found / gold.size;
}
console.log(`Evidence retrieval, BM25 over ${big.passageCount} passages (${big.documentCount} evidence sentences of all claims):`);
console.log(`  recall@5 (claims with >= 1 labelled evidence sentence retrieved) ${fmt(hit / withGold)} over ${withGold} claims; mean share of labelled sentences retrieved ${fmt(shareSum / withGold)}`);
console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
