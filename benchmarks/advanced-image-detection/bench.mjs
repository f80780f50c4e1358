// Whole advanced image detection (/v2/advanced-image-detection's analysis: metadata tool with the watermark decoder,
// AI-image classifier, the nine forensic kernels in a 2-thread pool and the fused map) on real camera photos of about
// 12 MP at their own resolution (`cameraPhotos12MP` in ../forensics/testImage.mjs: the shared datasets' two, and five
// more cameras when the digicam_corpus mirror is on the machine), a fresh photo per run (each row takes the photos in
// turn, the same number of runs of each), tinybench medians, all in one run:
// - anchor: sharp's full decode of the same JPEG to raw pixels (the floor any pixel analysis pays), timed first;
// - each part alone: metadata tool, classifier, forensic part (decode, kernels in the pool, fused map);
// - the engine's composition (analyzeImageAuthenticity), and the previous composition (metadata first, then
//   classifier and forensic part side by side) as a baseline; neither is timed first, and every row has had a full
//   warm-up round over all photos before any is timed.
// Prints the load average at start and end and each row's median as a ratio to the decode anchor's.
// Run: npm run build && nice -n 10 node benchmarks/advanced-image-detection/bench.mjs [rounds, default 3]
// (CONTENT_ANALYSIS_DATASETS: the shared datasets; DIGICAM_CORPUS_GIT: the digicam_corpus git directory, optional)
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { ADVANCED_KERNELS, analyzeImageAuthenticity } from '../../packages/engine/dist/index.js';
import { classifyImage } from '../../packages/classifiers/dist/index.js';
import { analyzeImage, ForensicsPool } from '../../packages/forensics/dist/index.js';
import { extractImageMetadata } from '../../packages/image-metadata/dist/index.js';
import { cameraPhotos12MP } from '../forensics/testImage.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const sharp = createRequire(join(root, 'packages/forensics/package.json'))('sharp');
const rounds = Number(process.argv[2] ?? 3);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

const photos = await cameraPhotos12MP(sharp);
if (photos.length === 0) {
  console.log('skipping: no camera photos (set CONTENT_ANALYSIS_DATASETS, and DIGICAM_CORPUS_GIT for more)');
  process.exit(0);
}
console.log(`${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), Node ${process.version}; load average (1/5/15 min) at start ${load()}`);
console.log(`inputs (${photos.length}, at their own resolution): ${photos.map((p) => `${p.name} ${p.width}x${p.height} (${(p.bytes.length / 1e6).toFixed(1)} MB)`).join(', ')}`);
console.log(`${rounds} round(s) of every photo per row after a warm-up round; medians`);


const pool = new ForensicsPool({ threads: 2 });
// The engine's own classifier (`classifyImage`: the process-wide default, one ONNX thread), as the endpoint runs it.
const classifier = { classify: classifyImage };
const metadataOptions = { maxBytes: 25 * 1024 * 1024 };
const forensicPart = async (bytes) => {
  const analysis = await analyzeImage(bytes, { kernels: ADVANCED_KERNELS, pool });
  return pool.fuseMaps(analysis.kernels, analysis.width, analysis.height);
};
const rows = [
  ['sharp decode (anchor)', (bytes) => sharp(bytes).raw().toBuffer()],
  ['metadata + watermark', (bytes) => extractImageMetadata(bytes, metadataOptions)],
  ['classifier', (bytes) => classifier.classify(bytes)],
  ['forensic part (decode, 9 kernels in pool, fused map)', forensicPart],
  ['whole (analyzeImageAuthenticity)', (bytes) => analyzeImageAuthenticity(bytes, { pool, classifier })],
  ['previous order (metadata, then classifier and forensic part)', async (bytes) => {
    await extractImageMetadata(bytes, metadataOptions);
    await Promise.all([forensicPart(bytes), classifier.classify(bytes)]);
  }],
];
// Warm-up: every row on every photo once (sessions, worker code and the pool's shared buffers).
for (const [, fn] of rows) for (const photo of photos) await fn(photo.bytes);
// Each round is a tinybench run of every row over every photo in turn (the anchor first, the whole after the parts);
// rounds follow each other, so every row sees the machine's load of every round. Medians over all rounds' runs, and
// the median over rounds of each round's ratio to that round's anchor (the load of a shared machine drifts within
// minutes: a ratio within one round is the comparable figure).
const samples = new Map(rows.map(([name]) => [name, []]));
const ratios = new Map(rows.map(([name]) => [name, []]));
for (let round = 0; round < rounds; round++) {
  const bench = new Bench({ time: 0, iterations: photos.length, warmup: false, retainSamples: true });
  for (const [name, fn] of rows) {
    let next = 0;
    bench.add(name, () => fn(photos[next++ % photos.length].bytes));
  }
  await bench.run();
  const medianOf = (task) => {
    if (task.result.state !== 'completed') throw new Error(`${task.name}: ${task.result.state} ${task.result.error ?? ''}`);
    samples.get(task.name).push(...task.result.latency.samples);
    return task.result.latency.p50;
  };
  const anchor = medianOf(bench.tasks[0]);
  ratios.get(bench.tasks[0].name).push(1);
  for (const task of bench.tasks.slice(1)) ratios.get(task.name).push(medianOf(task) / anchor);
}
const median = (values) => {
  const v = [...values].sort((a, b) => a - b), h = v.length >> 1;
  return v.length % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
};
console.log(`\n| ${photos.length} camera photos, ~12 MP | median ms | x decode anchor (median of ${rounds} rounds' ratios) |\n|---|---|---|`);
for (const [name] of rows) console.log(`| ${name} | ${median(samples.get(name)).toFixed(0)} | ${median(ratios.get(name)).toFixed(2)} |`);
console.log(`\nload average at end ${load()}`);
await pool.close();
