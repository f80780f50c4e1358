// Whole advanced image detection (/v2/advanced-image-detection's analysis: metadata tool with the watermark decoder,
// AI-image classifier and the six forensic kernels in a 2-thread pool) at 1, 4 and 12 MP, all in one run:
// - the engine's composition (analyzeImageAuthenticity: header checks, then the three parts side by side);
// - the previous composition (metadata first, then classifier and kernels side by side), as a baseline;
// - each part alone, and sharp's full decode of the same JPEG (the floor any pixel analysis pays).
// Inputs: a camera photo of the shared datasets resized to each size (JPEG q92), else a synthetic photo-like JPEG.
// Run: npm run build && node benchmarks/advanced-image-detection/bench.mjs [megapixels, e.g. 1,4,12]
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { meanLatency } from '../lib/meanLatency.mjs';
import { ADVANCED_KERNELS, analyzeImageAuthenticity } from '../../packages/engine/dist/index.js';
import { classifyImage } from '../../packages/classifiers/dist/index.js';
import { analyzeImage, ForensicsPool } from '../../packages/forensics/dist/index.js';
import { extractImageMetadata } from '../../packages/image-metadata/dist/index.js';
import { benchPhoto as photo, photoOfMegapixels } from '../forensics/testImage.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const sharp = createRequire(join(root, 'packages/forensics/package.json'))('sharp');
const sizes = (process.argv[2] ?? '1,4,12').split(',').map(Number);

const mean = (fn) => meanLatency(fn, { time: 4000, iterations: 5, warmupIterations: 1 });

const inputOf = (mp) => photoOfMegapixels(sharp, mp);

console.log(`input: ${existsSync(photo) ? 'Canon_40D.jpg resized' : 'synthetic photo-like JPEG (datasets not found)'}; load at start ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const pool = new ForensicsPool({ threads: 2 });
// The engine's own classifier (`classifyImage`: the process-wide default, one ONNX thread), as the endpoint runs it.
const classifier = { classify: classifyImage };
const metadataOptions = { maxBytes: 25 * 1024 * 1024 };
const rows = [];
for (const mp of sizes) {
  const bytes = await inputOf(mp);
  await analyzeImageAuthenticity(bytes, { pool, classifier }); // sessions and worker code warmed
  const whole = await mean(() => analyzeImageAuthenticity(bytes, { pool, classifier }));
  const previous = await mean(async () => {
    await extractImageMetadata(bytes, metadataOptions);
    await Promise.all([analyzeImage(bytes, { kernels: ADVANCED_KERNELS, pool }), classifier.classify(bytes)]);
  });
  const metadata = await mean(() => extractImageMetadata(bytes, metadataOptions));
  const classify = await mean(() => classifier.classify(bytes));
  const kernels = await mean(() => analyzeImage(bytes, { kernels: ADVANCED_KERNELS, pool }));
  const decode = await mean(() => sharp(bytes).raw().toBuffer());
  rows.push({
    MP: mp, 'whole ms': whole.toFixed(0), 'previous order ms': previous.toFixed(0), 'previous / whole': (previous / whole).toFixed(2),
    'metadata+watermark ms': metadata.toFixed(0), 'classifier ms': classify.toFixed(0), 'kernels in pool ms': kernels.toFixed(0),
    'sharp decode ms': decode.toFixed(1), 'whole / decode': (whole / decode).toFixed(1),
  });
}
console.table(rows);
console.log(`load at end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
await pool.close();
