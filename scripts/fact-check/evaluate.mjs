// Evaluates @content-analysis/fact-check's entailment models, 2.0 (neural) and 1.x (alignment-feature MLP), on splits
// neither was trained on (../shared/datasets/factcheck):
// 1. SNLI test (9,824 pairs): 3-way accuracy (argmax), beside the majority class.
// 2. FEVER gold evidence, test split by claim (hash(claim) % 5 == 0, as in training): SUPPORTS vs REFUTES accuracy,
//    p(entailment) > p(contradiction), beside the majority class.
// 3. CLIMATE-FEVER claim-level verdicts given the gold evidence: each claim judged against its 5 evidence sentences
//    (the store holds only those), verdict mapped SUPPORTED -> SUPPORTS, REFUTED -> REFUTES, PARTIALLY_SUPPORTED ->
//    DISPUTED, NOT_ENOUGH_EVIDENCE -> NOT_ENOUGH_INFO; accuracy, macro F1 and per-label F1 over the 4 labels on the
//    test split (612 claims; the dev split's 156 claims chose only the thresholds), beside the majority class.
// 4. Evidence retrieval: all evidence sentences of all claims in one store; recall@5.
// Neither model ever sees CLIMATE-FEVER in training.
// Run: node scripts/fact-check/evaluate.mjs  (after `node_modules/.bin/tsc -b packages/fact-check`; ~3 min)
// FACT_CHECK_DIST=<path to another build's dist/index.js> evaluates that build instead (1.x only for old builds).
process.env.DOTENV_CONFIG_QUIET = 'true';
const fc = await import(process.env.FACT_CHECK_DIST ?? '../../packages/fact-check/dist/index.js');
import { climateFever, climateFeverSplit, requireFactcheckRoot } from '../../packages/fact-check/training/datasets.mjs';
import { argmax, pairProbabilities, testPairs } from './pairAccuracy.mjs';
import { LABELS, MAP, scores } from './verdictScores.mjs';

const { EvidenceStore, judgeClaim, loadWordVectors } = fc;
const root = requireFactcheckRoot();
const vectors = loadWordVectors();
const started = Date.now();
const versions = fc.loadNeuralEntailment ? ['2.0', '1.x'] : ['1.x'];
const fmt = (x) => x.toFixed(3);
const majorityOf = (labels) => Math.max(...[...new Set(labels)].map((l) => labels.filter((x) => x === l).length)) / labels.length;

const { snli, fever } = testPairs(root);
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

const claims = climateFever(root);
function report(name, rows) {
  const all = scores(rows, LABELS);
  const three = scores(rows.filter(([g]) => g !== 'DISPUTED'), LABELS.slice(0, 3));
  const predicted = Object.fromEntries(LABELS.map((l) => [l, rows.filter(([, p]) => p === l).length]));
  console.log(`  ${name}: accuracy ${fmt(all.accuracy)}, macro F1 ${fmt(all.macroF1)} (per label ${LABELS.map((l, i) => `${l} ${fmt(all.f1s[i])}`).join(', ')}); predicted ${JSON.stringify(predicted)}`);
  console.log(`    3 labels (DISPUTED claims left out): accuracy ${fmt(three.accuracy)}, macro F1 ${fmt(three.macroF1)}`);
  console.log(`    confusion (rows gold, columns predicted ${LABELS.join(' / ')}):`);
  for (const gold of LABELS) console.log(`      ${gold.padEnd(16)}${LABELS.map((p) => String(rows.filter(([g, q]) => g === gold && q === p).length).padStart(6)).join('')}`);
}
for (const [splitName, keep] of [['test split', (s) => s === 'test'], ['all claims (dev split included)', () => true]]) {
  const chosen = claims.filter((c) => keep(climateFeverSplit(c)));
  const gold = chosen.map((c) => c.claim_label);
  const counts = Object.fromEntries(LABELS.map((l) => [l, gold.filter((g) => g === l).length]));
  const majority = scores(gold.map((g) => [g, 'SUPPORTS']), LABELS);
  console.log(`CLIMATE-FEVER verdicts given the gold evidence, ${splitName} (${chosen.length} claims; gold ${JSON.stringify(counts)})`);
  console.log(`  majority class (SUPPORTS): accuracy ${fmt(majority.accuracy)}, macro F1 ${fmt(majority.macroF1)}`);
  for (const version of versions) {
    const rows = [];
    for (const claim of chosen) {
      const store = new EvidenceStore(claim.evidences.map((e) => ({ url: `climate-fever:${e.evidence_id}`, title: e.article, text: e.evidence })));
      const judgement = await judgeClaim(claim.claim, store.search(claim.claim, 5), vectors, fc.loadNeuralEntailment ? { entailmentModel: version } : {});
      rows.push([claim.claim_label, MAP[judgement.verdict]]);
    }
    report(version, rows);
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
