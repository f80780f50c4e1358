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
// Factors, formats and qualities come from the image's SHA-256, so reruns agree.
// Writes out/ai-image-v6/features-<tag>.f32 (float32 rows) and rows-<tag>.json, tag = shard (and processing set).
// Usage: node training/ai-image/v6/extract.mjs [--shard i/n] [--processing original,shared,reduced[,enlarged]]
//   (after `npm run build`; run n shards at once)
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { ARTEFACT_FEATURE_NAMES, artefactFeatures } from '../../../dist/aiImage/artefactFeatures.js';
import { prepareArtefactView } from '../../../dist/aiImage/artefactView.js';
import { MIN_SIDE } from '../datasets.mjs';
import { readManifest } from './manifest.mjs';

const OUT = resolve(import.meta.dirname, '../../out/ai-image-v6');
const at = process.argv.indexOf('--shard');
const [shard, shards] = at === -1 ? [0, 1] : process.argv[at + 1].split('/').map(Number);

/** A number in [0, 1) from a hex digest and a salt (the processing parameters of one image). */
const unit = (sha, salt) => parseInt(sha.slice(salt * 6, salt * 6 + 6), 16) / 0x1000000;

/** The image turned upright (EXIF orientation), with its upright size. */
async function oriented(bytes) {
  const { width, height } = (await sharp(bytes).metadata()).autoOrient;
  return { image: sharp(bytes, { failOn: 'none', limitInputPixels: 268_402_689 }).rotate(), width, height };
}

/** The image, oriented and reduced by `factor` (Lanczos-3; never below MIN_SIDE on the shorter side; 1: as it is). */
async function reducedBy(bytes, factor) {
  const { image, width, height } = await oriented(bytes);
  const applied = Math.max(factor, MIN_SIDE / Math.min(width, height));
  return applied < 1 ? image.resize(Math.round(width * applied), null, { kernel: 'lanczos3' }) : image;
}

/** The `shared` processing of an image (see the header). */
export async function sharedCopy(bytes, sha) {
  const image = (await reducedBy(bytes, unit(sha, 0) < 0.5 ? 0.5 + unit(sha, 1) / 2 : 1)).flatten({ background: '#ffffff' });
  return unit(sha, 2) < 0.75
    ? image.jpeg({ quality: 65 + Math.floor(unit(sha, 3) * 31), chromaSubsampling: '4:2:0' }).toBuffer()
    : image.webp({ quality: 70 + Math.floor(unit(sha, 3) * 26) }).toBuffer();
}

/** The `reduced` processing of an image (see the header). */
export async function reducedCopy(bytes, sha) {
  return (await reducedBy(bytes, 0.35 + unit(sha, 4) * 0.4)).png({ compressionLevel: 0 }).toBuffer();
}

/**
 * The `enlarged` processing: enlarged by a factor from 1.25 to 2 (Lanczos-3 or bicubic, half each), as pictures are
 * shown and captured on high-density screens or blown up by editors, then kept lossless (PNG) or re-encoded as JPEG
 * at a quality from 75 to 95 (half each).
 */
export async function enlargedCopy(bytes, sha) {
  const { image: upright, width } = await oriented(bytes);
  const image = upright
    .resize(Math.round(width * (1.25 + unit(sha, 5) * 0.75)), null, { kernel: unit(sha, 6) < 0.5 ? 'lanczos3' : 'cubic' })
    .flatten({ background: '#ffffff' });
  return unit(sha, 7) < 0.5
    ? image.png({ compressionLevel: 0 }).toBuffer()
    : image.jpeg({ quality: 75 + Math.floor(unit(sha, 8) * 21), chromaSubsampling: '4:2:0' }).toBuffer();
}

const PROCESSINGS = { original: (bytes) => bytes, shared: sharedCopy, reduced: reducedCopy, enlarged: enlargedCopy };
const pat = process.argv.indexOf('--processing');
const processings = pat === -1 ? ['original', 'shared', 'reduced'] : process.argv[pat + 1].split(',');
// The view: `native` (default, what the classifier reads: ARTEFACT_VIEW) or, for the record of the experiment that
// chose it, V6_VIEW=reduced512 (reduced to 512 px on the shorter side first, as the views of versions 1 to 5).
const VIEWS = { native: undefined, reduced512: { maxSide: 512, crop: 512, jpegQuality: 90 } };
const viewName = process.env.V6_VIEW ?? 'native';
const view = VIEWS[viewName];
const tag = `${viewName === 'native' ? 'native_' : ''}${processings.join('+')}-${shard}`;
const rows = readManifest(OUT).filter((_, i) => i % shards === shard);
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
