// How far the score (0..100) of every AI-image version moves when the same picture is re-encoded as PNG, as
// JPEG quality 95, or resized by 10% (Lanczos-3, 90% of each side): mean, 95th percentile and maximum of
// |score change| over every 7th image of ai-vs-real-train (both classes) and the held-out camera photos.
// The bounds asserted by packages/classifiers/test/aiImage.test.ts come from these figures.
// Usage: node scripts/ai-image/invariance.mjs [--version N]   (after npm run build)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { AI_IMAGE_VERSIONS, createAiImageClassifier } from '../../packages/classifiers/dist/index.js';
import { evaluationImages, requireDatasets, trainingImages } from '../../packages/classifiers/training/ai-image/datasets.mjs';

requireDatasets();
const sharp = createRequire(new URL('../../packages/classifiers/package.json', import.meta.url))('sharp');
const at = process.argv.indexOf('--version');
const versions = at === -1 ? AI_IMAGE_VERSIONS : [process.argv[at + 1]];
const classifier = createAiImageClassifier({ threads: 2 });
const files = [
  ...trainingImages().filter((_, i) => i % 7 === 0).map((r) => r.path),
  ...(await evaluationImages()).filter((r) => r.dataset.startsWith('camera')).map((r) => r.path),
];
const variants = [];
for (const file of files) {
  const original = readFileSync(file);
  const { width } = (await sharp(original).metadata()).autoOrient;
  variants.push({
    original,
    png: await sharp(original).rotate().png().toBuffer(),
    jpeg95: await sharp(original).rotate().jpeg({ quality: 95 }).toBuffer(),
    resize90: await sharp(original).rotate().resize(Math.round(width * 0.9), null, { kernel: "lanczos3" }).toBuffer(),
  });
}
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return `mean ${(s.reduce((a, b) => a + b, 0) / s.length).toFixed(2)}, p95 ${s[Math.floor(0.95 * (s.length - 1))]}, max ${s.at(-1)}`;
};
console.log(`${files.length} images`);
for (const version of versions) {
  const moves = { png: [], jpeg95: [], resize90: [] };
  for (const v of variants) {
    const base = (await classifier.classify(v.original, { version })).score;
    for (const k of Object.keys(moves)) moves[k].push(Math.abs((await classifier.classify(v[k], { version })).score - base));
  }
  console.log(`version ${version}: ` + Object.entries(moves).map(([k, xs]) => `${k}: ${stats(xs)}`).join('; '));
}
