// Plugged models (issue 31): load time and memory of a plugged model, its scoring speed, and the default path (the
// bundled detectors, no `version: custom:…`) with and without plugged models loaded, against a baseline checkout's
// engine in the same run when one is given.
//
// Models: the test folders of scripts/custom-model/testModels.mjs (a few KB), and with --base-size a synthetic text
// classifier of RoBERTa-base's size (124 M parameters, 497 MB float32: a 50,265 x 768 embedding, 12 blocks of the
// same matrix shapes as a base transformer's attention projections and feed-forward layers, mean pooling, 2 logits),
// with random weights: it costs what a base-size model costs to load, hold and run per token (no attention scores).
//
// Usage: node_modules/.bin/tsc -b tsconfig.json && node --expose-gc benchmarks/custom-models/bench.mjs
//          [--base-size] [--plugged-only] [--baseline /path/to/other/checkout (built)]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Bench } from 'tinybench';
import { CustomModels, encodeOnnxModel, ONNX_INT64 } from '../../packages/classifiers/dist/index.js';
import { Engine } from '../../packages/engine/dist/index.js';
import { seededWeights, writeImageModel, writeTextModel } from '../../scripts/custom-model/testModels.mjs';
import { proseOf } from '../lib/prose.mjs';

const args = process.argv.slice(2);
const baseSize = args.includes('--base-size');
/** `--plugged-only` skips the default-path comparison (part 2). */
const pluggedOnly = args.includes('--plugged-only');
const baselineAt = args.indexOf('--baseline');
const baseline = baselineAt === -1 ? undefined : resolve(args[baselineAt + 1]);
const dir = mkdtempSync(join(tmpdir(), 'custom-bench-'));
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

/** The synthetic base-size text classifier (see the header), written as onnx/model.onnx of a test text folder. */
function writeBaseSizeModel(folder) {
  writeTextModel(folder, { onnx: { vocabulary: 50_265 } });
  const d = 768;
  const ff = 3072;
  const init = [];
  const nodes = [];
  let seed = 1;
  const weight = (name, dims) => {
    const data = seededWeights(dims.reduce((a, b) => a * b), seed++);
    const scale = 1 / Math.sqrt(dims[0]);
    for (let i = 0; i < data.length; i++) data[i] *= scale;
    init.push({ name, dims, data });
    return name;
  };
  nodes.push({ op: 'Gather', inputs: [weight('embedding', [50_265, d]), 'input_ids'], outputs: ['h0'], attributes: { axis: 0 } });
  let h = 'h0';
  for (let layer = 0; layer < 12; layer++) {
    const p = `l${layer}`;
    // Four d x d projections (the attention's q, k, v and output shapes), then the d -> 4d -> d feed-forward.
    let x = h;
    for (const proj of ['q', 'k', 'v', 'o']) {
      nodes.push({ op: 'MatMul', inputs: [x, weight(`${p}${proj}`, [d, d])], outputs: [`${p}${proj}y`] });
      x = `${p}${proj}y`;
    }
    nodes.push({ op: 'Add', inputs: [h, x], outputs: [`${p}a`] });
    nodes.push({ op: 'MatMul', inputs: [`${p}a`, weight(`${p}f1`, [d, ff])], outputs: [`${p}f1y`] });
    nodes.push({ op: 'Relu', inputs: [`${p}f1y`], outputs: [`${p}r`] });
    nodes.push({ op: 'MatMul', inputs: [`${p}r`, weight(`${p}f2`, [ff, d])], outputs: [`${p}f2y`] });
    nodes.push({ op: 'Add', inputs: [`${p}a`, `${p}f2y`], outputs: [`${p}out`] });
    h = `${p}out`;
  }
  init.push({ name: 'axis2', dims: [1], data: BigInt64Array.from([2n]) }, { name: 'axis1', dims: [1], data: BigInt64Array.from([1n]) });
  nodes.push(
    { op: 'Cast', inputs: ['attention_mask'], outputs: ['maskf'], attributes: { to: 1 } },
    { op: 'Unsqueeze', inputs: ['maskf', 'axis2'], outputs: ['mask3'] },
    { op: 'Mul', inputs: [h, 'mask3'], outputs: ['masked'] },
    { op: 'ReduceSum', inputs: ['masked', 'axis1'], outputs: ['sum'], attributes: { keepdims: 0 } },
    { op: 'ReduceSum', inputs: ['maskf', 'axis1'], outputs: ['count'], attributes: { keepdims: 1 } },
    { op: 'Div', inputs: ['sum', 'count'], outputs: ['pooled'] },
    { op: 'MatMul', inputs: ['pooled', weight('head', [d, 2])], outputs: ['logits'] },
  );
  const bytes = encodeOnnxModel({
    name: 'base-size-proxy', opset: 13, nodes, initializers: init,
    inputs: ['input_ids', 'attention_mask'].map((name) => ({ name, shape: ['batch', 'sequence'], elemType: ONNX_INT64 })),
    outputs: [{ name: 'logits', shape: ['batch', 2] }],
  });
  writeFileSync(join(folder, 'onnx/model.onnx'), bytes);
  return bytes.byteLength;
}

