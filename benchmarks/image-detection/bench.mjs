// Image detection benchmark on real camera photos at their own resolution (benchmarks/lib/realInputs.mjs: 1.2 to
// 17.9 MP JPEGs of the shared datasets, none resized or re-encoded), all in one run, tinybench medians:
// - end to end per photo, as /v2/image-detection composes it (the engine's detectAiImage: header checks, then the
//   metadata / exif / c2pa objects with the invisible-watermark decoder beside the AI-image classifier, default
//   version 5), and its two parts alone (extractImageMetadata; classifier.classify);
// - the anchor, measured in the same run on the same bytes: sharp decoding the photo and reducing it (Lanczos 3) to
//   a shorter side of 512 px, the first step of the classifier's view (packages/classifiers/src/aiImage/prepare.ts)
//   and the floor any classification of the photo pays; our figures are printed as ratios to it. sharp's full
//   decode (no resize) is printed beside it;
// - the classifier alone, per installed version, on the 12 MP phone photo and on a 256 x 256 PNG crop of it;
// - the default version's load in a fresh process (its first classification) and the resident memory it adds;
// - nsfwjs's MobileNetV2 in TensorFlow.js (CPU backend, pure JavaScript) against our version 2 classification
//   (decode, view, the same backbone in ONNX, probe), the npm way of running that network.
// Run: node_modules/.bin/tsc -b tsconfig.json && CONTENT_ANALYSIS_DATASETS=../shared/datasets node benchmarks/image-detection/bench.mjs
//      [--iterations N] [--time MS] [--photos jeep,Truepic] [--no-versions] [--no-tfjs]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AI_IMAGE_VERSIONS, DEFAULT_AI_IMAGE_VERSION, aiImageModelDir, createAiImageClassifier, readTfjsModel,
} from '../../packages/classifiers/dist/index.js';
import { detectAiImage } from '../../packages/engine/dist/index.js';
import { extractImageMetadata } from '../../packages/image-metadata/dist/index.js';
import { cameraPhotos, machineLine, medians, projectRoot } from '../lib/realInputs.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const run = { iterations: Number(option('--iterations', 10)), time: Number(option('--time', 1000)), warmupIterations: 2 };
const requireFromClassifiers = createRequire(join(projectRoot, 'packages/classifiers/package.json'));
const sharp = requireFromClassifiers('sharp');
const photos = cameraPhotos(option('--photos', undefined)?.split(','));
if (photos.length === 0) {
  console.log('camera photos not found: set CONTENT_ANALYSIS_DATASETS to the shared datasets folder. Nothing measured.');
  process.exit(0);
}
const ms = (v) => v.toFixed(1);
const VERSION = DEFAULT_AI_IMAGE_VERSION;

if (args.includes('--load-probe')) {
  // Child mode: the first and second classification of a 256 x 256 crop by a fresh classifier, and the RSS it added.
  const crop = await sharp(photos[0].bytes).extract({ left: 0, top: 0, width: 256, height: 256 }).png().toBuffer();
  const before = process.memoryUsage().rss;
  const fresh = createAiImageClassifier({ threads: 2 });
  let started = performance.now();
  await fresh.classify(crop, { version: VERSION });
  const first = performance.now() - started;
  started = performance.now();
  await fresh.classify(crop, { version: VERSION });
  const second = performance.now() - started;
  console.log(JSON.stringify({ first, second, rssMiB: (process.memoryUsage().rss - before) / 2 ** 20 }));
  process.exit(0);
}

console.log(`image detection benchmark; ${machineLine()}; tinybench medians of >= ${run.iterations} runs and >= ${run.time} ms per task`);
const classifier = createAiImageClassifier({ threads: 2 });
await classifier.classify(photos[0].bytes, { version: VERSION }); // the session is built once, before timing

