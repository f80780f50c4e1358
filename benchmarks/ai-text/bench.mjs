// Characters per second of the AI-text detector on one core, for 1k, 10k and 150k characters of real varied prose
// (distinct human texts of the shared AI-text sets joined, benchmarks/lib/prose.mjs), sentence scores on and off,
// against two anchors measured in the same run: the ONNX call alone (the same model on one feature vector) and a
// compression scorer in the manner of ZipPy (deflate of an AI-written prelude followed by each 1,500-character chunk
// of the text, ratio against the prelude alone). Medians of tinybench; the load average is printed.
// The models run on the ONNX runtime @content-analysis/onnx picks (CONTENT_ANALYSIS_ONNX_RUNTIME=node|web forces one);
// --compare-runtimes [--rounds N] runs this bench under each in fresh processes, alternating node and web N times (3
// by default, so that a change of load falls on both), and prints each task's median of the rounds side by side with
// the ratio web / node and the load average before and after.
// Usage: node_modules/.bin/tsc -b packages/classifiers && taskset -c 0 node --expose-gc benchmarks/ai-text/bench.mjs [--version 1.2.0] [--compare-runtimes]
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { createAiTextDetector, loadModel } from '../../packages/classifiers/dist/index.js';
import { onnxRuntimeName } from '../../packages/onnx/dist/index.js';
import { deflateRawSync } from 'node:zlib';
import { humanDocuments, proseDatasetsRoot, realProse } from '../lib/prose.mjs';

if (proseDatasetsRoot() === undefined) {
  console.error('the shared datasets were not found (CONTENT_ANALYSIS_DATASETS): this bench times real prose only');
  process.exit(1);
}

const versionAt = process.argv.indexOf('--version');
const version = versionAt === -1 ? undefined : process.argv[versionAt + 1];
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

