// Speed of a fact check on one core: a 12-claim text against a 10,000-passage evidence store, entailment 2.0 (neural)
// against 1.x (alignment-feature MLP) in the same run, plus the verdict step alone (judgeClaims: alignment and model,
// no retrieval). Load time and memory of the 2.0 model are measured first, before anything else loads it.
// The store holds FEVER and CLIMATE-FEVER evidence when the shared datasets are present (the text's claims are 12
// CLIMATE-FEVER claims, whose evidence is in the store), else numbered bench prose.
// Anchor, in the same run: the entailment 2.0 model alone (`loadNeuralEntailment().run`, the ONNX session with its
// input tensors) on exactly the claim / passage pairs judgeClaims scores with 2.0, prepared beforehand (tokens and
// alignment features), one call per claim as judgeClaims makes them: the floor of a 2.0 verdict. The figures are
// tinybench medians, each with its ratio to that anchor; the machine's load is printed at the start and the end.
// Usage: node_modules/.bin/tsc -b packages/fact-check &&
//   CONTENT_ANALYSIS_DATASETS=../shared/datasets taskset -c 0 node --expose-gc benchmarks/fact-check/bench.mjs
process.env.DOTENV_CONFIG_QUIET = 'true';
import { Bench } from 'tinybench';
import {
  alignPair, checkFacts, entailmentFeatures, entailmentTokens, EvidenceStore, findCheckableClaims, gatherClaimEvidence, judgeClaims, loadModel,
  loadNeuralEntailment, loadWordVectors, scorePassages,
} from '../../packages/fact-check/dist/index.js';
import { climateFever, factcheckRoot } from '../../packages/fact-check/training/datasets.mjs';
import { proseOf } from '../lib/prose.mjs';
import { machineLine } from '../lib/realInputs.mjs';

console.log(`fact-check benchmark; ${machineLine()}`);

const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const measureLoad = async (load) => {
  globalThis.gc?.();
  const before = process.memoryUsage();
  const started = performance.now();
  await load();
  const ms = performance.now() - started;
  globalThis.gc?.();
  const after = process.memoryUsage();
  return `${ms.toFixed(0)} ms, rss +${mb(after.rss - before.rss)}, heap +${mb(after.heapUsed - before.heapUsed)}`;
};
const vectorsLoad = await measureLoad(() => loadWordVectors());
const neuralLoad = await measureLoad(() => loadNeuralEntailment());
const mlpLoad = await measureLoad(() => loadModel('entailment'));

const PASSAGES = 10_000;
const store = new EvidenceStore();
let text;
const root = factcheckRoot();
if (root) {
  const all = climateFever(root);
  // The first CLIMATE-FEVER claims that make 12 check-worthy claims (a claim may be a repeat or too short).
  const claims = [];
  for (const claim of all) {
    if (claims.length > 0 && (await findCheckableClaims([...claims, claim].map((c) => c.claim.replace(/[.!?]*$/, '.')).join(' '), { minCheckWorthiness: 0 })).claims.length <= claims.length) continue;
    claims.push(claim);
    if (claims.length === 12) break;
  }
  text = claims.map((c) => c.claim.replace(/[.!?]*$/, '.')).join(' ');
  // Evidence of every CLIMATE-FEVER claim, then FEVER evidence and SNLI premises up to 10,000 passages.
  for (const claim of all) for (const e of claim.evidences) store.add({ url: `cf:${claim.claim_id}:${e.evidence_id}`, title: e.article, text: e.evidence });
  const { nliPairs } = await import('../../packages/fact-check/training/datasets.mjs');
  const pairs = nliPairs(root);
  const fill = [...new Set([...pairs.filter((p) => p.source === 'fever'), ...pairs.filter((p) => p.source === 'snli')].map((p) => p.premise))];
  for (const [i, evidence] of fill.entries()) {
    if (store.passageCount >= PASSAGES) break;
    store.add({ url: `fill:${i}`, title: '', text: evidence.split(' . ').slice(0, 3).join('. ') });
  }
} else {
  console.log('datasets not found (CONTENT_ANALYSIS_DATASETS): store and text from bench prose');
  const prose = proseOf(4_000_000).split(/(?<=\.) /);
  for (let i = 0; store.passageCount < PASSAGES && i < prose.length; i++) store.add({ url: `p:${i}`, title: '', text: prose[i] });
  text = prose.slice(0, 12).join(' ');
}
const options = { store, language: 'en', minCheckWorthiness: 0 };
const found = await findCheckableClaims(text, options);
const gathered = await gatherClaimEvidence(found, { store });
const verdicts = {};
for (const entailmentModel of ['2.0', '1.x']) verdicts[entailmentModel] = (await checkFacts(text, { ...options, entailmentModel })).claims.map((c) => c.verdict);

