// Evaluates @content-analysis/fact-check on CLIMATE-FEVER (../shared/datasets/factcheck/climate-fever):
// 1. verdicts given the gold evidence: each claim judged against its 5 evidence sentences (the store holds only
//    those), verdict mapped SUPPORTED -> SUPPORTS, REFUTED -> REFUTES, PARTIALLY_SUPPORTED -> DISPUTED,
//    NOT_ENOUGH_EVIDENCE -> NOT_ENOUGH_INFO; label accuracy and macro F1 over the 4 labels (and over 3 labels
//    without DISPUTED claims, for comparison with FEVER-style figures).
// 2. evidence retrieval: all evidence sentences of all claims in one store (one document per sentence, titled by its
//    article); recall@5 = share of claims with at least one SUPPORTS/REFUTES-labelled evidence sentence among the 5
//    passages retrieved, and the mean share of those sentences retrieved.
// Never trained on: the entailment model never sees CLIMATE-FEVER; only the thresholds come from its dev split.
// Run: node scripts/fact-check/evaluate.mjs  (after `node_modules/.bin/tsc -b packages/fact-check`)
process.env.DOTENV_CONFIG_QUIET = 'true';
// FACT_CHECK_DIST=<path to another build's dist/index.js> evaluates that build instead (before/after comparisons).
const { EvidenceStore, judgeClaim, loadWordVectors } = await import(process.env.FACT_CHECK_DIST ?? '../../packages/fact-check/dist/index.js');
import { climateFever, climateFeverSplit, requireFactcheckRoot } from '../../packages/fact-check/training/datasets.mjs';
import { LABELS, MAP, scores } from './verdictScores.mjs';

const root = requireFactcheckRoot();
const claims = climateFever(root);
const vectors = loadWordVectors();
const started = Date.now();

const pairs = [];
for (const claim of claims) {
  const store = new EvidenceStore(claim.evidences.map((e) => ({ url: `climate-fever:${e.evidence_id}`, title: e.article, text: e.evidence })));
  const passages = store.search(claim.claim, 5);
  const judgement = await judgeClaim(claim.claim, passages, vectors);
  pairs.push([claim.claim_label, MAP[judgement.verdict], climateFeverSplit(claim)]);
}

const fmt = (x) => x.toFixed(3);
function report(name, rows) {
  const all = scores(rows, LABELS);
  const three = scores(rows.filter(([g]) => g !== 'DISPUTED'), LABELS.slice(0, 3));
  const counts = Object.fromEntries(LABELS.map((l) => [l, rows.filter(([g]) => g === l).length]));
  const predicted = Object.fromEntries(LABELS.map((l) => [l, rows.filter(([, p]) => p === l).length]));
  const majority = Math.max(...Object.values(counts)) / rows.length;
  console.log(`CLIMATE-FEVER verdicts given the gold evidence, ${name} (${rows.length} claims; gold ${JSON.stringify(counts)}; predicted ${JSON.stringify(predicted)})`);
  console.log(`  4 labels: accuracy ${fmt(all.accuracy)}, macro F1 ${fmt(all.macroF1)} (per label ${LABELS.map((l, i) => `${l} ${fmt(all.f1s[i])}`).join(', ')}); majority-class accuracy ${fmt(majority)}`);
  console.log(`  3 labels (DISPUTED claims left out): accuracy ${fmt(three.accuracy)}, macro F1 ${fmt(three.macroF1)}`);
  console.log(`  confusion (rows gold, columns predicted ${LABELS.join(' / ')}):`);
  for (const gold of LABELS) console.log(`    ${gold.padEnd(16)}${LABELS.map((p) => String(rows.filter(([g, q]) => g === gold && q === p).length).padStart(6)).join('')}`);
}
report('test split', pairs.filter(([, , split]) => split === 'test'));
report('all claims (dev split included)', pairs);

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