const anchor = (bytes) => sharp(bytes).rotate().resize({ width: 512, height: 512, fit: 'outside', withoutEnlargement: true, kernel: 'lanczos3' }).raw().toBuffer();
console.log(`\nend to end (detectAiImage, version ${VERSION}) per photo, against sharp decode + reduce to 512 px of the same bytes (the anchor):`);
console.log('| photo | MP | end to end ms | metadata + watermark ms | classifier ms | anchor: sharp decode + 512 px ms | end to end / anchor | sharp full decode ms |');
console.log('|---|---|---|---|---|---|---|---|');
for (const photo of photos) {
  const { width, height } = await sharp(photo.bytes).metadata();
  const m = await medians([
    ['anchor', () => anchor(photo.bytes)],
    ['e2e', () => detectAiImage(photo.bytes, { classifier, version: VERSION, field: 'image' })],
    ['metadata', () => extractImageMetadata(photo.bytes)],
    ['classify', () => classifier.classify(photo.bytes, { version: VERSION })],
    ['decode', () => sharp(photo.bytes).raw().toBuffer()],
  ], run);
  console.log(`| ${photo.name} | ${((width * height) / 1e6).toFixed(1)} | ${ms(m.e2e.median)} | ${ms(m.metadata.median)} | ${ms(m.classify.median)} | ` +
    `${ms(m.anchor.median)} | ${(m.e2e.median / m.anchor.median).toFixed(2)}x | ${ms(m.decode.median)} |`);
}

if (!args.includes('--no-versions')) {
  const big = photos.find((p) => p.name.startsWith('Truepic')) ?? photos.at(-1);
  const view = await sharp(big.bytes).extract({ left: 0, top: 0, width: 256, height: 256 }).png().toBuffer();
  const installed = AI_IMAGE_VERSIONS.filter((v) => { try { return existsSync(aiImageModelDir(v)); } catch { return false; } });
  console.log(`\nclassifier alone per installed version, median ms (${big.name} / a 256 x 256 PNG crop of it):`);
  for (const version of installed) {
    await classifier.classify(view, { version });
    const m = await medians([['big', () => classifier.classify(big.bytes, { version })], ['small', () => classifier.classify(view, { version })]], run);
    console.log(`  version ${version.padEnd(8)} ${ms(m.big.median).padStart(7)} / ${ms(m.small.median).padStart(6)}`);
  }
  // Load in a fresh process (the sessions are shared by the classifiers of a process, so this one's are warm).
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--load-probe'], { encoding: 'utf8', env: process.env });
  if (child.status !== 0) throw new Error(`load probe failed: ${child.stderr}`);
  const probe = JSON.parse(child.stdout.trim().split('\n').at(-1));
  console.log(`version ${VERSION} load, in a fresh process: first classification ${ms(probe.first)} ms (the second ${ms(probe.second)} ms), ` +
    `resident memory +${probe.rssMiB.toFixed(1)} MiB`);
}

if (!args.includes('--no-tfjs')) {
  // nsfwjs's MobileNetV2 in TensorFlow.js (CPU backend, pure JavaScript), on a 224 x 224 input.
  const tf = requireFromClassifiers('@tensorflow/tfjs');
  await tf.setBackend('cpu');
  const { modelTopology, weightSpecs, weightData } = readTfjsModel('mobilenet_v2');
  const tfModel = await tf.loadLayersModel(tf.io.fromMemory({
    modelTopology, weightSpecs, weightData: weightData.buffer.slice(weightData.byteOffset, weightData.byteOffset + weightData.byteLength),
  }));
  const input = tf.randomUniform([1, 224, 224, 3]);
  const crop = await sharp(photos[0].bytes).extract({ left: 0, top: 0, width: 256, height: 256 }).png().toBuffer();
  const m = await medians([
    ['tfjs', async () => { const y = tfModel.predict(input); await y.data(); y.dispose(); }],
    ['ours', () => classifier.classify(crop, { version: '2' })],
  ], { ...run, iterations: Math.min(run.iterations, 5) });
  console.log(`\nMobileNetV2 forward pass: nsfwjs on TensorFlow.js CPU ${ms(m.tfjs.median)} ms; our whole version 2 classification ` +
    `(decode, view, ONNX backbone, probe) of a 256 x 256 crop ${ms(m.ours.median)} ms: ${(m.tfjs.median / m.ours.median).toFixed(1)}x faster`);
}
console.log(`\nat the end: ${machineLine()}`);
