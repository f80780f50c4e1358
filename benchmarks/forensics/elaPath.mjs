// ELA's whole path against its codec floor on real camera photos (testImage.mjs's cameraPhotos), alternated run by
// run in one process, with wall and CPU time (user + system of every thread of the process, sharp's included): on a
// loaded machine the wall time also counts the time other processes held the cores, the CPU time does not, and the
// path's use of a second core shows only in its wall time.
//  - floor: sharp's decode + JPEG encode with recompressJpeg's settings (quality 90, 4:2:0, standard tables, no
//    mozjpeg) + decode, as bench.mjs defines it;
//  - path: decodeImage + errorLevelRoundTrip (what bench.mjs times as ELA's whole path);
//  - composed: decodeImage + recompressJpeg + errorLevelAnalysis (the two calls errorLevelRoundTrip replaces).
// Run after building: `node benchmarks/forensics/elaPath.mjs [photos] [repetitions]` (default all photos, 9).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cameraPhotoPath, cameraPhotos, datasetsDir } from './testImage.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const f = await import(join(root, 'packages/forensics/dist/index.js'));
const sharp = createRequire(join(root, 'packages/forensics/package.json'))('sharp');
const photos = (process.argv[2] ?? Object.keys(cameraPhotos).join(',')).split(',');
const reps = Number(process.argv[3] ?? 9);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const median = (v) => { const t = [...v].sort((x, y) => x - y); return t.length % 2 ? t[t.length >> 1] : (t[t.length / 2 - 1] + t[t.length / 2]) / 2; };

console.log(`ELA whole path against its codec floor, ${reps} alternated repetitions; load average (1/5/15 min) at start ${load()}`);
const rows = [];
for (const name of photos) {
  const path = cameraPhotoPath(name);
  const bytes = readFileSync(path);
  const tasks = {
    floor: async () => {
      const px = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
      const again = await sharp(px.data, { raw: px.info }).jpeg({ quality: 90, chromaSubsampling: '4:2:0', optimiseCoding: false, mozjpeg: false }).toBuffer();
      await sharp(again).toColourspace('srgb').raw().toBuffer();
    },
    path: async () => { await f.errorLevelRoundTrip(await f.decodeImage(bytes)); },
    composed: async () => { const image = await f.decodeImage(bytes); f.errorLevelAnalysis(image, await f.recompressJpeg(image)); },
  };
  const wall = { floor: [], path: [], composed: [] }, cpu = { floor: [], path: [], composed: [] };
  for (const run of Object.values(tasks)) await run();
  for (let i = 0; i < reps; i++) {
    for (const [task, run] of Object.entries(tasks)) {
      const c = process.cpuUsage(), t = performance.now();
      await run();
      wall[task].push(performance.now() - t);
      const d = process.cpuUsage(c);
      cpu[task].push((d.user + d.system) / 1000);
    }
  }
  const w = Object.fromEntries(Object.keys(tasks).map((k) => [k, median(wall[k])])), c = Object.fromEntries(Object.keys(tasks).map((k) => [k, median(cpu[k])]));
  rows.push({
    photo: name, file: relative(datasetsDir, path), 'floor ms (CPU)': `${w.floor.toFixed(0)} (${c.floor.toFixed(0)})`,
    'path ms (CPU)': `${w.path.toFixed(0)} (${c.path.toFixed(0)})`, 'path / floor': w.path / w.floor, 'CPU path / floor': c.path / c.floor,
    'composed ms (CPU)': `${w.composed.toFixed(0)} (${c.composed.toFixed(0)})`, 'composed / floor': w.composed / w.floor, 'CPU composed / floor': c.composed / c.floor,
  });
}
console.table(rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'number' ? v.toFixed(3) : v]))));
console.log(`load average at end ${load()}`);
