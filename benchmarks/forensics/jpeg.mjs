// Speed of the JPEG-domain kernels of @content-analysis/forensics (dq-aligned, dq-nonaligned, jpeg-grid, jpeg-ghost),
// the JPEG coefficient reader and the fused map of the four, on real camera photos of about 12 MP at their own
// resolution (`cameraPhotos12MP` in testImage.mjs: the shared datasets' two, five more cameras when the digicam_corpus
// mirror is on the machine), each on this thread, against the decode floor measured in the same run: sharp's decode
// of the same file to 8-bit pixels (decodeImage). Every row takes the photos in turn (a fresh image per run, the same
// runs of each photo in every row; decoded pixels and coefficients are prepared before timing), tinybench medians
// after one warm-up run per row. Prints the load average before and after.
// Run after building: `node_modules/.bin/tsc -b packages/forensics && nice -n 10 node benchmarks/forensics/jpeg.mjs [rounds, default 1]`
// With FORENSICS_BEFORE=<a copy of an earlier build's packages/forensics/dist, kept inside packages/forensics so its
// imports resolve> every row is also timed on that build in the same run, interleaved, with the ratio before / now.
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { cameraPhotos12MP } from './testImage.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const f = await import(join(root, 'packages/forensics/dist/index.js'));
const sharp = createRequire(join(root, 'packages/forensics/package.json'))('sharp');
const photos = await cameraPhotos12MP(sharp);
if (photos.length === 0) {
  console.log('skipping: no camera photos (set CONTENT_ANALYSIS_DATASETS, and DIGICAM_CORPUS_GIT for more)');
  process.exit(0);
}
const rounds = Number(process.argv[2] ?? 1);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), Node ${process.version}, load average (1/5/15 min) at start: ${load()}`);
console.log(`inputs (${photos.length}, at their own resolution): ${photos.map((p) => `${p.name} ${p.width}x${p.height}`).join(', ')}; ${rounds} round(s) of every photo per row`);

const beforeDir = process.env.FORENSICS_BEFORE;
const b = beforeDir ? await import(join(resolve(beforeDir), 'index.js')) : undefined;
const ids = ['dq-aligned', 'dq-nonaligned', 'jpeg-grid', 'jpeg-ghost'];
for (const photo of photos) {
  photo.image = await f.decodeImage(photo.bytes);
  photo.dct = f.readJpegCoefficients(photo.bytes);
  // What fuseMaps fuses: the four kernels' outcomes on this photo.
  photo.outcomes = ids.map((id) => {
    const kernel = f.kernelRegistry[id];
    const input = { image: photo.image, ...(id === 'dq-aligned' || id === 'jpeg-ghost' ? { dct: photo.dct } : {}) };
    return { state: 'completed', id, version: kernel.version, ms: 0, result: kernel.run(input) };
  });
}

const runs = rounds * photos.length;
const bench = new Bench({ time: 0, iterations: runs, warmupTime: 0, warmupIterations: 1 });
// Each row as [name, now, before?]: with a before build the two alternate row by row, so both see the same load.
const rows = [];
const add = (name, now, before) => {
  rows.push(name);
  const cycle = (fn) => { let next = 0; return () => fn(photos[next++ % photos.length]); };
  bench.add(name, cycle(now));
  if (b && before) bench.add(`${name} [before]`, cycle(before));
};
add('decode (floor: sharp to 8-bit RGB)', async (p) => { await f.decodeImage(p.bytes); });
add('readJpegCoefficients', (p) => { f.readJpegCoefficients(p.bytes); }, (p) => { b.readJpegCoefficients(p.bytes); });
for (const id of ids) {
  const kernel = f.kernelRegistry[id], old = b?.kernelRegistry[id];
  const input = (p) => ({ image: p.image, ...(id === 'dq-aligned' || id === 'jpeg-ghost' ? { dct: p.dct } : {}) });
  add(id === 'dq-aligned' || id === 'jpeg-ghost' ? `${id} (file's coefficients)` : id, (p) => { kernel.run(input(p)); }, (p) => { old.run(input(p)); });
  if (id === 'dq-aligned' || id === 'jpeg-ghost') add(`${id} (from the pixels' DCT)`, (p) => { kernel.run({ image: p.image }); }, (p) => { old.run({ image: p.image }); });
}
add('fuseMaps (of the four maps)', (p) => { f.fuseMaps(p.outcomes, p.image.width, p.image.height); }, (p) => { b.fuseMaps(p.outcomes, p.image.width, p.image.height); });
await bench.run();
const median = (name) => {
  const t = bench.tasks.find((x) => x.name === name);
  if (!t) return undefined;
  if (t.result.state !== 'completed') throw new Error(`${t.name}: ${t.result.state} ${t.result.error ?? ''}`);
  return t.result.latency.p50;
};
const floor = median(rows[0]);
console.log(`\n| ${photos.length} camera photos, ~12 MP | median ms | x decode floor |${b ? ' before ms | before / now |' : ''}\n|---|---|---|${b ? '---|---|' : ''}`);
for (const name of rows) {
  const now = median(name), before = b ? median(`${name} [before]`) : undefined;
  console.log(`| ${name} | ${now.toFixed(0)} | ${(now / floor).toFixed(2)} |${b ? (before === undefined ? ' | |' : ` ${before.toFixed(0)} | ${(before / now).toFixed(2)} |`) : ''}`);
}
console.log(`\nload average at end: ${load()}`);
