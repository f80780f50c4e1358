// Speed of the JPEG-domain kernels of @content-analysis/forensics (dq-aligned, dq-nonaligned, jpeg-grid, jpeg-ghost),
// the JPEG coefficient reader and the fused map, on a real camera photo at its own resolution (12.2 MP, 4032x3024,
// c2pa-public-testfiles/truepic-20230212-camera.jpg), each on this thread, against the decode floor measured in the
// same run: sharp's decode of the same file to 8-bit pixels (decodeImage). Prints the load average before and after.
// Run after building: `node_modules/.bin/tsc -b packages/forensics && nice -n 10 node benchmarks/forensics/jpeg.mjs [iterations]`
// Reads $CONTENT_ANALYSIS_DATASETS (default ../shared/datasets from the repository root); skips when the photo is absent.
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const f = await import(join(root, 'packages/forensics/dist/index.js'));
const datasets = process.env.CONTENT_ANALYSIS_DATASETS ?? resolve(root, '../shared/datasets');
const photo = join(datasets, 'images/c2pa-public-testfiles/truepic-20230212-camera.jpg');
if (!existsSync(photo)) {
  console.log(`skipping: ${photo} not found (set CONTENT_ANALYSIS_DATASETS)`);
  process.exit(0);
}
const iterations = Number(process.argv[2] ?? 3);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), Node ${process.version}, load average (1/5/15 min) at start: ${load()}`);

const bytes = readFileSync(photo);
const image = await f.decodeImage(bytes);
const dct = f.readJpegCoefficients(bytes);
console.log(`${photo.split('/').pop()}: ${image.width}x${image.height} (${((image.width * image.height) / 1e6).toFixed(1)} MP), ${iterations} iterations each after one warm-up`);

const bench = new Bench({ time: 0, iterations, warmupTime: 0, warmupIterations: 1 });
bench.add('decode (floor: sharp to 8-bit RGB)', async () => { await f.decodeImage(bytes); });
bench.add('readJpegCoefficients', () => { f.readJpegCoefficients(bytes); });
const outcomes = [];
for (const id of ['dq-aligned', 'dq-nonaligned', 'jpeg-grid', 'jpeg-ghost']) {
  const kernel = f.kernelRegistry[id];
  const input = { image, ...(id === 'dq-aligned' || id === 'jpeg-ghost' ? { dct } : {}) };
  outcomes.push({ state: 'completed', id, version: kernel.version, ms: 0, result: kernel.run(input) });
  bench.add(id, () => { kernel.run(input); });
  if (id === 'dq-aligned' || id === 'jpeg-ghost') bench.add(`${id} (from the pixels' DCT)`, () => { kernel.run({ image }); });
}
bench.add('fuseMaps (of the four maps)', () => { f.fuseMaps(outcomes, image.width, image.height); });
await bench.run();
const floor = bench.tasks[0].result.latency.mean;
console.log('\n| 12 MP camera photo | ms (mean) | x decode floor |\n|---|---|---|');
for (const t of bench.tasks) {
  if (t.result.state !== 'completed') throw new Error(`${t.name}: ${t.result.state} ${t.result.error ?? ''}`);
  console.log(`| ${t.name} | ${t.result.latency.mean.toFixed(0)} | ${(t.result.latency.mean / floor).toFixed(2)} |`);
}
console.log(`\nload average at end: ${load()}`);
