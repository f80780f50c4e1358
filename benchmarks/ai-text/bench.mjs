// Characters per second of the AI-text detector on one core, for 1k, 10k and 150k-character texts, with sentence
// scores on and off, against the ONNX call alone (the same model on one feature vector) measured in the same run.
// The bench prose repeats (numbered parts), which LZ77 parses in long matches; when the shared datasets are present,
// a 150k text of varied prose (human documents of the test split, joined) is timed as well.
// The models run on the ONNX runtime @content-analysis/onnx picks (CONTENT_ANALYSIS_ONNX_RUNTIME=node|web forces one);
// --compare-runtimes [--rounds N] runs this bench under each in fresh processes, alternating node and web N times (3
// by default, so that a change of load falls on both), and prints each task's median of the rounds side by side with
// the ratio web / node and the load average before and after.
// Usage: node_modules/.bin/tsc -b packages/classifiers && node --expose-gc benchmarks/ai-text/bench.mjs [--version 1.2.0] [--compare-runtimes]
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { createAiTextDetector, loadModel } from '../../packages/classifiers/dist/index.js';
import { onnxRuntimeName } from '../../packages/onnx/dist/index.js';
import { datasetsRoot, loadRows } from '../../packages/classifiers/training/datasets.mjs';
import { proseOf } from '../lib/prose.mjs';

const textOf = proseOf;

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
    tasks: list[0].tasks.map((task, i) => ({ ...task, mean: median(list.map((r) => r.tasks[i].mean)) })),
  }]));
  console.log(`detector ${runs.node.version}, Node ${process.version}, onnxruntime threads 1, median of ${rounds} alternating rounds; ` +
    `load average ${loadBefore} before, ${load()} after`);
  console.log(`load: node ${runs.node.loadMs.toFixed(0)} ms, web ${runs.web.loadMs.toFixed(0)} ms`);
  console.log('task'.padEnd(40), 'node ms'.padStart(10), 'node chars/s'.padStart(13), 'web ms'.padStart(10), 'web chars/s'.padStart(12), 'web / node'.padStart(11));
  runs.node.tasks.forEach((task, i) => {
    const web = runs.web.tasks[i];
    const rate = (mean) => (task.size ? Math.round(task.size / (mean / 1000)).toLocaleString('en') : '-');
    console.log(task.name.padEnd(40), task.mean.toFixed(3).padStart(10), rate(task.mean).padStart(13), web.mean.toFixed(3).padStart(10), rate(web.mean).padStart(12), (web.mean / task.mean).toFixed(2).padStart(11));
  });
  process.exit(0);
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
const bench = new Bench({ time: 1500, warmupTime: 300 });
bench.add('onnx call alone (1 row)', async () => {
  await model.run(vector, 1);
});
const texts = [1_000, 10_000, 150_000].map((size) => [`${size} chars`, textOf(size)]);
const root = datasetsRoot();
if (root === undefined) {
  console.log('datasets not found (CONTENT_ANALYSIS_DATASETS): timing the bench prose only');
} else {
  const human = loadRows(root).filter((r) => r.split === 'test' && r.label === 0 && r.language === 'en').map((r) => r.text);
  texts.push(['150000 chars varied', human.join('\n\n').slice(0, 150_000)]);
}
for (const [name, text] of texts) {
  for (const sentences of [false, true]) {
    bench.add(`${name}, sentences ${sentences ? 'on' : 'off'}`, async () => {
      await detector.detect(text, { sentences, language: 'en' });
    });
  }
}
await bench.run();
const onnx = bench.tasks[0].result;
const meanOf = (task) => task.result.latency?.mean ?? task.result.mean;
if (process.argv.includes('--json')) {
  const tasks = bench.tasks.map((task) => ({ name: task.name, size: Number(task.name.split(' ')[0]) || 0, mean: meanOf(task) }));
  console.log(JSON.stringify({ version: detector.version, runtime: onnxRuntimeName(), loadMs, tasks }));
  process.exit(0);
}
console.log(`detector ${detector.version}, Node ${process.version}, onnxruntime-${onnxRuntimeName()}, threads 1; load average ${load()}`);
console.log(`load ${loadMs.toFixed(0)} ms; memory after load: rss +${mb(after.rss - before.rss)}, heap +${mb(after.heapUsed - before.heapUsed)}, ` +
  `array buffers +${mb(after.arrayBuffers - before.arrayBuffers)}${globalThis.gc ? '' : ' (run with --expose-gc for steadier figures)'}`);
console.log('task'.padEnd(40), 'mean ms'.padStart(10), 'chars/s'.padStart(12), 'x onnx call'.padStart(12));
for (const task of bench.tasks) {
  const size = Number(task.name.split(' ')[0]) || 0;
  const mean = task.result.latency?.mean ?? task.result.mean;
  const onnxMean = onnx.latency?.mean ?? onnx.mean;
  console.log(
    task.name.padEnd(40), mean.toFixed(3).padStart(10),
    (size ? Math.round(size / (mean / 1000)).toLocaleString('en') : '-').padStart(12),
    (mean / onnxMean).toFixed(1).padStart(12),
  );
}
