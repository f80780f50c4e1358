// Before/after comparison in one process on the 12 MP test image of bench.mjs: another build of the package (e.g. dist/
// of the previous commit, copied next to a package.json so it resolves sharp and piscina) and this one, alternated,
// medians. Each kernel on the main thread, then decode + every kernel serially and in a 2-thread pool.
// `node benchmarks/forensics/compare.mjs <other dist dir> [repetitions]` (after building); the machine is shared and
// its speed drifts within minutes, which alternating in one process cancels better than two runs of bench.mjs.
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testJpeg } from './testImage.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
if (!process.argv[2]) throw new Error('Expected the other build\'s dist directory as the first argument');
const a = await import(join(resolve(process.argv[2]), 'index.js'));
const b = await import(join(root, 'packages/forensics/dist/index.js'));
const sharp = createRequire(join(root, 'packages/forensics/package.json'))('sharp');
const [width, height] = [4000, 3000];
const jpeg = await testJpeg(sharp, width, height);
console.log('load at start', loadavg().map((l) => l.toFixed(2)).join(' '));
const reps = Number(process.argv[3] ?? 5);
const median = (v) => { const t = [...v].sort((x, y) => x - y); return t[t.length >> 1]; };
const image = await b.decodeImage(jpeg);
const recompressed = await b.recompressJpeg(image);
// per kernel, main thread
const rowsOut = [];
for (const id of b.KERNEL_IDS) {
  const ta = [], tb = [];
  for (let i = 0; i < reps; i++) {
    let t = performance.now(); a.kernelRegistry[id].run({ image, recompressed }); ta.push(performance.now() - t);
    t = performance.now(); b.kernelRegistry[id].run({ image, recompressed }); tb.push(performance.now() - t);
  }
  rowsOut.push({ id, 'before ms': median(ta).toFixed(0), 'after ms': median(tb).toFixed(0), 'after/before': (median(tb) / median(ta)).toFixed(2) });
}
console.table(rowsOut);
const poolA = new a.ForensicsPool({ threads: 2 }), poolB = new b.ForensicsPool({ threads: 2 });
for (let i = 0; i < 3; i++) { await a.analyzeImage(jpeg, { pool: poolA }); await b.analyzeImage(jpeg, { pool: poolB }); }
const res = { 'serial before': [], 'serial after': [], 'pool before': [], 'pool after': [] };
for (let i = 0; i < reps; i++) {
  for (const [name, fn] of [['pool before', () => a.analyzeImage(jpeg, { pool: poolA })], ['pool after', () => b.analyzeImage(jpeg, { pool: poolB })],
    ['serial before', () => a.analyzeImage(jpeg)], ['serial after', () => b.analyzeImage(jpeg)]]) {
    const t = performance.now(); await fn(); res[name].push(performance.now() - t);
  }
}
for (const [k, v] of Object.entries(res)) console.log(`${k.padEnd(14)} decode + all kernels: median ${median(v).toFixed(0)} ms (${v.map((x) => x.toFixed(0)).join(' ')})`);
await poolA.close(); await poolB.close();
console.log('load at end', loadavg().map((l) => l.toFixed(2)).join(' '));
