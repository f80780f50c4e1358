// Extracts the feature blocks of every training and evaluation image through the same code the classifier runs
// (dist/aiImage/features.js), for train.py. Usage: node training/ai-image/extract.mjs train|eval  (after `npm run build`)
import { mkdirSync, openSync, readFileSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { FeatureExtractor } from '../../dist/aiImage/features.js';
import { evaluationImages, requireDatasets, trainingImages } from './datasets.mjs';

requireDatasets();
const OUT = resolve(import.meta.dirname, '../out/ai-image');
mkdirSync(OUT, { recursive: true });
const BLOCKS = ['handcrafted', 'mobilenet_v2', 'inception_v3'];
const extractor = new FeatureExtractor(Number(process.env.THREADS ?? 2));

// `train`: ai-vs-real-train, three views per image; `eval`: the held-out sets, the centre view the API uses.
const set = process.argv[2] ?? 'train';
const jobs =
  set === 'train'
    ? trainingImages().map((r) => ({ ...r, positions: ['centre', 'top-left', 'bottom-right'] }))
    : (await evaluationImages()).map((r) => ({ ...r, positions: ['centre'] }));
const files = Object.fromEntries(BLOCKS.map((b) => [b, openSync(join(OUT, `${set}-${b}.f32`), 'w')]));
const widths = {};
const rows = [];
const started = Date.now();
for (const [i, job] of jobs.entries()) {
  let views;
  try {
    const bytes = readFileSync(job.path);
    views = job.positions.length === 1 ? await extractor.extract(bytes, BLOCKS, job.positions) : await augmentedViews(bytes, i);
  } catch (error) {
    console.error(`skip ${job.path}: ${error.message}`);
    continue;
  }
  views.forEach((features, v) => {
    for (const b of BLOCKS) {
      widths[b] ??= features[b].length;
      writeSync(files[b], Buffer.from(features[b].buffer, features[b].byteOffset, features[b].byteLength));
    }
    const { positions, ...meta } = job;
    rows.push({ ...meta, path: job.path.slice(job.path.indexOf('images/')), position: positions[v] });
  });
  if (i % 50 === 0) console.log(`${i}/${jobs.length} images, ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
for (const f of Object.values(files)) closeSync(f);

/**
 * The three training views of an image, the same for both classes so that compression history and scale are
 * never the signal (Wang et al., CVPR 2020, train with JPEG and blur augmentation for the same reason): the centre
 * of the file as it is; the top-left corner of the image re-encoded as JPEG at a quality from 65 to 95; and the
 * bottom-right corner of the image reduced by 10 to 40% (while it stays at least 256 px) and re-encoded as JPEG
 * at a quality from 65 to 95. Qualities and factors come from a fixed sequence, so the dump is reproducible.
 */
async function augmentedViews(bytes, index) {
  const q1 = 65 + ((index * 7919) % 31);
  const q2 = 65 + ((index * 104729 + 13) % 31);
  const factor = 0.6 + ((index * 3571) % 31) / 100;
  const { width, height } = (await sharp(bytes).metadata()).autoOrient;
  const scale = Math.max(factor, 256 / Math.min(width, height));
  const recompressed = await sharp(bytes).rotate().jpeg({ quality: q1 }).toBuffer();
  const reduced = await sharp(bytes)
    .rotate()
    .resize(Math.max(1, Math.round(width * Math.min(1, scale))), null, { kernel: 'lanczos3' })
    .jpeg({ quality: q2 })
    .toBuffer();
  const [centre] = await extractor.extract(bytes, BLOCKS, ['centre']);
  const [topLeft] = await extractor.extract(recompressed, BLOCKS, ['top-left']);
  const [bottomRight] = await extractor.extract(reduced, BLOCKS, ['bottom-right']);
  return [centre, topLeft, bottomRight];
}
writeFileSync(join(OUT, `${set}-rows.json`), JSON.stringify({ blocks: widths, rows }));
console.log(`wrote ${rows.length} rows (${JSON.stringify(widths)}) to ${OUT} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
