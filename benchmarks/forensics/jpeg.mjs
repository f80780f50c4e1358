// Speed of the JPEG-domain kernels of @content-analysis/forensics (dq-aligned, dq-nonaligned, jpeg-grid, jpeg-ghost),
// the JPEG coefficient reader and the fused map, on a real camera photo at its own resolution (12.2 MP, 4032x3024,
// c2pa-public-testfiles/truepic-20230212-camera.jpg), each on this thread, against the decode floor measured in the
// same run: sharp's decode of the same file to 8-bit pixels (decodeImage). Prints the load average before and after.
// Run after building: `node_modules/.bin/tsc -b packages/forensics && nice -n 10 node benchmarks/forensics/jpeg.mjs [iterations]`
// With FORENSICS_BEFORE=<a copy of an earlier build's packages/forensics/dist, kept inside packages/forensics so its
// imports resolve> every row is also timed on that build in the same run, interleaved, with the ratio before / now.
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

const beforeDir = process.env.FORENSICS_BEFORE;
const b = beforeDir ? await import(join(resolve(beforeDir), 'index.js')) : undefined;
const bytes = readFileSync(photo);
const image = await f.decodeImage(bytes);
const dct = f.readJpegCoefficients(bytes);
console.log(`${photo.split('/').pop()}: ${image.width}x${image.height} (${((image.width * image.height) / 1e6).toFixed(1)} MP), ${iterations} iterations each after one warm-up`);

const bench = new Bench({ time: 0, iterations, warmupTime: 0, warmupIterations: 1 });
// Each row as [name, now, before?]: with a before build the two alternate row by row, so both see the same load.
const rows = [];
const add = (name, now, before) => {
  rows.push(name);
  bench.add(name, now);
  if (b && before) bench.add(`${name} [before]`, before);
};
add('decode (floor: sharp to 8-bit RGB)', async () => { await f.decodeImage(bytes); });
add('readJpegCoefficients', () => { f.readJpegCoefficients(bytes); }, () => { b.readJpegCoefficients(bytes); });
const outcomes = [];
for (const id of ['dq-aligned', 'dq-nonaligned', 'jpeg-grid', 'jpeg-ghost']) {
  const kernel = f.kernelRegistry[id], old = b?.kernelRegistry[id];
  const input = { image, ...(id === 'dq-aligned' || id === 'jpeg-ghost' ? { dct } : {}) };
  outcomes.push({ state: 'completed', id, version: kernel.version, ms: 0, result: kernel.run(input) });
  add(id, () => { kernel.run(input); }, () => { old.run(input); });
  if (id === 'dq-aligned' || id === 'jpeg-ghost') add(`${id} (from the pixels' DCT)`, () => { kernel.run({ image }); }, () => { old.run({ image }); });
}
add('fuseMaps (of the four maps)', () => { f.fuseMaps(outcomes, image.width, image.height); }, () => { b.fuseMaps(outcomes, image.width, image.height); });
await bench.run();
const mean = (name) => {
  const t = bench.tasks.find((x) => x.name === name);
  if (!t) return undefined;
  if (t.result.state !== 'completed') throw new Error(`${t.name}: ${t.result.state} ${t.result.error ?? ''}`);
  return t.result.latency.mean;
};
const floor = mean(rows[0]);
console.log(`\n| 12 MP camera photo | ms (mean) | x decode floor |${b ? ' before ms | before / now |' : ''}\n|---|---|---|${b ? '---|---|' : ''}`);
for (const name of rows) {
  const now = mean(name), before = b ? mean(`${name} [before]`) : undefined;
  console.log(`| ${name} | ${now.toFixed(0)} | ${(now / floor).toFixed(2)} |${b ? (before === undefined ? ' | |' : ` ${before.toFixed(0)} | ${(before / now).toFixed(2)} |`) : ''}`);
}
console.log(`\nload average at end: ${load()}`);
