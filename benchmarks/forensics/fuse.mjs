// Speed of fuseMaps on the advanced endpoint's nine kernel maps at 12 MP (ELA and the median residual are
// full-resolution maps: 12 M values each), on the advanced benchmark's input (exif-samples Canon_40D.jpg resized to
// 12 MP, q92). With FORENSICS_BEFORE=<a copy of an earlier build's packages/forensics/dist inside packages/forensics>
// the earlier fuseMaps runs on the same outcomes in the same run, alternated, and the maps are compared bit for bit.
// With a before build it also times the endpoint's forensic part as a whole, decode + kernels in a 2-thread pool +
// fuseMaps, alternated: this build with the endpoint's nine kernels, the before build with the ten it ran before.
// Run after building: `nice -n 10 node benchmarks/forensics/fuse.mjs [iterations]`; skips when the photo is absent.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const now = await import(join(root, 'packages/forensics/dist/index.js'));
const before = process.env.FORENSICS_BEFORE ? await import(join(resolve(process.env.FORENSICS_BEFORE), 'index.js')) : undefined;
const sharp = createRequire(join(root, 'packages/forensics/package.json'))('sharp');
const photo = join(process.env.CONTENT_ANALYSIS_DATASETS ?? resolve(root, '../shared/datasets'), 'images/exif-samples/jpg/Canon_40D.jpg');
if (!existsSync(photo)) {
  console.log(`skipping: ${photo} not found (set CONTENT_ANALYSIS_DATASETS)`);
  process.exit(0);
}
const iterations = Number(process.argv[2] ?? 3);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`load average at start: ${load()}`);
const { width, height } = await sharp(photo).metadata();
const scale = Math.sqrt(12e6 / (width * height));
const bytes = await sharp(readFileSync(photo)).resize(Math.round(width * scale), Math.round(height * scale), { kernel: 'lanczos3' }).jpeg({ quality: 92 }).toBuffer();
const ids = ['ela', 'wavelet-noise', 'median-residual', 'cfa-variance', 'cfa-reinterpolation', 'edge-anomaly', 'dq-aligned', 'jpeg-grid', 'jpeg-ghost'];
const a = await now.analyzeImage(bytes, { kernels: ids });
console.log(`${a.width}x${a.height}; kernels on the main thread, ms: ${a.kernels.map((k) => `${k.id} ${k.state === 'completed' ? k.ms.toFixed(0) : k.state}`).join(', ')}`);
const time = (fn) => { const t = performance.now(); const out = fn(); return [performance.now() - t, out]; };
const sums = { now: 0, before: 0 };
for (let i = 0; i <= iterations; i++) {
  const [tb, fb] = before ? time(() => before.fuseMaps(a.kernels, a.width, a.height)) : [0, undefined];
  const [tn, fn] = time(() => now.fuseMaps(a.kernels, a.width, a.height));
  if (fb && !(fb.score === fn.score && fn.map.data.every((v, j) => Object.is(v, fb.map.data[j])))) throw new Error('fused maps differ');
  if (i === 0) continue; // warm-up
  sums.now += tn / iterations;
  sums.before += tb / iterations;
}
console.log(`fuseMaps of the nine maps: ${sums.now.toFixed(0)} ms${before ? `; before ${sums.before.toFixed(0)} ms, before / now ${(sums.before / sums.now).toFixed(2)}, identical maps and scores` : ''}`);
if (before) {
  const ten = [...ids, 'dq-nonaligned'];
  const pools = { now: new now.ForensicsPool({ threads: 2 }), before: new before.ForensicsPool({ threads: 2 }) };
  const part = async (lib, pool, kernels) => {
    const t = performance.now();
    const r = await lib.analyzeImage(bytes, { kernels, pool });
    const fused = lib.fuseMaps(r.kernels, r.width, r.height);
    return [performance.now() - t, fused];
  };
  const total = { now: 0, before: 0 };
  for (let i = 0; i <= iterations; i++) {
    const [tb, fb] = await part(before, pools.before, ten);
    const [tn, fn] = await part(now, pools.now, ids);
    if (!(fb.score === fn.score && fn.map.data.every((v, j) => Object.is(v, fb.map.data[j])))) throw new Error('fused maps differ');
    if (i === 0) continue;
    total.now += tn / iterations;
    total.before += tb / iterations;
  }
  console.log(`decode + kernels in a 2-thread pool + fuseMaps: ${total.now.toFixed(0)} ms (nine kernels); before ${total.before.toFixed(0)} ms (ten), before / now ${(total.before / total.now).toFixed(2)}, identical fused maps and scores`);
  await pools.now.close();
  await pools.before.close();
}
console.log(`load average at end: ${load()}`);
