// Benchmark of @content-analysis/plagiarism against a plain word 5-gram baseline in the same run: index build
// throughput, and the time to check a 1,000-word and a 20,000-word input against collections of real prose, with
// the copied sources each found and memory. tinybench medians.
//
// Inputs (default): the distinct human texts of the shared AI-text sets (benchmarks/lib/realInputs.mjs: BBC news,
// Reddit stories, Wikipedia / SQuAD paragraphs, arXiv, WikiHow, PubMed; 1,474 texts), each text one document. Every
// seventh text is kept out of the collection and makes the inputs' own prose; every 300 words an input carries a passage of
// about 60 words copied from a collection document with 20 % of its words replaced by words of other texts, so every
// check does real alignment work and the copied documents are known. Collections: the first 1,000 documents, then
// all the others (1,263). A check reports at most 20 sources (maxCandidates), so the 20,000-word input, whose
// passages come from about 56 documents, can name at most 20 of them. The 20,000-word input (about 120,000 characters) is over the v2 limit, so the
// checks lift the bounds (v1 allows 20,000 words).
// `--synthetic` uses made-up words with Zipf-like frequencies instead (200 words per document), to reach collections
// of 10,000 and 100,000 documents the real texts do not fill.
//
// The baseline (the classic shingling approach, Broder 1997): lower-cased words (\p{L}\p{N} runs), every word 5-gram
// of every document in a Map from the 5-gram to its documents; a check looks up every 5-gram of the input and
// reports the documents that share at least 3 of them. It finds verbatim reuse only (no stems, synonyms, passages
// or scores); its figures are the floor of looking a text's n-grams up, ours are printed as ratios to it.
//
// Build first: node_modules/.bin/tsc -b packages/plagiarism &&
//   CONTENT_ANALYSIS_DATASETS=../shared/datasets node --expose-gc benchmarks/plagiarism/bench.mjs
//   [--max N] [--synthetic] [--dist DIR] [--iterations N]
process.env.DOTENV_CONFIG_QUIET ??= 'true';
import { Bench } from 'tinybench';
import { humanTexts, machineLine } from '../lib/realInputs.mjs';
import { mulberry32 } from '../../scripts/plagiarism/corpus.mjs';

// --dist DIR benchmarks another build of the package (e.g. a copy of dist made before a change), for before/after
// runs in one session.
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const DIST = args.includes('--dist') ? (await import('node:path')).resolve(option('--dist')) : new URL('../../packages/plagiarism/dist', import.meta.url).pathname;
const { SourceIndex, checkPlagiarism } = await import(`${DIST}/index.js`);
const MAX = Number(option('--max', 100_000));
const ITERATIONS = Number(option('--iterations', 5));

const rng = mulberry32(42);

let documents;
let freshSentences; // sentences of prose not in the collection
let word; // a replacement word
let SIZES;
let inputsAre;
const texts = args.includes('--synthetic') ? [] : humanTexts();
if (texts.length > 0) {
  const heldOut = texts.filter((_, i) => i % 7 === 3);
  documents = texts.filter((_, i) => i % 7 !== 3).map((t, i) => ({ url: `https://${t.domain}.example/doc-${i}`, title: `${t.domain} ${i}`, text: t.text }));
  const sentences = heldOut.flatMap((t) => t.text.split(/(?<=[.!?])\s+/)).filter((s) => s.split(' ').length >= 4);
  let next = 0;
  freshSentences = () => sentences[next++ % sentences.length];
  const vocabulary = [...new Set(heldOut.flatMap((t) => t.text.match(/\p{L}+/gu) ?? []))];
  word = () => vocabulary[Math.floor(rng() * vocabulary.length)];
  SIZES = [1_000, documents.length].filter((n) => n <= MAX);
  inputsAre = `real prose: ${documents.length} human texts of the shared AI-text sets as documents (${(documents.reduce((n, d) => n + d.text.split(/\s+/).length, 0) / documents.length).toFixed(0)} words on average), ${heldOut.length} more held out for the inputs' own prose`;
} else {
  if (!args.includes('--synthetic')) console.log('human texts not found (CONTENT_ANALYSIS_DATASETS): synthetic collections');
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'da', 'pe', 'zu', 'ho', 'gri', 'ben', 'tor', 'an', 'el', 'is', 'or', 'um', 'que', 'sto', 'mar', 'fel'];
  const vocabulary = [...new Set(Array.from({ length: 30_000 }, () => Array.from({ length: 2 + Math.floor(rng() * 3) }, () => syllables[Math.floor(rng() * syllables.length)]).join('')))];
  const stop = ['the', 'of', 'and', 'to', 'in', 'a', 'is', 'that', 'for', 'it'];
  // Zipf-like draw: rank ~ exp(uniform * ln(V)).
  word = () => (rng() < 0.3 ? stop[Math.floor(rng() * stop.length)] : vocabulary[Math.floor(Math.exp(rng() * Math.log(vocabulary.length))) - 1]);
  freshSentences = () => {
    const w = Array.from({ length: 8 + Math.floor(rng() * 14) }, word);
    w[0] = w[0][0].toUpperCase() + w[0].slice(1);
    return w.join(' ') + '.';
  };
  SIZES = [1_000, 10_000, 100_000].filter((n) => n <= MAX);
  documents = Array.from({ length: Math.max(...SIZES) }, (_, i) => {
    let text = '';
    while (text.split(' ').length < 200) text += (text ? ' ' : '') + freshSentences();
    return { url: `https://synthetic.example/doc-${i}`, title: `doc ${i}`, text };
  });
  inputsAre = 'synthetic: made-up words with Zipf-like frequencies, 200 words per document';
}

