// Same-process A/B of the pool row of bench.mjs: decode plus the 7 pixel-domain kernels in a 2-thread ForensicsPool,
// the camera photo's bytes decoded afresh in every run, for another build of the package (A, e.g. main's dist built
// into packages/forensics/.dist-before/dist with its wasm/ beside it) and this one (B), each with its own pool, run by
// run in turn: first with the results kept (dropped after the run without releasing them, as by a caller that does
// not opt in), then released (pool.releaseResults after each run, what the engine does), with sharp's decode of the
// file (the anchor) after each round. Per row: the median wall ms, its ratio to the decode anchor and to A's same row, the
// process CPU per run (all threads: on a loaded machine the wall time also counts waits for a core) and its minor
// page faults. The load average is printed at start and end.
// `node benchmarks/forensics/pool-ab.mjs <A dist dir> [rounds, default 15] [photo, default pixel5]` (after building).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cameraPhotoPath } from './testImage.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
if (!process.argv[2]) throw new Error('Expected the other build\'s dist directory as the first argument');
const a = await import(join(resolve(process.argv[2]), 'index.js'));
const b = await import(join(root, 'packages/forensics/dist/index.js'));
const sharp = createRequire(join(root, 'packages/forensics/package.json'))('sharp');
const rounds = Number(process.argv[3] ?? 15);
const photo = process.argv[4] ?? 'pixel5';
const bytes = readFileSync(cameraPhotoPath(photo));
const KERNELS = ['ela', 'wavelet-noise', 'median-residual', 'cfa-variance', 'cfa-reinterpolation', 'edge-anomaly', 'spectral'];
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const median = (v) => { const t = [...v].sort((x, y) => x - y); return t.length % 2 ? t[t.length >> 1] : (t[t.length / 2 - 1] + t[t.length / 2]) / 2; };
console.log(`${photo}, ${rounds} rounds (A = ${resolve(process.argv[2])}, B = this build); load at start ${load()}`);

const poolA = new a.ForensicsPool({ threads: 2 }), poolB = new b.ForensicsPool({ threads: 2 });
const analyse = (lib, pool, release) => async () => {
  const analysis = await lib.analyzeImage(bytes, { kernels: KERNELS, pool });
  const failed = analysis.kernels.find((o) => o.state !== 'completed');
  if (failed) throw new Error(`${failed.id}: ${failed.error.message}`);
  if (release) pool.releaseResults(analysis);
};
const rows = [
  ['A kept', analyse(a, poolA, false)], ['B kept', analyse(b, poolB, false)],
  ['A released', analyse(a, poolA, true)], ['B released', analyse(b, poolB, true)],
];
const res = Object.fromEntries([...rows.map(([name]) => name), 'decode'].map((name) => [name, { wall: [], cpu: [], faults: [] }]));
const timed = async (name, fn) => {
  const c = process.cpuUsage(), f = process.resourceUsage().minorPageFault, t = performance.now();
  await fn();
  res[name].wall.push(performance.now() - t);
  const d = process.cpuUsage(c);
  res[name].cpu.push((d.user + d.system) / 1000);
  res[name].faults.push(process.resourceUsage().minorPageFault - f);
};
// Kept rows, then released rows: a run's spare list depends on whether the run before it released (so the two ways
// are not alternated run by run). Each phase starts with 3 warm-up runs per build (the workers compile the kernels, the
// spare list settles); in each round the two builds go in turn, which first alternating, and sharp's decode after.
for (const phase of [[0, 1], [2, 3]]) {
  for (let i = 0; i < 3; i++) for (const k of phase) await rows[k][1]();
  for (let i = 0; i < rounds; i++) {
    for (const k of i % 2 ? [...phase].reverse() : phase) await timed(rows[k][0], rows[k][1]);
    await timed('decode', () => sharp(bytes).raw().toBuffer());
  }
}
await poolA.close(); await poolB.close();
const decode = median(res.decode.wall);
const table = {};
for (const [name, r] of Object.entries(res)) {
  const wall = median(r.wall);
  const other = name.startsWith('B ') ? median(res[`A ${name.slice(2)}`].wall) : undefined;
  table[name] = {
    'median ms': wall.toFixed(0), 'x decode': (wall / decode).toFixed(2), 'B / A': other ? (wall / other).toFixed(3) : '',
    'CPU ms': median(r.cpu).toFixed(0), 'page faults': median(r.faults).toFixed(0), 'min ms': Math.min(...r.wall).toFixed(0),
  };
}
console.table(table);
console.log(`load at end ${load()}`);
