// Focused benchmark of the cfa-variance kernel on the real camera photos of bench.mjs (testImage.mjs's cameraPhotos):
// tinybench medians of sharp's decode of the file, cfa-variance on the main thread and sharp's decode again, in one
// Bench; the ratio uses the mean of the two decode medians. Also the process CPU time per run (median over the runs;
// for the decode, sharp's threads included), which a loaded machine disturbs less than wall time, its ratio, and the
// load average at start and end.
// Run after building: `node_modules/.bin/tsc -b packages/forensics && node benchmarks/forensics/cfaVariance.mjs [photos]`
// BENCH_TIME=<ms> (default 3000) and BENCH_RUNS=<n> (default 15) as in bench.mjs; FORENSICS_DIST=<dir> times another
// build of the package.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { cameraPhotoPath, cameraPhotos } from './testImage.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const f = await import(join(process.env.FORENSICS_DIST ? resolve(process.env.FORENSICS_DIST) : join(root, 'packages/forensics/dist'), 'index.js'));
const sharp = createRequire(join(root, 'packages/forensics/package.json'))('sharp');
const photos = (process.argv[2] ?? Object.keys(cameraPhotos).join(',')).split(',');
const TIME = Number(process.env.BENCH_TIME ?? 3000), RUNS = Number(process.env.BENCH_RUNS ?? 15);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const ms = (v) => v.toFixed(v < 10 ? 1 : 0);
const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];

console.log(`Node ${process.version}, sharp ${sharp.versions.sharp}; load average (1/5/15 min) at start: ${load()}`);
const rows = {};
for (const name of photos) {
  const bytes = readFileSync(cameraPhotoPath(name));
  const image = await f.decodeImage(bytes);
  const cpu = [];
  const kernel = () => {
    const before = process.cpuUsage();
    f.kernelRegistry['cfa-variance'].run({ image });
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
  };
  const decodeCpu = [];
  const decode = async () => {
    const before = process.cpuUsage();
    await sharp(bytes).raw().toBuffer();
    const used = process.cpuUsage(before);
    decodeCpu.push((used.user + used.system) / 1000);
  };
  const bench = new Bench({ time: TIME, iterations: RUNS, warmupIterations: 3, warmupTime: 0 });
  bench.add('decode', decode).add('cfa-variance', kernel).add('decode (end)', decode);
  await bench.run();
  const [d0, k, d1] = bench.tasks.map((t) => t.result.latency.p50);
  rows[`${name} ${image.width}x${image.height}`] = {
    'decode ms': `${ms(d0)} / ${ms(d1)}`, 'cfa-variance ms': ms(k), 'x decode': (k / ((d0 + d1) / 2)).toFixed(2),
    'cfa-variance CPU ms': ms(median(cpu)), 'decode CPU ms': ms(median(decodeCpu)), 'CPU x decode': (median(cpu) / median(decodeCpu)).toFixed(2),
    runs: bench.tasks[1].result.latency.samplesCount, load: load(),
  };
}
console.table(rows);
console.log(`load average (1/5/15 min) at end: ${load()}`);
