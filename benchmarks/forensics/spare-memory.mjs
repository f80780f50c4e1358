// What a pool keeps after analyses of a large image: decode plus every kernel of the advanced analysis on a 7000 x
// 7000 (49 MP) JPEG in a 2-thread ForensicsPool, the results released after each run (pool.releaseResults, as the
// engine does), then the process's resident memory after a garbage collection of this thread, and the pool's spare
// bytes where the build reports them (pool.spareBytes). The spare list is what stays allocated between requests.
// `node --expose-gc benchmarks/forensics/spare-memory.mjs [runs, default 2]`; FORENSICS_DIST=<dir> measures another
// build (as bench.mjs).
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const f = await import(join(process.env.FORENSICS_DIST ? resolve(process.env.FORENSICS_DIST) : join(root, 'packages/forensics/dist'), 'index.js'));
const sharp = createRequire(join(root, 'packages/forensics/package.json'))('sharp');
const runs = Number(process.argv[2] ?? 2);
const w = 7000, h = 7000;
// A smooth field with noise, as a camera JPEG (quality 90, 4:2:0): the decode splits in bands and every kernel runs.
const rgb = Buffer.alloc(w * h * 3);
for (let y = 0, i = 0; y < h; y++) for (let x = 0; x < w; x++, i += 3) {
  const v = 128 + 60 * Math.sin(x / 300) * Math.cos(y / 250);
  for (let c = 0; c < 3; c++) rgb[i + c] = Math.max(0, Math.min(255, Math.round(v + 20 * c + ((x * 7919 + y * 104729 + c) % 13) - 6)));
}
const jpeg = new Uint8Array(await sharp(rgb, { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: 90 }).toBuffer());
const mib = (n) => (n / 1048576).toFixed(0);
const pool = new f.ForensicsPool({ threads: 2 });
console.log(`${w}x${h} JPEG ${(jpeg.length / 1e6).toFixed(1)} MB; resident before ${mib(process.memoryUsage().rss)} MiB`);
for (let i = 0; i < runs; i++) {
  const analysis = await f.analyzeImage(jpeg, { pool });
  const failed = analysis.kernels.find((o) => o.state !== 'completed');
  if (failed) throw new Error(`${failed.id}: ${failed.error.message}`);
  pool.releaseResults(analysis);
}
globalThis.gc?.();
await new Promise((r) => setTimeout(r, 200));
console.log(`after ${runs} analyses, released: resident ${mib(process.memoryUsage().rss)} MiB; pool spare ${pool.spareBytes === undefined ? '(not reported by this build)' : `${mib(pool.spareBytes)} MiB`}`);
await pool.close();
