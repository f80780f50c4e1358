// Benchmark of @content-analysis/forensics: megapixels per second per kernel on 1, 4 and 12 MP images; ELA (JPEG
// round trip + kernel) against the floor of sharp's own decode + JPEG re-encode + decode of the same image; the worker
// pool's speed-up for one image's kernels, and each kernel alone in the pool (split into row bands). All ratios are
// measured in this run.
// Run after building: `node_modules/.bin/tsc -b packages/forensics && node benchmarks/forensics/bench.mjs [sizes]`
// e.g. `node benchmarks/forensics/bench.mjs 1,4` to skip 12 MP. FORENSICS_DIST=<dir> benchmarks another build of the
// package (e.g. a copy of dist/ from the previous commit) for a before/after comparison under the same conditions.
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Bench } from 'tinybench';
import { testJpeg } from './testImage.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const f = await import(join(process.env.FORENSICS_DIST ? resolve(process.env.FORENSICS_DIST) : join(root, 'packages/forensics/dist'), 'index.js'));
const sharp = createRequire(join(root, 'packages/forensics/package.json'))('sharp');
const sizes = (process.argv[2] ?? '1,4,12').split(',').map(Number);
const SIDES = { 1: [1152, 864], 4: [2304, 1728], 12: [4000, 3000] };

async function mean(name, fn, iterations) {
  const bench = new Bench({ time: 0, iterations, warmupTime: 0, warmupIterations: 1 });
  bench.add(name, fn);
  await bench.run();
  const r = bench.tasks[0].result;
  if (r.state !== 'completed') throw new Error(`${name}: ${r.state} ${r.error ?? ''}`);
  return r.latency.mean;
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), Node ${process.version}, load average (1/5/15 min) at start: ${load()}`);

/**
 * Cores this process actually gets: the same fixed integer loop in 1 and in 2 worker threads at once; wall time of
 * 2 threads over 1 thread is 1.0 when two cores are free and 2.0 when the threads share one (other jobs, cgroup
 * quota). The pool's speed-up cannot exceed 2 / that ratio.
 */
async function parallelism() {
  const code = `const { parentPort } = require('node:worker_threads'); let s = 0; for (let i = 0; i < 2e8; i++) s = (s + i) % 1000003; parentPort.postMessage(s);`;
  const run = async (n) => {
    const started = performance.now();
    await Promise.all(Array.from({ length: n }, () => new Promise((resolve, reject) => {
      const worker = new Worker(code, { eval: true });
      worker.once('message', () => { resolve(); void worker.terminate(); });
      worker.once('error', reject);
    })));
    return performance.now() - started;
  };
  await run(1);
  const one = await run(1), two = await run(2);
  return two / one;
}
const spin = await parallelism();
console.log(`parallelism probe: 2 threads take ${spin.toFixed(2)}x the wall time of 1 (1.0 = two free cores, 2.0 = one); best possible pool speed-up here ~${(2 / spin).toFixed(2)}`);
const rows = [];
const poolRows = [];
const pool = new f.ForensicsPool({ threads: 2 });
for (const mp of sizes) {
  const [w, h] = SIDES[mp];
  const jpeg = await testJpeg(sharp, w, h);
  const image = await f.decodeImage(jpeg);
  const iterations = mp >= 12 ? 3 : mp >= 4 ? 5 : 15; // more at 1 MP, where a run is short and noisy
  const floor = await mean('sharp floor', async () => {
    const px = await sharp(jpeg).raw().toBuffer();
    const again = await sharp(px, { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: 90, optimiseCoding: false }).toBuffer();
    await sharp(again).raw().toBuffer();
  }, iterations);
  const decode = await mean('decode', () => f.decodeImage(jpeg), iterations);
  const recompressed = await f.recompressJpeg(image);
  const elaTotal = await mean('ela total', async () => {
    const img = await f.decodeImage(jpeg);
    f.errorLevelAnalysis(img, await f.recompressJpeg(img));
  }, iterations);
  // The same path with the difference in the pool's two threads (as analyzeImage runs it); a fresh wrapper object per
  // run so the pool copies the pixels to shared memory each time, as for a new image.
  const elaPool = await mean('ela total, pool', async () => {
    const img = await f.decodeImage(jpeg);
    await pool.run('ela', { image: img, recompressed: await f.recompressJpeg(img) });
  }, iterations);
  const row = { MP: mp, 'floor ms': floor.toFixed(0), 'ELA total ms': elaTotal.toFixed(0), 'ELA/floor': (elaTotal / floor).toFixed(2),
    'ELA pool ms': elaPool.toFixed(0), 'ELA pool/floor': (elaPool / floor).toFixed(2) };
  for (const id of f.KERNEL_IDS) {
    const ms = await mean(id, () => f.kernelRegistry[id].run({ image, recompressed }), iterations);
    row[`${id} ms`] = ms.toFixed(0);
    row[`${id} MP/s`] = ((w * h) / 1e6 / (ms / 1000)).toFixed(1);
    // One kernel alone in the 2-thread pool (row bands where it has them); a fresh wrapper per run, so the pixels
    // are copied to shared memory and the luma planes computed again each time (both included).
    await pool.run(id, { image: { ...image }, recompressed });
    const pooledMs = await mean(`${id} pool`, () => pool.run(id, { image: { ...image }, recompressed }), iterations);
    row[`${id} pool ms`] = pooledMs.toFixed(0);
  }
  rows.push(row);
  // The main thread has run every kernel in the per-kernel benchmarks above; the workers get the same warm-up, so
  // the comparison is not of optimised code against code still being compiled.
  for (let i = 0; i < 3; i++) await f.analyzeImage(image, { pool });
  const serial = await mean('serial', () => f.analyzeImage(image), iterations);
  const pooled = await mean('pool', () => f.analyzeImage(image, { pool }), iterations);
  const whole = await mean('whole', () => f.analyzeImage(jpeg, { pool }), iterations);
  poolRows.push({ MP: mp, 'decode ms': decode.toFixed(0), 'all kernels serial ms': serial.toFixed(0), 'pool (2 threads) ms': pooled.toFixed(0),
    'speed-up': (serial / pooled).toFixed(2), 'decode+all kernels in pool ms': whole.toFixed(0) });
}
await pool.close();
for (const row of rows) {
  console.log(`\n${row.MP} MP: sharp floor (decode + q90 encode + decode) ${row['floor ms']} ms, ELA (decode + round trip + kernel) ${row['ELA total ms']} ms, ratio ${row['ELA/floor']}; with the kernel in the pool ${row['ELA pool ms']} ms, ratio ${row['ELA pool/floor']}`);
  console.table(Object.fromEntries(f.KERNEL_IDS.map((id) => [id, { ms: row[`${id} ms`], 'MP/s': row[`${id} MP/s`], 'alone in pool ms': row[`${id} pool ms`] }])));
}
console.log('\nWorker pool (2 threads, one image, every kernel):');
console.table(poolRows);
console.log(`parallelism probe at end: 2 threads take ${(await parallelism()).toFixed(2)}x the wall time of 1`);
console.log(`load average (1/5/15 min) at end: ${load()}`);