// ---- 1. Load time and memory ----
const folders = { 'test-text': join(dir, 'text'), 'test-image': join(dir, 'image') };
writeTextModel(folders['test-text']);
writeImageModel(folders['test-image']);
if (baseSize) {
  folders['base-text'] = join(dir, 'base');
  const bytes = writeBaseSizeModel(folders['base-text']);
  console.log(`synthetic base-size text model: ${mb(bytes)} ONNX`);
}
globalThis.gc?.();
const models = {};
console.log('plugged model'.padEnd(14), 'load s'.padStart(8), 'rss after load'.padStart(16), 'heap'.padStart(8));
for (const [name, folder] of Object.entries(folders)) {
  globalThis.gc?.();
  const before = process.memoryUsage();
  const started = performance.now();
  models[name] = await CustomModels.load({ [name]: folder }, { batchSize: 8 });
  const seconds = (performance.now() - started) / 1000;
  globalThis.gc?.();
  const after = process.memoryUsage();
  console.log(name.padEnd(14), seconds.toFixed(2).padStart(8), `+${mb(after.rss - before.rss)}`.padStart(16), `+${mb(after.heapUsed - before.heapUsed)}`.padStart(8));
}

// ---- 2. Scoring speed of the plugged models, and the default path with and without them ----
const text1k = proseOf(1_000);
const text10k = proseOf(10_000);
const image = readFileSync(new URL('../../fixtures/demo/evening-harbour.jpg', import.meta.url));
const all = await CustomModels.load(Object.entries(folders).filter(([n]) => n !== 'base-text'));
const plain = new Engine({ analysis: { mode: 'thread' } });
const plugged = new Engine({ analysis: { mode: 'thread' }, customModels: all });
const engines = [['this checkout, no plugged model', plain], ['this checkout, models plugged', plugged]];
if (baseline !== undefined) {
  const { Engine: BaselineEngine } = await import(join(baseline, 'packages/engine/dist/index.js'));
  engines.unshift([`baseline ${baseline}`, new BaselineEngine({ analysis: { mode: 'thread' } })]);
}
// The default path, interleaved: each round calls every engine once, in an order that rotates, so that the load of a
// shared machine falls on all of them alike; the medians and the per-round ratios to the first engine are compared,
// in wall time and in this process's CPU time (user + system, all its threads), which other processes disturb less.
const defaultTasks = [
  ['default ai-text 1k chars', (engine) => engine.run('ai-content-detection', { text: text1k }), 100],
  ['default ai-text 10k chars', (engine) => engine.run('ai-content-detection', { text: text10k }), 60],
  ['default image v5', (engine) => engine.run('image-detection', { image: image.toString('base64') }), 20],
];
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
console.log(`\ndefault path (no version: custom:...), interleaved rounds; median wall ms and CPU ms per call, each with the median over rounds of its ratio to ${engines[0][0]}`);
for (const [task, call, rounds] of pluggedOnly ? [] : defaultTasks) {
  for (const [, engine] of engines) await call(engine); // warm-up: models loaded
  const wall = engines.map(() => []);
  const cpu = engines.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < engines.length; k++) {
      const e = (k + round) % engines.length;
      const cpuStart = process.cpuUsage();
      const started = performance.now();
      await call(engines[e][1]);
      wall[e].push(performance.now() - started);
      const used = process.cpuUsage(cpuStart);
      cpu[e].push((used.user + used.system) / 1000);
    }
  }
  engines.forEach(([name], e) => {
    const ratio = (samples) => `x${median(samples[e].map((v, r) => v / samples[0][r])).toFixed(3)}`.padStart(8);
    console.log(`${task} | ${name}`.padEnd(72), `wall ${median(wall[e]).toFixed(2).padStart(8)} ${ratio(wall)}`,
      `  cpu ${median(cpu[e]).toFixed(2).padStart(8)} ${ratio(cpu)}`, `(${rounds} rounds)`);
  });
}

const bench = new Bench({ time: 2000, iterations: 5, warmupIterations: 1 });
bench.add('custom:test-text 1k chars, sentences on', () => plugged.run('ai-content-detection', { text: text1k, version: 'custom:test-text' }));
bench.add('custom:test-text 10k chars, sentences on', () => plugged.run('ai-content-detection', { text: text10k, version: 'custom:test-text' }));
bench.add('custom:test-image', () => plugged.run('image-detection', { image: image.toString('base64'), version: 'custom:test-image' }));
if (baseSize) {
  const base = models['base-text'].text('custom:base-text');
  bench.add('base-size model 1k chars, sentences off', () => base.detect(text1k, { sentences: false }));
  bench.add('base-size model 1k chars, sentences on', () => base.detect(text1k, { sentences: true }));
}
// Tasks run one after another (tinybench); on a shared machine, rerun before reading a few per cent as a difference.
await bench.run();
console.log(`\nplugged models (tinybench), Node ${process.version}; mean and p99 per call; one onnxruntime thread per call`);
console.log('task'.padEnd(62), 'mean ms'.padStart(9), 'p99 ms'.padStart(9), 'samples'.padStart(8));
for (const task of bench.tasks) {
  if (task.result.state !== 'completed') throw new Error(`${task.name}: ${task.result.state} ${task.result.error ?? ''}`);
  const latency = task.result.latency ?? task.result;
  console.log(task.name.padEnd(62), latency.mean.toFixed(2).padStart(9), (latency.p99 ?? NaN).toFixed(2).padStart(9), String(latency.samples?.length ?? task.result.samples?.length ?? '').padStart(8));
}
await all.release();
for (const m of Object.values(models)) await m.release();
rmSync(dir, { recursive: true, force: true });
