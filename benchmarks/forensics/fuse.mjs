// Speed of fuseMaps on the advanced endpoint's nine kernel maps (ELA and the median residual are full-resolution
// maps: 12 M values each at 12 MP) on real camera photos of about 12 MP at their own resolution (`cameraPhotos12MP`
// in testImage.mjs; fuseMaps on the first, on this thread and in a 2-thread pool). With FORENSICS_BEFORE=<a copy of
// an earlier build's packages/forensics/dist inside packages/forensics> the earlier fuseMaps runs on the same outcomes
// in the same run, alternated, and the maps are compared bit for bit; and the endpoint's forensic part as a whole,
// decode + the nine kernels in a 2-thread pool + the pool's fuseMaps, is timed on every photo in turn (a fresh image
// per run), the two builds alternated, medians.
// Run after building: `nice -n 10 node benchmarks/forensics/fuse.mjs [iterations]`; skips without the photos.
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cameraPhotos12MP } from './testImage.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const now = await import(join(root, 'packages/forensics/dist/index.js'));
const before = process.env.FORENSICS_BEFORE ? await import(join(resolve(process.env.FORENSICS_BEFORE), 'index.js')) : undefined;
const sharp = createRequire(join(root, 'packages/forensics/package.json'))('sharp');
const photos = await cameraPhotos12MP(sharp);
if (photos.length === 0) {
  console.log('skipping: no camera photos (set CONTENT_ANALYSIS_DATASETS, and DIGICAM_CORPUS_GIT for more)');
  process.exit(0);
}
const iterations = Number(process.argv[2] ?? 3);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`load average at start: ${load()}; photos: ${photos.map((p) => `${p.name} ${p.width}x${p.height}`).join(', ')}`);
const bytes = photos[0].bytes;
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
const median = (values) => {
  const v = [...values].sort((x, y) => x - y), h = v.length >> 1;
  return v.length % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
};
{
  // fuseMaps in the pool (each map standardised in its own task there), against this thread's.
  const pool = new now.ForensicsPool({ threads: 2 });
  const times = [];
  for (let i = 0; i <= iterations; i++) {
    const t = performance.now();
    const fused = await pool.fuseMaps(a.kernels, a.width, a.height);
    if (i > 0) times.push(performance.now() - t);
    const local = now.fuseMaps(a.kernels, a.width, a.height);
    if (!(fused.score === local.score && fused.map.data.every((v, j) => Object.is(v, local.map.data[j])))) throw new Error('pool and thread fused maps differ');
  }
  console.log(`fuseMaps of the nine maps in a 2-thread pool: ${median(times).toFixed(0)} ms (median), the same map and score as on this thread`);
  await pool.close();
}
if (before) {
  const pools = { now: new now.ForensicsPool({ threads: 2 }), before: new before.ForensicsPool({ threads: 2 }) };
  const part = async (lib, pool, photo) => {
    const t = performance.now();
    const r = await lib.analyzeImage(photo.bytes, { kernels: ids, pool });
    const fused = await pool.fuseMaps(r.kernels, r.width, r.height);
    return [performance.now() - t, fused];
  };
  for (const photo of photos) { await part(before, pools.before, photo); await part(now, pools.now, photo); } // warm-up
  const total = { now: [], before: [] };
  for (let i = 0; i < iterations * photos.length; i++) {
    const photo = photos[i % photos.length];
    const [tb, fb] = await part(before, pools.before, photo);
    const [tn, fn] = await part(now, pools.now, photo);
    if (!(fb.score === fn.score && fn.map.data.every((v, j) => Object.is(v, fb.map.data[j])))) throw new Error('fused maps differ');
    total.now.push(tn);
    total.before.push(tb);
  }
  console.log(`decode + nine kernels in a 2-thread pool + the pool's fuseMaps, ${total.now.length} runs over the photos: ${median(total.now).toFixed(0)} ms (median); before ${median(total.before).toFixed(0)} ms, before / now ${(median(total.before) / median(total.now)).toFixed(2)}, identical fused maps and scores`);
  await pools.now.close();
  await pools.before.close();
}
console.log(`load average at end: ${load()}`);
