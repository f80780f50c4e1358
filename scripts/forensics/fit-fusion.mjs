#!/usr/bin/env node
// Fits the fused localisation model of @content-analysis/forensics (src/fusion/fusionModel.ts) on the copy-move half
// (Sp_S) of forgery-casia1-samples and prints it; the splicing half (Sp_D) is left for evaluation (forensics-bench).
// Per 8x8 cell: each kernel's first map standardised per image (fuseMaps' standardisedMap), averaged over a window of
// (2r + 1)^2 cells; label: more than half the cell's pixels tampered. Class-balanced logistic regression (Newton, L2
// 0.01) per radius r in 0..3; r by the mean per-image pixel AUC on the same half. Threshold of the image-level score:
// just above the highest score of the 9 original Sp_S images (precision first; the balanced-accuracy one is printed).
// Reads $CONTENT_ANALYSIS_DATASETS; imports the BUILT package (node_modules/.bin/tsc -b packages/forensics first).
// Usage: nice -n 10 node scripts/forensics/fit-fusion.mjs
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dist = join(root, 'packages/forensics/dist');
const f = await import(join(dist, 'index.js'));
const { standardisedMap, fuseMaps } = await import(join(dist, 'fusion/fuseMaps.js'));
const { boxMean } = await import(join(dist, 'jpeg/boxMean.js'));
const { localisationScores } = await import(join(dist, 'bench/localisationMetrics.js'));
const sharp = createRequire(join(root, 'packages/forensics/package.json'))('sharp');
const dir = join(process.env.CONTENT_ANALYSIS_DATASETS ?? resolve(root, '../shared/datasets'), 'images/forgery-casia1-samples');
if (!existsSync(dir)) { console.log(`skipping: ${dir} not found (set CONTENT_ANALYSIS_DATASETS)`); process.exit(0); }

const KERNELS = f.KERNEL_IDS.filter((id) => id !== 'spectral');
const names = readdirSync(join(dir, 'tampered')).filter((n) => n.startsWith('Sp_S') && n.endsWith('.png'));
const images = [];
for (const name of names) {
  const { data, info } = await sharp(readFileSync(join(dir, 'mask', name))).greyscale().raw().toBuffer({ resolveWithObject: true });
  const mask = Uint8Array.from(data, (v) => (v > 127 ? 1 : 0));
  const tampered = (await f.analyzeImage(readFileSync(join(dir, 'tampered', name)), { kernels: KERNELS })).kernels;
  const original = (await f.analyzeImage(readFileSync(join(dir, 'original', name)), { kernels: KERNELS })).kernels;
  images.push({ name, mask, width: info.width, height: info.height, tampered, original });
}

function features(kernels, width, height, r) {
  const cw = Math.ceil(width / 8), ch = Math.ceil(height / 8);
  return KERNELS.map((id) => {
    const k = kernels.find((o) => o.id === id);
    const z = standardisedMap(k.result.maps[0], width, height);
    return r > 0 ? boxMean(z, cw, ch, r) : z;
  });
}

function cellLabels({ mask, width, height }) {
  const cw = Math.ceil(width / 8), ch = Math.ceil(height / 8);
  const pos = new Float64Array(cw * ch), all = new Float64Array(cw * ch);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) { const c = (y >> 3) * cw + (x >> 3); all[c]++; pos[c] += mask[y * width + x]; }
  return Float64Array.from(pos, (p, i) => (p / all[i] > 0.5 ? 1 : 0));
}

/** Newton's method on the class-balanced, L2-penalised logistic loss. */
function fitLogistic(X, y, lambda) {
  const d = X[0].length + 1, n = X.length;
  const npos = y.reduce((s, v) => s + v, 0), wpos = n / (2 * npos), wneg = n / (2 * (n - npos));
  const beta = new Float64Array(d);
  for (let it = 0; it < 25; it++) {
    const g = new Float64Array(d), H = Array.from({ length: d }, () => new Float64Array(d));
    for (let i = 0; i < n; i++) {
      const xi = [1, ...X[i]];
      let t = 0;
      for (let j = 0; j < d; j++) t += beta[j] * xi[j];
      const p = 1 / (1 + Math.exp(-t)), w = y[i] ? wpos : wneg;
      for (let j = 0; j < d; j++) {
        g[j] += (w * (p - y[i]) * xi[j]) / n;
        for (let k = 0; k < d; k++) H[j][k] += (w * p * (1 - p) * xi[j] * xi[k]) / n;
      }
    }
    for (let j = 1; j < d; j++) { g[j] += lambda * beta[j]; H[j][j] += lambda; }
    // Solve H step = g by Gaussian elimination.
    const A = H.map((row, j) => [...row, g[j]]);
    for (let c = 0; c < d; c++) {
      let p = c;
      for (let r = c + 1; r < d; r++) if (Math.abs(A[r][c]) > Math.abs(A[p][c])) p = r;
      [A[c], A[p]] = [A[p], A[c]];
      for (let r = 0; r < d; r++) if (r !== c) { const m = A[r][c] / A[c][c]; for (let k = c; k <= d; k++) A[r][k] -= m * A[c][k]; }
    }
    for (let j = 0; j < d; j++) beta[j] -= A[j][d] / A[j][j];
  }
  return beta;
}

let best;
for (let r = 0; r <= 3; r++) {
  const X = [], y = [];
  for (const im of images) {
    const F = features(im.tampered, im.width, im.height, r), labels = cellLabels(im);
    for (let i = 0; i < labels.length; i++) { X.push(F.map((f) => f[i])); y.push(labels[i]); }
  }
  const beta = fitLogistic(X, y, 0.01);
  const model = { weights: Object.fromEntries(KERNELS.map((id, j) => [id, Math.round(beta[j + 1] * 1e4) / 1e4])), bias: Math.round(beta[0] * 1e4) / 1e4, radius: r, topShare: 0.05, threshold: 0.5 };
  const aucs = images.map((im) => localisationScores(fuseMaps(im.tampered, im.width, im.height, model).map, im.mask, im.width, im.height).auc);
  const auc = aucs.reduce((s, v) => s + v, 0) / aucs.length;
  console.log(`radius ${r}: mean pixel AUC on Sp_S ${auc.toFixed(3)}`);
  if (!best || auc > best.auc) best = { auc, model };
}
const scores = (which) => images.map((im) => fuseMaps(im[which], im.width, im.height, best.model).score);
const pos = scores('tampered'), neg = scores('original');
const all = [...pos, ...neg].sort((a, b) => a - b);
let balanced = 0.5, bestAcc = 0;
for (let i = 0; i + 1 < all.length; i++) {
  const t = (all[i] + all[i + 1]) / 2;
  const acc = (pos.filter((s) => s >= t).length / pos.length + neg.filter((s) => s < t).length / neg.length) / 2;
  if (acc > bestAcc) { bestAcc = acc; balanced = t; }
}
// The endpoint's threshold puts precision first: the lowest score above every Sp_S original (no false alarm there).
const threshold = Math.round((Math.max(...neg) + 1e-4) * 1e4) / 1e4;
best.model.threshold = threshold;
console.log(`tampered scores ${pos.map((s) => s.toFixed(3)).join(' ')}; originals ${neg.map((s) => s.toFixed(3)).join(' ')}`);
console.log(`best balanced accuracy on Sp_S ${bestAcc.toFixed(3)} at ${balanced.toFixed(4)}; threshold kept (above every original): ${threshold}, flags ${pos.filter((s) => s >= threshold).length} of ${pos.length} tampered`);
console.log(JSON.stringify(best.model, null, 2));
