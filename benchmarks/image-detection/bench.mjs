// Image detection benchmark, all in one run (2 cores, tinybench):
// - end to end per image, as /v2/image-detection composes it (the engine's detectAiImage): the metadata / exif /
//   c2pa objects with the invisible-watermark decoder (image-metadata) beside the AI-image classifier (default
//   version 5), for 1, 4 and 12 MP JPEGs made from one camera photo; the previous order (metadata, then the
//   classifier) as a baseline; and the same with the latest version (7; 6 reads the same features) (issue 20: no
//   slower than 1.5x version 5 at 12 MP);
// - the classifier alone, per version, on the 12 MP input and on its 256 x 256 view;
// - baselines measured in the same run: sharp's full decode of each input (the floor any pixel analysis pays),
//   and the same MobileNetV2 run the npm way, nsfwjs's own TensorFlow.js model on the CPU backend.
// - the latest version's load: the first classification of a fresh classifier (card, ONNX session) and the
//   resident memory it adds.
// Run: npm run build && node benchmarks/image-detection/bench.mjs
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { meanLatency } from '../lib/meanLatency.mjs';
import { AI_IMAGE_VERSIONS, LATEST_AI_IMAGE_VERSION as LATEST, createAiImageClassifier, readTfjsModel } from '../../packages/classifiers/dist/index.js';
import { detectAiImage } from '../../packages/engine/dist/index.js';
import { extractImageMetadata } from '../../packages/image-metadata/dist/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const requireFromClassifiers = createRequire(join(root, 'packages/classifiers/package.json'));
const sharp = requireFromClassifiers('sharp');
const datasets = resolve(root, process.env.CONTENT_ANALYSIS_DATASETS ?? '../shared/datasets');
const photo = join(datasets, 'images/exif-samples/jpg/Canon_40D.jpg');
if (!existsSync(photo)) {
  console.log(`${photo} not found: set CONTENT_ANALYSIS_DATASETS. Nothing measured.`);
  process.exit(0);
}

const mean = (fn, options) => meanLatency(fn, options);

const source = readFileSync(photo);
const inputs = [];
for (const mp of [1, 4, 12]) {
  const { width, height } = await sharp(source).metadata();
  const scale = Math.sqrt((mp * 1e6) / (width * height));
  const bytes = await sharp(source)
    .resize(Math.round(width * scale), Math.round(height * scale), { kernel: 'lanczos3' })
    .jpeg({ quality: 92 })
    .toBuffer();
  inputs.push({ mp, bytes });
}
const classifier = createAiImageClassifier({ threads: 2 });
for (const v of AI_IMAGE_VERSIONS) await classifier.classify(inputs[0].bytes, { version: v }); // sessions built once

console.log('end to end per image (the engine\'s detectAiImage: header checks, then metadata + watermark beside');
console.log('classifier v5), against a full sharp decode and the previous order (metadata, then classifier):');
for (const { mp, bytes } of inputs) {
  const e2e = await mean(() => detectAiImage(bytes, { classifier, version: '5', field: 'image' }));
  const sequential = await mean(async () => {
    await extractImageMetadata(bytes);
    await classifier.classify(bytes);
  });
  const metadata = await mean(() => extractImageMetadata(bytes));
  const classify = await mean(() => classifier.classify(bytes));
  const decode = await mean(() => sharp(bytes).raw().toBuffer());
  const e2eLatest = await mean(() => detectAiImage(bytes, { classifier, version: LATEST, field: 'image' }));
  const classifyLatest = await mean(() => classifier.classify(bytes, { version: LATEST }));
  console.log(
    `  ${String(mp).padStart(2)} MP: ${e2e.toFixed(1).padStart(7)} ms (metadata+watermark ${metadata.toFixed(1)} ms, ` +
      `classifier ${classify.toFixed(1)} ms); previous order ${sequential.toFixed(1)} ms; sharp decode ${decode.toFixed(1)} ms; ` +
      `ratio ${(e2e / decode).toFixed(2)}x decode; with version ${LATEST} ${e2eLatest.toFixed(1)} ms (classifier ${classifyLatest.toFixed(1)} ms), ` +
      `${(e2eLatest / e2e).toFixed(2)}x version 5`,
  );
}

console.log('classifier alone, per version (12 MP JPEG input / 256 x 256 PNG view input):');
const view = await sharp(inputs[0].bytes).extract({ left: 0, top: 0, width: 256, height: 256 }).png().toBuffer();
for (const version of AI_IMAGE_VERSIONS) {
  const big = await mean(() => classifier.classify(inputs[2].bytes, { version }));
  const small = await mean(() => classifier.classify(view, { version }));
  console.log(`  version ${version}: ${big.toFixed(1).padStart(6)} ms / ${small.toFixed(1).padStart(6)} ms`);
}

{
  global.gc?.();
  const before = process.memoryUsage().rss;
  const started = performance.now();
  const fresh = createAiImageClassifier({ threads: 2 });
  await fresh.classify(view, { version: LATEST });
  const load = performance.now() - started;
  const warm = await mean(() => fresh.classify(view, { version: LATEST }));
  console.log(
    `version ${LATEST} load: first classification of a fresh classifier ${load.toFixed(1)} ms (a warm one ${warm.toFixed(1)} ms), ` +
      `resident memory +${((process.memoryUsage().rss - before) / 2 ** 20).toFixed(1)} MiB`,
  );
}

// Baseline: nsfwjs's MobileNetV2 in TensorFlow.js (CPU backend, pure JavaScript), on a 224 x 224 input.
const tf = requireFromClassifiers('@tensorflow/tfjs');
await tf.setBackend('cpu');
const { modelTopology, weightSpecs, weightData } = readTfjsModel('mobilenet_v2');
const tfModel = await tf.loadLayersModel(tf.io.fromMemory({
  modelTopology,
  weightSpecs,
  weightData: weightData.buffer.slice(weightData.byteOffset, weightData.byteOffset + weightData.byteLength),
}));
const input = tf.randomUniform([1, 224, 224, 3]);
const tfjs = await mean(async () => { const y = tfModel.predict(input); await y.data(); y.dispose(); }, { time: 3000, iterations: 5 });
const ours = await mean(() => classifier.classify(view, { version: '2' }));
console.log(
  `MobileNetV2 forward pass: nsfwjs on TensorFlow.js CPU ${tfjs.toFixed(1)} ms; our whole version 2 classification ` +
    `(decode, view, ONNX backbone, probe) ${ours.toFixed(1)} ms: ${(tfjs / ours).toFixed(1)}x faster`,
);