/** An input of `words` words: fresh prose, with a passage of ~60 words from a collection document every 300 words. */
function makeInput(words, collectionSize) {
  const parts = [];
  const copied = new Set();
  let count = 0;
  while (count < words) {
    if (parts.length % 12 === 5) {
      let doc;
      do doc = documents[Math.floor(rng() * collectionSize)]; while (doc.text.split(' ').length < 90);
      copied.add(doc.url);
      const w = doc.text.split(/\s+/).slice(20, 80).map((x) => (rng() < 0.2 ? word() : x));
      parts.push(w.join(' '));
      count += w.length;
    } else {
      const s = freshSentences();
      parts.push(s);
      count += s.split(' ').length;
    }
  }
  return { text: parts.join(' '), copied };
}

// ---- The baseline: word 5-gram shingles in a Map ----
const N = 5;
const shingles = (text) => {
  const w = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const out = [];
  for (let i = 0; i + N <= w.length; i++) out.push(w.slice(i, i + N).join(' '));
  return out;
};
class NgramIndex {
  postings = new Map();
  urls = [];
  addMany(docs) {
    for (const doc of docs) {
      const id = this.urls.push(doc.url) - 1;
      for (const s of new Set(shingles(doc.text))) {
        const list = this.postings.get(s);
        if (list === undefined) this.postings.set(s, [id]);
        else list.push(id);
      }
    }
  }
  check(text) {
    const hits = new Map();
    for (const s of new Set(shingles(text))) for (const id of this.postings.get(s) ?? []) hits.set(id, (hits.get(id) ?? 0) + 1);
    return [...hits].filter(([, n]) => n >= 3).map(([id]) => this.urls[id]);
  }
}

const mb = (bytes) => `${(bytes / 1048576).toFixed(0)} MB`;
console.log(`plagiarism benchmark; ${machineLine()}; build ${DIST}`);
console.log(`inputs: ${inputsAre}`);

// Index build throughput, ours and the baseline's, on the first 1,000 documents.
const buildBench = new Bench({ iterations: 3, warmupIterations: 1, time: 0, warmupTime: 0 });
buildBench.add('ours', () => {
  const index = SourceIndex.open();
  index.addMany(documents.slice(0, 1_000));
  index.close();
});
buildBench.add('baseline', () => new NgramIndex().addMany(documents.slice(0, 1_000)));
await buildBench.run();
const words1k = documents.slice(0, 1_000).reduce((n, d) => n + d.text.split(/\s+/).length, 0);
const [oursBuild, baseBuild] = buildBench.tasks.map((t) => t.result.latency.p50);
console.log(`index build, 1,000 documents (${words1k.toLocaleString('en')} words), median of 3: ours ${oursBuild.toFixed(0)} ms = ` +
  `${(1e6 / oursBuild).toFixed(0)} documents/s, ${(words1k / oursBuild).toFixed(0)}k words/s; 5-gram anchor ${baseBuild.toFixed(0)} ms; ` +
  `ours / anchor ${(oursBuild / baseBuild).toFixed(2)}x\n`);

const rows = [];
const index = SourceIndex.open();
const baseline = new NgramIndex();
let indexed = 0;
for (const size of SIZES) {
  const t0 = performance.now();
  index.addMany(documents.slice(indexed, size));
  const addMs = performance.now() - t0;
  baseline.addMany(documents.slice(indexed, size));
  indexed = size;
  globalThis.gc?.();
  const memory = process.memoryUsage();
  const inputs = { '1,000 words': makeInput(1_000, size), '20,000 words': makeInput(20_000, size) };
  const bench = new Bench({ iterations: ITERATIONS, warmupIterations: 1, time: 0, warmupTime: 0 });
  const found = {};
  for (const [name, { text }] of Object.entries(inputs)) {
    bench.add(`ours ${name}`, async () => {
      const result = await checkPlagiarism(text, { index, language: 'en', bounds: { min: 0, max: 1e9 } });
      found[`ours ${name}`] = { score: result.result.score, urls: result.sources.map((s) => s.url) };
    });
    bench.add(`baseline ${name}`, () => { found[`baseline ${name}`] = { urls: baseline.check(text) }; });
  }
  await bench.run();
  const median = (name) => {
    const task = bench.tasks.find((t) => t.name === name);
    if (task.result.state !== 'completed') throw new Error(`${name}: ${task.result.state} ${task.result.error ?? ''}`);
    return task.result.latency.p50;
  };
  for (const [name, { copied }] of Object.entries(inputs)) {
    const recall = (key) => `${found[key].urls.filter((u) => copied.has(u)).length} of ${copied.size} (${found[key].urls.length} reported)`;
    rows.push(`| ${size.toLocaleString('en')} | ${name} | ${median(`ours ${name}`).toFixed(1)} | ${median(`baseline ${name}`).toFixed(2)} | ` +
      `${(median(`ours ${name}`) / median(`baseline ${name}`)).toFixed(0)}x | ${found[`ours ${name}`].score} | ${recall(`ours ${name}`)} | ${recall(`baseline ${name}`)} | ` +
      `${(addMs / 1000).toFixed(1)} s | ${mb(memory.heapUsed)} / ${mb(memory.rss)} |`);
  }
}
console.log(`checks, median of ${ITERATIONS} after 1 warm-up; copied documents found (each input's copied passages come from that many documents):`);
console.log('| collection | input | ours ms | 5-gram anchor ms | ours / anchor | score | copied found, ours | copied found, anchor | documents added in | heap / rss (both indexes) |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
console.log(`at the end: ${machineLine()}`);
