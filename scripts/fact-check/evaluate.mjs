// Evaluates @content-analysis/fact-check on CLIMATE-FEVER (../shared/datasets/factcheck/climate-fever):
// 1. verdicts given the gold evidence: each claim judged against its 5 evidence sentences (the store holds only
//    those), verdict mapped SUPPORTED -> SUPPORTS, REFUTED -> REFUTES, PARTIALLY_SUPPORTED -> DISPUTED,
//    NOT_ENOUGH_EVIDENCE -> NOT_ENOUGH_INFO; label accuracy and macro F1 over the 4 labels (and over 3 labels
//    without DISPUTED claims, for comparison with FEVER-style figures).
// 2. evidence retrieval: all evidence sentences of all claims in one store (one document per sentence, titled by its
//    article); recall@5 = share of claims with at least one SUPPORTS/REFUTES-labelled evidence sentence among the 5
//    passages retrieved, and the mean share of those sentences retrieved.
// Never trained on: CLIMATE-FEVER is used for evaluation only.
// Run: node scripts/fact-check/evaluate.mjs  (after `node_modules/.bin/tsc -b packages/fact-check`)
process.env.DOTENV_CONFIG_QUIET = 'true';
import { EvidenceStore, judgeClaim, loadWordVectors } from '../../packages/fact-check/dist/index.js';
import { climateFever, requireFactcheckRoot } from '../../packages/fact-check/training/datasets.mjs';

const root = requireFactcheckRoot();
const claims = climateFever(root);
const vectors = loadWordVectors();
const LABELS = ['SUPPORTS', 'REFUTES', 'NOT_ENOUGH_INFO', 'DISPUTED'];
const MAP = { SUPPORTED: 'SUPPORTS', REFUTED: 'REFUTES', PARTIALLY_SUPPORTED: 'DISPUTED', NOT_ENOUGH_EVIDENCE: 'NOT_ENOUGH_INFO' };
const started = Date.now();

const pairs = [];
for (const claim of claims) {
  const store = new EvidenceStore(claim.evidences.map((e) => ({ url: `climate-fever:${e.evidence_id}`, title: e.article, text: e.evidence })));
  const passages = store.search(claim.claim, 5);
  const judgement = await judgeClaim(claim.claim, passages, vectors);
  pairs.push([claim.claim_label, MAP[judgement.verdict]]);
}

function scores(rows, labels) {
  const accuracy = rows.filter(([g, p]) => g === p).length / rows.length;
  const f1s = labels.map((label) => {
    const tp = rows.filter(([g, p]) => g === label && p === label).length;
    const predicted = rows.filter(([, p]) => p === label).length;
    const gold = rows.filter(([g]) => g === label).length;
    const precision = predicted ? tp / predicted : 0;
    const recall = gold ? tp / gold : 0;
    return precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  });
  return { accuracy, macroF1: f1s.reduce((a, b) => a + b, 0) / f1s.length, f1s };
}

const fmt = (x) => x.toFixed(3);
const all = scores(pairs, LABELS);
const three = scores(pairs.filter(([g]) => g !== 'DISPUTED'), LABELS.slice(0, 3));
const counts = Object.fromEntries(LABELS.map((l) => [l, pairs.filter(([g]) => g === l).length]));
const predicted = Object.fromEntries(LABELS.map((l) => [l, pairs.filter(([, p]) => p === l).length]));
const majority = Math.max(...Object.values(counts)) / pairs.length;
console.log(`CLIMATE-FEVER verdicts given the gold evidence (${pairs.length} claims; gold ${JSON.stringify(counts)}; predicted ${JSON.stringify(predicted)})`);
console.log(`  4 labels: accuracy ${fmt(all.accuracy)}, macro F1 ${fmt(all.macroF1)} (per label ${LABELS.map((l, i) => `${l} ${fmt(all.f1s[i])}`).join(', ')}); majority-class accuracy ${fmt(majority)}`);
console.log(`  3 labels (DISPUTED claims left out): accuracy ${fmt(three.accuracy)}, macro F1 ${fmt(three.macroF1)}`);

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
