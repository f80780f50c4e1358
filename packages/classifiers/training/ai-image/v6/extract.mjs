// Computes the version 6 artefact features (dist/aiImage/artefactFeatures.js, the code the classifier runs) of every
// image of the v6 corpus (build-corpus.mjs), in processings that both classes receive alike, so that
// compression history and scale cannot be the signal:
// - `original`: the file as published;
// - `shared`: the image as it travels: with probability 1/2 reduced by a factor from 0.5 to 1 (Lanczos-3, never
//   below 256 px on the shorter side), then re-encoded as JPEG at a quality from 65 to 95 (3 in 4) or as WebP at a
//   quality from 70 to 95 (1 in 4);
// - `reduced`: the image reduced by a factor from 0.35 to 0.75 (never below 256 px) and kept lossless, as photos
//   reach the web from cameras: without it every real photo of the corpus carries the 8 x 8 grid of its JPEG
//   original, and a clean, reduced camera picture looked like a generator's output (version 6's first model flagged
//   54% of the camera originals left out);
// - `enlarged` (only when asked for: an experiment; training on it lowered the leave-out figures, see the CHANGELOG):
//   enlarged by 1.25-2x, as pictures blown up by editors or captured from high-density screens travel, kept lossless
//   or re-encoded as JPEG (`enlargedCopy`).
// - `social` (training, version 8): as pictures are posted: reduced to a common social long side (720, 1080, 1280,
//   1600 or 2048 px, never enlarged), in 1 of 2 cases cropped to 60-90% of each side at a place of its own, in 1 of 10
//   blurred first (Gaussian, sigma 0.5-1.5: the blur augmentation of Wang et al. 2020), then kept lossless as PNG (1 in
//   5: screenshots, editors), JPEG at a quality from 60 to 95 (11 in 20) or WebP at 60 to 95 (1 in 4);
// - `asshared` (evaluation, issue 29): long side at most 1080 px (Lanczos-3), JPEG quality 75: a copy as it travels;
// - `screenshot` (evaluation): shown at 80% and captured as PNG (bicubic), as scripts/ai-image/robustness.mjs does.
// Factors, formats and qualities come from the image's SHA-256, so reruns agree. `--label real` restricts a run to
// the real images (the screenshot copies are measured on real photos only).
// Writes out/ai-image-v6/features-<tag>.f32 (float32 rows) and rows-<tag>.json, tag = shard (and processing set).
// Usage: node training/ai-image/v6/extract.mjs [--shard i/n] [--processing original,shared,reduced[,enlarged]]
//   [--label real|ai] [--cap N[,M]]
//   version 8: --processing original,asshared[,social], then --processing screenshot --label real
//   `--skip-dumped` (issue 29, the larger corpus of model 9): leaves out the images whose rows for every asked
//   processing are already in a dump of the same view (rows-*.json under out/ai-image-v6, as train.py reads them), so
//   a rebuilt, larger corpus costs only its new images; its dumps are tagged `..._rest-<shard>`.
//   (after `npm run build`; run n shards at once)
import { closeSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ARTEFACT_FEATURE_NAMES, artefactFeatures } from '../../../dist/aiImage/artefactFeatures.js';
import { prepareArtefactView } from '../../../dist/aiImage/artefactView.js';
import { PROCESSINGS } from './processings.mjs';
import { readManifest } from './manifest.mjs';

const OUT = resolve(import.meta.dirname, '../../out/ai-image-v6');
const at = process.argv.indexOf('--shard');
const [shard, shards] = at === -1 ? [0, 1] : process.argv[at + 1].split('/').map(Number);

/**
 * `--cap N[,M]` (version 8, for 2 shared CPU cores): at most N images of each AI family and M (default N) of each real source, the
 * first by SHA-256 (a deterministic sample, the same on every run and in every shard); every image without a cap.
 */
function capped(manifest, cap, capReal = cap) {
  if (!cap) return manifest;
  const groups = new Map();
  for (const r of [...manifest].sort((a, b) => a.sha256.localeCompare(b.sha256))) {
    const key = r.label === 'ai' ? `ai:${r.family}` : `real:${r.source}`;
    if (!groups.has(key)) groups.set(key, []);
    if (groups.get(key).length < (r.label === 'ai' ? cap : capReal)) groups.get(key).push(r);
  }
  const kept = new Set([...groups.values()].flat().map((r) => r.file));
  return manifest.filter((r) => kept.has(r.file));
}

const pat = process.argv.indexOf('--processing');
const processings = pat === -1 ? ['original', 'shared', 'reduced'] : process.argv[pat + 1].split(',');
// The view: `native` (default, what the classifier reads: ARTEFACT_VIEW) or, for the record of the experiment that
// chose it, V6_VIEW=reduced512 (reduced to 512 px on the shorter side first, as the views of versions 1 to 5).
const VIEWS = { native: undefined, reduced512: { maxSide: 512, crop: 512, jpegQuality: 90 } };
const viewName = process.env.V6_VIEW ?? 'native';
const view = VIEWS[viewName];
const lat = process.argv.indexOf('--label');
const skipDumped = process.argv.includes('--skip-dumped');
const prefix = `rows-${viewName === 'native' ? 'native_' : ''}`;
const tag = `${viewName === 'native' ? 'native_' : ''}${processings.join('+')}${lat === -1 ? '' : `_${process.argv[lat + 1]}`}${skipDumped ? '_rest' : ''}-${shard}`;

/** Files whose rows for every asked processing are in an existing dump of this view (read before this run writes). */
function dumped() {
  const done = new Map();
  for (const name of readdirSync(OUT).filter((n) => n.startsWith(prefix) && n.endsWith('.json') && (viewName === 'native') === n.startsWith('rows-native_'))) {
    for (const r of JSON.parse(readFileSync(join(OUT, name), 'utf8')).rows) {
      if (!done.has(r.file)) done.set(r.file, new Set());
      done.get(r.file).add(r.processing);
    }
  }
  return new Set([...done].filter(([, p]) => processings.every((q) => p.has(q))).map(([file]) => file));
}

const cat = process.argv.indexOf('--cap');
const skipped = skipDumped ? dumped() : new Set();
const rows = capped(readManifest(OUT), ...(cat === -1 ? [] : process.argv[cat + 1].split(',').map(Number)))
  .filter((r) => !skipped.has(r.file))
  .filter((r, i) => i % shards === shard && (lat === -1 || r.label === process.argv[lat + 1]));
if (skipDumped) console.log(`shard ${shard}: ${skipped.size} images already dumped, ${rows.length} to extract`);
const features = openSync(join(OUT, `features-${tag}.f32`), 'w');
const written = [];
const started = Date.now();
for (const [i, row] of rows.entries()) {
  const bytes = readFileSync(join(OUT, row.file));
  for (const processing of processings) {
    try {
      const input = await PROCESSINGS[processing](bytes, row.sha256);
      const x = artefactFeatures(await prepareArtefactView(input, view));
      writeSync(features, Buffer.from(x.buffer, x.byteOffset, x.byteLength));
      written.push({ file: row.file, source: row.source, label: row.label, family: row.family, processing });
    } catch (error) {
      console.error(`skip ${row.file} (${processing}): ${error.message}`);
    }
  }
  if (i % 200 === 0) console.log(`shard ${shard}: ${i}/${rows.length} images, ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
closeSync(features);
writeFileSync(join(OUT, `rows-${tag}.json`), JSON.stringify({ names: ARTEFACT_FEATURE_NAMES, rows: written }));
console.log(`shard ${shard}: ${written.length} rows in ${((Date.now() - started) / 1000).toFixed(0)} s`);
