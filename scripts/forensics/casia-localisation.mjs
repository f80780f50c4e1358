#!/usr/bin/env node
// Localisation quality on forgery-casia1-samples: per kernel, pixel AUC of its primary map against the ground-truth
// masks (maps upsampled by their cell size, nearest neighbour), and the mean per-image score of tampered images vs
// their authentic originals with the per-image win rate (share of pairs where the tampered image scores higher, ties
// half). For ELA the fraction-of-outlier-blocks score of version 1 (stat outlierBlockFraction) is printed beside the
// current one. Reads $CONTENT_ANALYSIS_DATASETS (default ../shared/datasets from the repo root) and
// imports the BUILT package: run `node_modules/.bin/tsc -b packages/forensics` first.
// Usage: node scripts/forensics/casia-localisation.mjs
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const forensics = await import(join(root, 'packages/forensics/dist/index.js'));
const sharp = createRequire(join(root, 'packages/forensics/package.json'))('sharp');
const datasets = process.env.CONTENT_ANALYSIS_DATASETS ?? resolve(root, '../shared/datasets');
const dir = join(datasets, 'images/forgery-casia1-samples');
if (!existsSync(dir)) {
  console.log(`skipping: ${dir} not found (set CONTENT_ANALYSIS_DATASETS)`);
  process.exit(0);
}

/** Primary localisation map of each kernel (the spectral kernel has no spatial map). */
const PRIMARY = {
  ela: 'ela', 'wavelet-noise': 'noise-sigma', 'median-residual': 'median-residual-block-mean',
  'cfa-variance': 'no-cfa-probability', 'cfa-reinterpolation': 'cfa-layout-preference', 'edge-anomaly': 'edge-anomaly',
};

/** AUC by the Mann-Whitney statistic over exact ranks (ties share their mean rank); NaN values count as lowest. */
export function pixelAuc(values, positive) {
  const n = values.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (values[a] || -Infinity) - (values[b] || -Infinity));
  let rankSum = 0, pos = 0;
  for (let i = 0; i < n;) {
    let j = i;
    const v = values[order[i]] || -Infinity;
    while (j + 1 < n && (values[order[j + 1]] || -Infinity) === v) j++;
    const mean = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (positive[order[k]]) { rankSum += mean; pos++; }
    i = j + 1;
  }
  const neg = n - pos;
  return (rankSum - (pos * (pos + 1)) / 2) / (pos * neg);
}

function toPixels(map, width, height) {
  const out = new Float64Array(width * height);
  const c = map.cellSize;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const mx = Math.min(map.width - 1, Math.floor(x / c)), my = Math.min(map.height - 1, Math.floor(y / c));
      out[y * width + x] = map.data[my * map.width + mx];
    }
  }
  return out;
}

const names = readdirSync(join(dir, 'tampered')).filter((n) => n.endsWith('.png')).sort();
const auc = Object.fromEntries(Object.keys(PRIMARY).map((k) => [k, []]));
const scores = Object.fromEntries(forensics.KERNEL_IDS.map((k) => [k, { tampered: [], original: [] }]));
for (const name of names) {
  const tampered = await forensics.analyzeImage(readFileSync(join(dir, 'tampered', name)));
  const original = await forensics.analyzeImage(readFileSync(join(dir, 'original', name)));
  const { data: mask, info } = await sharp(readFileSync(join(dir, 'mask', name))).greyscale().raw().toBuffer({ resolveWithObject: true });
  const positive = Uint8Array.from(mask, (v) => (v > 127 ? 1 : 0));
  for (const [which, analysis] of [['tampered', tampered], ['original', original]]) {
    for (const k of analysis.kernels) {
      if (k.state !== 'completed') continue;
      scores[k.id][which].push(k.result.score);
      if (k.id === 'ela') (scores['ela (v1 score)'] ??= { tampered: [], original: [] })[which].push(k.result.stats.outlierBlockFraction);
    }
  }
  for (const k of tampered.kernels) {
    if (k.state !== 'completed' || !PRIMARY[k.id]) continue;
    const map = k.result.maps.find((m) => m.name === PRIMARY[k.id]);
    auc[k.id].push(pixelAuc(toPixels(map, info.width, info.height), positive));
  }
}
const mean = (a) => a.reduce((s, v) => s + v, 0) / a.length;
const winRate = ({ tampered, original }) => mean(tampered.map((t, i) => (t > original[i] ? 1 : t === original[i] ? 0.5 : 0)));
console.log(`forgery-casia1-samples: ${names.length} tampered images with masks and their originals`);
console.log('kernel               map                          pixel AUC (mean, min..max)   score tampered  score original  win rate');
for (const id of [...forensics.KERNEL_IDS, 'ela (v1 score)']) {
  const a = id === 'ela' ? auc.ela : (auc[id] ?? []);
  const aucText = id === 'ela (v1 score)' ? 'same map as ela' : a.length ? `${mean(a).toFixed(3)} (${Math.min(...a).toFixed(2)}..${Math.max(...a).toFixed(2)})` : 'n/a (no spatial map)';
  console.log(`${id.padEnd(20)} ${(PRIMARY[id] ?? (id === 'spectral' ? 'pmap-spectrum' : 'ela')).padEnd(28)} ${aucText.padEnd(28)} ${mean(scores[id].tampered).toFixed(4).padStart(14)} ${mean(scores[id].original).toFixed(4).padStart(15)} ${winRate(scores[id]).toFixed(2).padStart(9)}`);
}
