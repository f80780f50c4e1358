// Speed of a fact check on one core: a 12-claim text against a 10,000-passage evidence store, entailment 2.0 (neural)
// against 1.x (alignment-feature MLP) in the same run, plus the verdict step alone (judgeClaims: alignment and model,
// no retrieval). Load time and memory of the 2.0 model are measured first, before anything else loads it.
// The store holds FEVER and CLIMATE-FEVER evidence when the shared datasets are present (the text's claims are 12
// CLIMATE-FEVER claims, whose evidence is in the store), else numbered bench prose.
// Usage: node_modules/.bin/tsc -b packages/fact-check && taskset -c 0 node --expose-gc benchmarks/fact-check/bench.mjs
process.env.DOTENV_CONFIG_QUIET = 'true';
import { Bench } from 'tinybench';
import {
  checkFacts, EvidenceStore, findCheckableClaims, gatherClaimEvidence, judgeClaims, loadModel, loadNeuralEntailment, loadWordVectors,
} from '../../packages/fact-check/dist/index.js';
import { climateFever, factcheckRoot } from '../../packages/fact-check/training/datasets.mjs';
import { proseOf } from '../lib/prose.mjs';

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

const bench = new Bench({ time: 3000, warmupIterations: 2, iterations: 8 });
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
const baseline = bench.tasks[0].result.latency.mean;
console.log('task'.padEnd(36), 'mean ms'.padStart(10), 'p99 ms'.padStart(10), 'x 1.x checkFacts'.padStart(18));
for (const task of bench.tasks) {
  const r = task.result;
  if (r.state !== 'completed') throw new Error(`${task.name}: ${r.state} ${r.error ?? ''}`);
  console.log(task.name.padEnd(36), r.latency.mean.toFixed(1).padStart(10), r.latency.p99.toFixed(1).padStart(10), (r.latency.mean / baseline).toFixed(2).padStart(18));
}
