// Benchmark of @content-analysis/plagiarism: index build throughput, and the time to check a 1,000-word and a
// 20,000-word document against collections of 1,000, 10,000 and 100,000 documents, with memory, in one run.
// Build first: node_modules/.bin/tsc -b packages/plagiarism && node benchmarks/plagiarism/bench.mjs [--max 100000]
// Collections are synthetic (made-up words with Zipf-like frequencies, 200 words per document), generated
// deterministically; the checked documents contain passages copied (verbatim and with 20 % of the words replaced)
// from documents of the collection, so every check does real alignment work. The 20,000-word input (about
// 136,000 characters here) is over the v2 limit of 120,000 characters, so the checks lift the bounds (v1 allows
// 20,000 words).
process.env.DOTENV_CONFIG_QUIET ??= 'true';
import { Bench } from 'tinybench';
// --dist DIR benchmarks another build of the package (e.g. a copy of dist made before a change), for before/after
// runs in one session.
const DIST = process.argv.includes('--dist') ? (await import('node:path')).resolve(process.argv[process.argv.indexOf('--dist') + 1]) : new URL('../../packages/plagiarism/dist', import.meta.url).pathname;
const { SourceIndex, checkPlagiarism } = await import(`${DIST}/index.js`);
console.log(`build: ${DIST}`);

const MAX = process.argv.includes('--max') ? Number(process.argv[process.argv.indexOf('--max') + 1]) : 100_000;
const SIZES = [1_000, 10_000, 100_000].filter((n) => n <= MAX);
const WORDS_PER_DOC = 200;

function mulberry32(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rng = mulberry32(42);
const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'da', 'pe', 'zu', 'ho', 'gri', 'ben', 'tor', 'an', 'el', 'is', 'or', 'um', 'que', 'sto', 'mar', 'fel'];
const vocabulary = [...new Set(Array.from({ length: 30_000 }, () => Array.from({ length: 2 + Math.floor(rng() * 3) }, () => syllables[Math.floor(rng() * syllables.length)]).join('')))];
const stop = ['the', 'of', 'and', 'to', 'in', 'a', 'is', 'that', 'for', 'it'];
// Zipf-like draw: rank ~ exp(uniform * ln(V)).
const word = () => (rng() < 0.3 ? stop[Math.floor(rng() * stop.length)] : vocabulary[Math.floor(Math.exp(rng() * Math.log(vocabulary.length))) - 1]);
function sentence() {
  const n = 8 + Math.floor(rng() * 14);
  const w = Array.from({ length: n }, word);
  w[0] = w[0][0].toUpperCase() + w[0].slice(1);
  return w.join(' ') + '.';
}
function makeDocument(i) {
  let text = '';
  while (text.split(' ').length < WORDS_PER_DOC) text += (text ? ' ' : '') + sentence();
  return { url: `https://synthetic.example/doc-${i}`, title: `doc ${i}`, text };
}

const documents = Array.from({ length: Math.max(...SIZES) }, (_, i) => makeDocument(i));

/** An input of `words` words: fresh sentences, with one passage of ~60 words from a collection document every 300 words. */
function makeInput(words, collectionSize) {
  const parts = [];
  let count = 0;
  while (count < words) {
    if (parts.length % 12 === 5) {
      const doc = documents[Math.floor(rng() * collectionSize)];
      const w = doc.text.split(' ').slice(20, 80).map((x) => (rng() < 0.2 ? word() : x));
      parts.push(w.join(' ') + '.');
      count += w.length;
    } else {
      const s = sentence();
      parts.push(s);
      count += s.split(' ').length;
    }
  }
  return parts.join(' ');
}

const mb = (bytes) => `${(bytes / 1048576).toFixed(0)} MB`;

// Index build throughput.
const buildBench = new Bench({ iterations: 3, warmupIterations: 1, time: 0 });
buildBench.add('index 1,000 documents (200 words each), in memory', () => {
  const index = SourceIndex.open();
  index.addMany(documents.slice(0, 1_000));
  index.close();
});
await buildBench.run();
const buildTask = buildBench.tasks[0].result;
const buildMs = buildTask.latency.mean;
console.log(`index build: ${buildMs.toFixed(0)} ms per 1,000 documents = ${(1_000_000 / buildMs).toFixed(0)} documents/s, ${((1_000 * WORDS_PER_DOC * 1000) / buildMs / 1000).toFixed(0)}k words/s\n`);

const rows = [];
const index = SourceIndex.open();
let indexed = 0;
for (const size of SIZES) {
  const t0 = performance.now();
  index.addMany(documents.slice(indexed, size));
  const addMs = performance.now() - t0;
  indexed = size;
  globalThis.gc?.();
  const memory = process.memoryUsage();
  const inputs = { '1,000 words': makeInput(1_000, size), '20,000 words': makeInput(20_000, size) };
  const bench = new Bench({ iterations: 5, warmupIterations: 1, time: 0 });
  const found = {};
  for (const [name, text] of Object.entries(inputs)) {
    bench.add(name, async () => {
      const result = await checkPlagiarism(text, { index, language: 'en', bounds: { min: 0, max: 1e9 } });
      found[name] = result.result.score;
    });
  }
  await bench.run();
  for (const task of bench.tasks) {
    if (task.result.state !== undefined && task.result.state !== "completed") { console.log(task.name, task.result.state, task.result.error); continue; }
    rows.push({
      collection: size.toLocaleString('en'), input: task.name, 'mean ms': task.result.latency.mean.toFixed(1),
      'p99 ms': task.result.latency.p99.toFixed(1), 'score found': found[task.name], 'added docs in': `${(addMs / 1000).toFixed(1)} s`,
      heap: mb(memory.heapUsed), rss: mb(memory.rss),
    });
  }
}
console.table(rows);
console.log(`node ${process.version}, ${(await import('node:os')).cpus().length} cores; heap/rss measured after indexing each collection`);
