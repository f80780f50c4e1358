// Before/after comparison in one process on a real camera photo (testImage.mjs's cameraPhotos, default the 12.2 MP
// pixel5): another build of the package (e.g. dist/ of an earlier commit, inside packages/forensics so it resolves
// sharp and piscina, with its wasm/ folder beside it) and this one, alternated run by run, medians. Each pixel-domain
// kernel on the main thread, then decode + those kernels serially and in a 2-thread pool (the bytes decoded afresh in
// every run). The machine is shared and its speed drifts within minutes, which alternating in one process cancels
// better than two runs of bench.mjs.
// `node benchmarks/forensics/compare.mjs <other dist dir> [repetitions] [photo]` (after building); COMPARE_KERNELS=a,b
// times only those kernels and COMPARE_WHOLE=0 skips the decode + kernels rows. COMPARE_RELEASE=1: this build's pool
// gives each run's result maps back after the run (pool.releaseResults, opt-in; what the engine's advanced image
// detection does once its report is built), the other build's pool keeps them.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cameraPhotoPath } from './testImage.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
if (!process.argv[2]) throw new Error('Expected the other build\'s dist directory as the first argument');
const a = await import(join(resolve(process.argv[2]), 'index.js'));
const b = await import(join(root, 'packages/forensics/dist/index.js'));
const reps = Number(process.argv[3] ?? 9);
const photo = process.argv[4] ?? 'pixel5';
const bytes = readFileSync(cameraPhotoPath(photo));
const KERNELS = ['ela', 'wavelet-noise', 'median-residual', 'cfa-variance', 'cfa-reinterpolation', 'edge-anomaly', 'spectral'];
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`${photo}, ${reps} alternated repetitions; load at start ${load()}`);
const median = (v) => { const t = [...v].sort((x, y) => x - y); return t.length % 2 ? t[t.length >> 1] : (t[t.length / 2 - 1] + t[t.length / 2]) / 2; };
const image = await b.decodeImage(bytes);
const recompressed = await b.recompressJpeg(image);
const rowsOut = [];
for (const id of process.env.COMPARE_KERNELS?.split(',') ?? KERNELS) {
  const ta = [], tb = [], ca = [], cb = [];
  // Wall time, and the process's CPU time (user + system: on a loaded machine the wall time also counts the time
  // other processes held the core, the CPU time does not).
  const timed = (run, wall, cpu) => {
    const c = process.cpuUsage(), t = performance.now();
    run();
    wall.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  };
  a.kernelRegistry[id].run({ image, recompressed }); b.kernelRegistry[id].run({ image, recompressed });
  for (let i = 0; i < reps; i++) {
    timed(() => a.kernelRegistry[id].run({ image, recompressed }), ta, ca);
    timed(() => b.kernelRegistry[id].run({ image, recompressed }), tb, cb);
  }
  rowsOut.push({ id, 'before ms': median(ta).toFixed(1), 'after ms': median(tb).toFixed(1), 'after/before': (median(tb) / median(ta)).toFixed(3),
    'CPU before ms': median(ca).toFixed(1), 'CPU after ms': median(cb).toFixed(1), 'CPU after/before': (median(cb) / median(ca)).toFixed(3) });
}
console.table(rowsOut);
if (process.env.COMPARE_WHOLE === '0') process.exit(0);
const poolA = new a.ForensicsPool({ threads: 2 }), poolB = new b.ForensicsPool({ threads: 2 });
for (let i = 0; i < 3; i++) { await a.analyzeImage(bytes, { pool: poolA, kernels: KERNELS }); await b.analyzeImage(bytes, { pool: poolB, kernels: KERNELS }); }
const res = { 'pool before': [], 'pool after': [], 'serial before': [], 'serial after': [] };
for (let i = 0; i < reps; i++) {
  for (const [name, fn] of [['pool before', () => a.analyzeImage(bytes, { pool: poolA, kernels: KERNELS })], ['pool after', async () => {
    const analysis = await b.analyzeImage(bytes, { pool: poolB, kernels: KERNELS });
    if (process.env.COMPARE_RELEASE === '1') poolB.releaseResults(analysis);
  }],
    ['serial before', () => a.analyzeImage(bytes, { kernels: KERNELS })], ['serial after', () => b.analyzeImage(bytes, { kernels: KERNELS })]]) {
    const t = performance.now(); await fn(); res[name].push(performance.now() - t);
  }
}
for (const [k, v] of Object.entries(res)) console.log(`${k.padEnd(14)} decode + ${KERNELS.length} kernels: median ${median(v).toFixed(0)} ms (${v.map((x) => x.toFixed(0)).join(' ')})`);
await poolA.close(); await poolB.close();
console.log(`load at end ${load()}`);
