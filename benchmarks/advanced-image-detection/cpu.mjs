// CPU time of the whole advanced analysis (analyzeImageAuthenticity with a 2-thread ForensicsPool and the engine's
// classifier, as bench.mjs runs it) on the same real ~12 MP camera photos (`cameraPhotos12MP`), counted by
// process.cpuUsage() over every thread of the process (pool workers, the watermark thread, sharp's and ONNX's
// threads), against the CPU time of sharp's decode of the same file in the same run. On a shared machine the wall time
// of a run mostly measures the other jobs; the CPU a run takes moves much less with the load, so two builds compare
// by it. One warm-up analysis per photo, then `rounds` rounds over the photos (a fresh photo each run); medians.
// Run: npm run build && nice -n 10 node benchmarks/advanced-image-detection/cpu.mjs [rounds, default 2]
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { analyzeImageAuthenticity } from '../../packages/engine/dist/index.js';
import { classifyImage } from '../../packages/classifiers/dist/index.js';
import { ForensicsPool } from '../../packages/forensics/dist/index.js';
import { cameraPhotos12MP } from '../forensics/testImage.mjs';
const root = fileURLToPath(new URL('../../', import.meta.url));
const sharp = createRequire(join(root, 'packages/forensics/package.json'))('sharp');
const photos = await cameraPhotos12MP(sharp);
if (photos.length === 0) {
  console.log('skipping: no camera photos (set CONTENT_ANALYSIS_DATASETS, and DIGICAM_CORPUS_GIT for more)');
  process.exit(0);
}
const pool = new ForensicsPool({ threads: 2 });
const classifier = { classify: classifyImage };
const rounds = Number(process.argv[2] ?? 2);
console.log('load at start', loadavg().map((l) => l.toFixed(2)).join(' '));
for (const p of photos) await analyzeImageAuthenticity(p.bytes, { pool, classifier });
const cpu = [], wall = [], dec = [];
for (let r = 0; r < rounds; r++) for (const p of photos) {
  let c = process.cpuUsage();
  await sharp(p.bytes).raw().toBuffer();
  let u = process.cpuUsage(c);
  dec.push((u.user + u.system) / 1000);
  c = process.cpuUsage();
  const t = performance.now();
  await analyzeImageAuthenticity(p.bytes, { pool, classifier });
  u = process.cpuUsage(c); cpu.push((u.user + u.system) / 1000); wall.push(performance.now() - t);
}
const med = (a) => { const v = [...a].sort((x, y) => x - y), h = v.length >> 1; return v.length % 2 ? v[h] : (v[h - 1] + v[h]) / 2; };
console.log(`whole analysis, ${cpu.length} runs: CPU ${med(cpu).toFixed(0)} ms (median, all threads), wall ${med(wall).toFixed(0)} ms; sharp decode CPU ${med(dec).toFixed(0)} ms; CPU ratio ${(med(cpu) / med(dec)).toFixed(2)}`);
console.log('load at end', loadavg().map((l) => l.toFixed(2)).join(' '));
await pool.close();
