// Plugged models (issue 31): load time and memory of a plugged model, its scoring speed, and the default path (the
// bundled detectors, no `version: custom:…`) with and without plugged models loaded, against a baseline checkout's
// engine in the same run when one is given.
//
// Models: the test folders of scripts/custom-model/testModels.mjs (a few KB), and with --base-size a synthetic text
// classifier of RoBERTa-base's size (124 M parameters, 497 MB float32: a 50,265 x 768 embedding, 12 blocks of the
// same matrix shapes as a base transformer's attention projections and feed-forward layers, mean pooling, 2 logits),
// with random weights: it costs what a base-size model costs to load, hold and run per token (no attention scores).
//
// Inputs: real prose (1,000 and 10,000 characters of the human texts of the shared AI-text sets, XSum BBC news;
// benchmarks/lib/realInputs.mjs) and a real camera photo (the ImageNet jeep, 1280 x 960), from
// CONTENT_ANALYSIS_DATASETS; without the datasets, the benchmarks' prose and the demo fixture photo.
// Anchor, in the same run: the onnxruntime session alone (a session of the same model file, same options, one
// thread), run on the input the plugged model feeds it, prepared beforehand: the text tokenized by the model's own
// tokenizer into windows of its length, in batches of 8; the image resized to 224 x 224 and normalised. Our figures
// (tinybench medians) are printed as ratios to it: what the plugged model adds to its own inference (tokenizing,
// windows, sentence scores, the result).
// Usage: node_modules/.bin/tsc -b tsconfig.json && CONTENT_ANALYSIS_DATASETS=../shared/datasets node --expose-gc benchmarks/custom-models/bench.mjs
//          [--base-size] [--plugged-only] [--baseline /path/to/other/checkout (built)]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Bench } from 'tinybench';
import { CustomModels, encodeOnnxModel, ONNX_INT64 } from '../../packages/classifiers/dist/index.js';
import { Engine } from '../../packages/engine/dist/index.js';
import { seededWeights, writeImageModel, writeTextModel } from '../../scripts/custom-model/testModels.mjs';
import { onnxRuntime } from '../../packages/onnx/dist/index.js';
import { proseOf } from '../lib/prose.mjs';
import { cameraPhotos, datasetsRoot, humanProse, machineLine } from '../lib/realInputs.mjs';

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