// The anchor's input: the pairs judgeClaims scores with 2.0 (scorePassages keeps the relevant passages), prepared.
const vectors = loadWordVectors();
const neural = await loadNeuralEntailment();
const anchorBatches = [];
for (const claim of gathered.claims) {
  const { judged } = await scorePassages(claim.claim, claim.passages, vectors, { entailmentModel: '2.0', language: gathered.language });
  if (judged.length === 0) continue;
  const claimTokens = entailmentTokens(claim.claim, vectors);
  anchorBatches.push(judged.map(({ passage }) => ({
    claimTokens, evidenceTokens: entailmentTokens(passage.text, vectors), features: entailmentFeatures(alignPair(claim.claim, passage.text, vectors, gathered.language)),
  })));
}
const anchorName = 'anchor: entailment 2.0 model alone';

const bench = new Bench({ time: 3000, warmupIterations: 2, iterations: 8 });
bench.add(anchorName, async () => {
  for (const pairs of anchorBatches) await neural.run(pairs, vectors);
});
for (const entailmentModel of ['1.x', '2.0']) {
  bench.add(`checkFacts, entailment ${entailmentModel}`, async () => {
    await checkFacts(text, { ...options, entailmentModel });
  });
  bench.add(`judgeClaims only, entailment ${entailmentModel}`, async () => {
    await judgeClaims(gathered, { entailmentModel });
  });
}
await bench.run();
console.log(`Node ${process.version}, onnxruntime threads 1; store ${store.passageCount} passages (${store.documentCount} documents); ` +
  `${found.claims.length} claims, ${gathered.claims.reduce((n, c) => n + c.passages.length, 0)} retrieved passages`);
console.log(`load: word vectors ${vectorsLoad}; entailment 2.0 model ${neuralLoad}; entailment 1.x model ${mlpLoad}` +
  `${globalThis.gc ? '' : ' (run with --expose-gc for steadier figures)'}`);
for (const [m, v] of Object.entries(verdicts)) console.log(`verdicts ${m}: ${v.join(', ')}`);
console.log(`anchor input: ${anchorBatches.reduce((n, b) => n + b.length, 0)} claim / passage pairs in ${anchorBatches.length} calls (the pairs judgeClaims scores with 2.0)`);
for (const task of bench.tasks) if (task.result.state !== 'completed') throw new Error(`${task.name}: ${task.result.state} ${task.result.error ?? ''}`);
const medianOf = (name) => bench.tasks.find((t) => t.name === name).result.latency.p50;
const anchor = medianOf(anchorName);
const mlp = medianOf('checkFacts, entailment 1.x');
console.log('| task | median ms | p99 ms | x anchor | x 1.x checkFacts |');
console.log('|---|---|---|---|---|');
for (const task of bench.tasks) {
  const { p50, p99 } = task.result.latency;
  console.log(`| ${task.name} | ${p50.toFixed(1)} | ${p99.toFixed(1)} | ${(p50 / anchor).toFixed(2)} | ${(p50 / mlp).toFixed(2)} |`);
}
console.log(`at the end: ${machineLine()}`);