if (process.argv.includes('--compare-runtimes')) {
  const loadBefore = load();
  const roundsAt = process.argv.indexOf('--rounds');
  const rounds = roundsAt === -1 ? 3 : Number(process.argv[roundsAt + 1]);
  const results = { node: [], web: [] };
  for (let round = 0; round < rounds; round++) {
    for (const runtime of ['node', 'web']) {
      const argv = [...process.execArgv, fileURLToPath(import.meta.url), ...(version ? ['--version', version] : []), '--json'];
      const child = spawnSync(process.execPath, argv, { env: { ...process.env, CONTENT_ANALYSIS_ONNX_RUNTIME: runtime }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
      if (child.status !== 0) throw new Error(`the ${runtime} run failed (exit ${child.status})`);
      const result = JSON.parse(child.stdout.trim().split('\n').at(-1));
      if (result.runtime !== runtime) throw new Error(`asked for ${runtime}, ran on ${result.runtime}`);
      results[runtime].push(result);
    }
  }
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const runs = Object.fromEntries(Object.entries(results).map(([runtime, list]) => [runtime, {
    version: list[0].version,
    loadMs: median(list.map((r) => r.loadMs)),
    tasks: list[0].tasks.map((task, i) => ({ ...task, median: median(list.map((r) => r.tasks[i].median)) })),
  }]));
  console.log(`detector ${runs.node.version}, Node ${process.version}, onnxruntime threads 1, median of ${rounds} alternating rounds; ` +
    `load average ${loadBefore} before, ${load()} after`);
  console.log(`load: node ${runs.node.loadMs.toFixed(0)} ms, web ${runs.web.loadMs.toFixed(0)} ms`);
  console.log('task'.padEnd(44), 'node ms'.padStart(10), 'node chars/s'.padStart(13), 'web ms'.padStart(10), 'web chars/s'.padStart(12), 'web / node'.padStart(11));
  runs.node.tasks.forEach((task, i) => {
    const web = runs.web.tasks[i];
    const rate = (ms) => (task.size ? Math.round(task.size / (ms / 1000)).toLocaleString('en') : '-');
    console.log(task.name.padEnd(44), task.median.toFixed(3).padStart(10), rate(task.median).padStart(13), web.median.toFixed(3).padStart(10), rate(web.median).padStart(12), (web.median / task.median).toFixed(2).padStart(11));
  });
  process.exit(0);
}
/**
 * The compression anchor, in the manner of ZipPy (Thinkst Applied Research, 2023): a text is scored by how much
 * better it compresses after a prelude of AI-written text than the prelude alone does, chunk by chunk. Here:
 * raw deflate level 9 (Node's zlib), a prelude of about 10,000 characters of AI-labelled text of the shared sets,
 * chunks of 1,500 characters. Returns the mean of (prelude ratio - ratio with the chunk) over the chunks.
 */
function zippyStyle(prelude, preludeRatio) {
  return (text) => {
    let sum = 0;
    let chunks = 0;
    for (let at = 0; at < text.length; at += 1_500) {
      const sample = Buffer.from(prelude + text.slice(at, at + 1_500));
      sum += preludeRatio - deflateRawSync(sample, { level: 9 }).length / sample.length;
      chunks++;
    }
    return sum / chunks;
  };
}

// Load time and memory of the detector (model, resources, weight tables), measured before anything else runs.
globalThis.gc?.();
const before = process.memoryUsage();
const loadStarted = performance.now();
const detector = await createAiTextDetector({ threads: 1, ...(version ? { version } : {}) });
const loadMs = performance.now() - loadStarted;
globalThis.gc?.();
const after = process.memoryUsage();
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const model = await loadModel('ai-text', { threads: 1, version: detector.version });
const width = model.card.feature_names.length;
const vector = new Float32Array(width).fill(1);
const loadAtStart = load();
const bench = new Bench({ time: 1500, warmupTime: 300 });
bench.add('onnx call alone (1 row)', async () => {
  await model.run(vector, 1);
});
// Real prose: 1k, 10k and 150k characters of distinct human texts, each size from different documents.
const texts = [];
let offset = 0;
for (const size of [1_000, 10_000, 150_000]) {
  const { texts: [text], next } = realProse(size, { offset });
  offset = next;
  texts.push([`${size} chars`, JSON.parse(JSON.stringify(text))]);
}
// The anchor's prelude: AI-written text of the shared sets (the AI halves, not the human texts timed).
const { readFileSync } = await import('node:fs');
const { join } = await import('node:path');
const aiRows = readFileSync(join(proseDatasetsRoot(), 'aitext/hc3plus_si/val_hc3_si_en.jsonl'), 'utf8').split('\n')
  .filter((line) => line.trim() !== '').map((line) => JSON.parse(line)).filter((row) => row.label === 'ai');
let prelude = '';
for (const row of aiRows) {
  if (prelude.length >= 10_000) break;
  prelude += `${row.text.trim()}\n`;
}
const preludeBytes = Buffer.from(prelude);
const zippy = zippyStyle(prelude, deflateRawSync(preludeBytes, { level: 9 }).length / preludeBytes.length);
for (const [name, text] of texts) {
  for (const sentences of [false, true]) {
    bench.add(`${name}, sentences ${sentences ? 'on' : 'off'}`, async () => {
      await detector.detect(text, { sentences, language: 'en' });
    });
  }
  bench.add(`${name}, ZipPy-style deflate anchor`, () => {
    zippy(text);
  });
}
await bench.run();
// The same scorer with LZMA, ZipPy's default engine, in Python's lzma module (Node has no LZMA): median of runs
// timed inside one python3 process, started after the tinybench tasks.
const LZMA_SCRIPT = `
import json, lzma, sys, time
data = json.load(sys.stdin)
prelude = data['prelude'].encode()
prelude_ratio = len(lzma.compress(prelude)) / len(prelude)
def score(text):
    total, chunks = 0.0, 0
    for at in range(0, len(text), 1500):
        sample = prelude + text[at:at + 1500].encode()
        total += prelude_ratio - len(lzma.compress(sample)) / len(sample)
        chunks += 1
    return total / chunks
out = {}
for name, text in data['texts']:
    times = []
    deadline = time.perf_counter() + 1.5
    while len(times) < 5 or (time.perf_counter() < deadline and len(times) < 50):
        started = time.perf_counter()
        score(text)
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    out[name] = times[len(times) // 2]
print(json.dumps(out))
`;
const python = process.env.PYTHON ?? 'python3';
const lzmaRun = spawnSync(python, ['-c', LZMA_SCRIPT], { input: JSON.stringify({ prelude, texts }), encoding: 'utf8', env: { ...process.env, OMP_NUM_THREADS: '1' } });
const lzmaMedians = lzmaRun.status === 0 ? JSON.parse(lzmaRun.stdout.trim()) : undefined;
if (lzmaMedians === undefined) console.log(`(the LZMA anchor did not run: ${python} ${lzmaRun.error?.message ?? lzmaRun.stderr?.trim().split('\n').at(-1)})`);
const medianOf = (task) => task.result.latency?.p50 ?? task.result.p50;
const onnxMedian = medianOf(bench.tasks[0]);
if (process.argv.includes('--json')) {
  const tasks = bench.tasks.map((task) => ({ name: task.name, size: Number(task.name.split(' ')[0]) || 0, median: medianOf(task) }));
  console.log(JSON.stringify({ version: detector.version, runtime: onnxRuntimeName(), loadMs, tasks }));
  process.exit(0);
}
console.log(`detector ${detector.version}, Node ${process.version}, onnxruntime-${onnxRuntimeName()}, threads 1; load average ${loadAtStart} at the start, ${load()} at the end`);
console.log(`texts: ${offset} of the ${humanDocuments().length} distinct human texts of the shared AI-text sets (benchmarks/lib/prose.mjs), each size from different documents; anchor prelude ${prelude.length} characters of hc3plus_si AI text`);
console.log(`load ${loadMs.toFixed(0)} ms; memory after load: rss +${mb(after.rss - before.rss)}, heap +${mb(after.heapUsed - before.heapUsed)}, ` +
  `array buffers +${mb(after.arrayBuffers - before.arrayBuffers)}${globalThis.gc ? '' : ' (run with --expose-gc for steadier figures)'}`);
console.log('task'.padEnd(44), 'median ms'.padStart(10), 'chars/s'.padStart(12), 'x onnx call'.padStart(12), 'deflate / this'.padStart(15), 'LZMA / this'.padStart(12));
const rows = bench.tasks.map((task) => ({ name: task.name, median: medianOf(task) }));
for (const [name] of texts) if (lzmaMedians?.[name] !== undefined) rows.push({ name: `${name}, ZipPy-style LZMA anchor (python3)`, median: lzmaMedians[name] });
const deflateOf = Object.fromEntries(rows.filter((r) => r.name.includes('deflate')).map((r) => [r.name.split(',')[0], r.median]));
for (const { name, median } of rows) {
  const size = Number(name.split(' ')[0]) || 0;
  const text = name.split(',')[0];
  const ours = !name.includes('ZipPy') && size > 0;
  const lzma = lzmaMedians?.[text];
  console.log(
    name.padEnd(44), median.toFixed(3).padStart(10),
    (size ? Math.round(size / (median / 1000)).toLocaleString('en') : '-').padStart(12),
    (median / onnxMedian).toFixed(1).padStart(12),
    (ours ? (deflateOf[text] / median).toFixed(1) : '-').padStart(15),
    (ours && lzma !== undefined ? (lzma / median).toFixed(1) : '-').padStart(12),
  );
}