console.log(`custom models benchmark; ${machineLine()}`);
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
const real = datasetsRoot() !== undefined;
const text1k = real ? humanProse(1_000) : proseOf(1_000);
const text10k = real ? humanProse(10_000) : proseOf(10_000);
const photo = cameraPhotos(['jeep'])[0];
const image = photo?.bytes ?? readFileSync(new URL('../../fixtures/demo/evening-harbour.jpg', import.meta.url));
console.log(`inputs: ${real ? 'human prose of the shared AI-text sets (XSum BBC news)' : 'the benchmarks\' prose (datasets absent)'}, ` +
  `${photo ? photo.name : 'fixtures/demo/evening-harbour.jpg'}`);
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
// The anchors: each model's onnxruntime session alone, on the input its plugged model feeds it, prepared beforehand.
const ort = onnxRuntime();
const classifiersRequire = createRequire(new URL('../../packages/classifiers/package.json', import.meta.url));
const { Tokenizer } = classifiersRequire('@huggingface/tokenizers');
const sessionOptions = { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' };
const sessions = [];
async function textSessionAlone(folder, text) {
  const session = await ort.InferenceSession.create(join(folder, 'onnx/model.onnx'), sessionOptions);
  sessions.push(session);
  const config = JSON.parse(readFileSync(join(folder, 'tokenizer_config.json'), 'utf8'));
  const tokenizer = new Tokenizer(JSON.parse(readFileSync(join(folder, 'tokenizer.json'), 'utf8')), config);
  const window = (config.model_max_length ?? 512) - 2;
  const ids = tokenizer.encode(text, { add_special_tokens: false }).ids;
  const [prefix, suffix] = [tokenizer.encode('a', { add_special_tokens: true }).ids, tokenizer.encode('a', { add_special_tokens: false }).ids];
  const head = prefix.slice(0, prefix.indexOf(suffix[0]));
  const tail = prefix.slice(prefix.indexOf(suffix[0]) + suffix.length);
  const windows = [];
  for (let from = 0; from < ids.length; from += window) windows.push([...head, ...ids.slice(from, from + window), ...tail]);
  const feedsList = [];
  for (let from = 0; from < windows.length; from += 8) {
    const batch = windows.slice(from, from + 8);
    const width = Math.max(...batch.map((w) => w.length));
    const feeds = {};
    for (const input of session.inputNames) {
      const data = new BigInt64Array(batch.length * width);
      batch.forEach((w, row) => { for (let t = 0; t < width; t++) data[row * width + t] = BigInt(input === 'input_ids' ? (w[t] ?? 0) : input === 'attention_mask' ? (t < w.length ? 1 : 0) : 0); });
      feeds[input] = new ort.Tensor('int64', data, [batch.length, width]);
    }
    feedsList.push(feeds);
  }
  return { tokens: ids.length, windows: windows.length, run: async () => { for (const feeds of feedsList) await session.run(feeds); } };
}
const anchors = {};
const textAnchor1k = await textSessionAlone(folders['test-text'], text1k);
const textAnchor10k = await textSessionAlone(folders['test-text'], text10k);
anchors['custom:test-text 1k chars, sentences on'] = 'session test-text 1k';
anchors['custom:test-text 10k chars, sentences on'] = 'session test-text 10k';
bench.add('session test-text 1k', textAnchor1k.run);
bench.add('session test-text 10k', textAnchor10k.run);
{
  const session = await ort.InferenceSession.create(join(folders['test-image'], 'model.onnx'), sessionOptions);
  sessions.push(session);
  const { data } = await classifiersRequire('sharp')(image).resize(224, 224, { fit: 'fill' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const planar = new Float32Array(3 * 224 * 224);
  for (let i = 0; i < 224 * 224; i++) for (let c = 0; c < 3; c++) planar[c * 224 * 224 + i] = (data[i * 3 + c] / 255 - 0.5) / 0.5;
  const feeds = { [session.inputNames[0]]: new ort.Tensor('float32', planar, [1, 3, 224, 224]) };
  bench.add('session test-image', () => session.run(feeds));
  anchors['custom:test-image'] = 'session test-image';
}
if (baseSize) {
  const base = await textSessionAlone(folders['base-text'], text1k);
  bench.add('session base-size 1k', base.run);
  anchors['base-size model 1k chars, sentences off'] = 'session base-size 1k';
  anchors['base-size model 1k chars, sentences on'] = 'session base-size 1k';
}
console.log(`anchor inputs: test-text ${textAnchor1k.tokens} / ${textAnchor10k.tokens} tokens in ${textAnchor1k.windows} / ${textAnchor10k.windows} windows (1k / 10k characters)`);
// Tasks run one after another (tinybench); on a shared machine, rerun before reading a few per cent as a difference.
await bench.run();
for (const task of bench.tasks) if (task.result.state !== 'completed') throw new Error(`${task.name}: ${task.result.state} ${task.result.error ?? ''}`);
const latencyOf = (name) => bench.tasks.find((t) => t.name === name).result.latency;
console.log(`\nplugged models (tinybench), median and p99 per call; one onnxruntime thread per call; anchor: the same model's onnxruntime session alone on the input it is fed`);
console.log('| task | median ms | p99 ms | samples | anchor: session alone, median ms | x anchor |');
console.log('|---|---|---|---|---|---|');
for (const [name, anchorName] of Object.entries(anchors)) {
  const l = latencyOf(name);
  const a = latencyOf(anchorName).p50;
  console.log(`| ${name} | ${l.p50.toFixed(2)} | ${l.p99.toFixed(2)} | ${l.samplesCount ?? l.samples?.length ?? ''} | ${a.toFixed(2)} | ${(l.p50 / a).toFixed(1)} |`);
}
console.log(`at the end: ${machineLine()}`);
for (const session of sessions) await session.release();
await all.release();
for (const m of Object.values(models)) await m.release();
rmSync(dir, { recursive: true, force: true });
