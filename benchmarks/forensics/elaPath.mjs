// ELA's whole path against its codec floor on real camera photos (testImage.mjs's cameraPhotos), alternated run by
// run in one process, with wall and CPU time (user + system of every thread of the process, sharp's included): on a
// loaded machine the wall time also counts the time other processes held the cores, the CPU time does not, and the
// path's use of a second core shows only in its wall time. Minor page faults (fresh memory's first touch) per run too:
// decodeImage's pixels and errorLevelRoundTrip's map are in recycled memory (a run reuses that of an earlier run the
// collector has taken, as for a caller that drops its results), the floor's sharp buffers are fresh in every run.
//  - floor: sharp's decode + JPEG encode with recompressJpeg's settings (quality 90, 4:2:0, standard tables, no
//    mozjpeg) + decode, as bench.mjs defines it;
//  - path: decodeImage + errorLevelRoundTrip (what bench.mjs times as ELA's whole path);
//  - composed: decodeImage + recompressJpeg + errorLevelAnalysis (the two calls errorLevelRoundTrip replaces).
// Run after building: `node benchmarks/forensics/elaPath.mjs [photos] [repetitions]` (default all photos, 9).
// ELA_OTHER_DIST=<dir>: also alternates another build's path (e.g. a copy of main's dist/ with its wasm/ folder beside
// it and a package.json of `"type": "module"`, where it resolves sharp), for a same-run before/after.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cameraPhotoPath, cameraPhotos, datasetsDir } from './testImage.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const f = await import(join(root, 'packages/forensics/dist/index.js'));
const other = process.env.ELA_OTHER_DIST ? await import(join(resolve(process.env.ELA_OTHER_DIST), 'index.js')) : undefined;
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
    path: async () => { await f.errorLevelRoundTrip(await f.decodeImage(bytes, { recycle: true }), {}, {}, true); },
    composed: async () => { const image = await f.decodeImage(bytes); f.errorLevelAnalysis(image, await f.recompressJpeg(image)); },
    ...(other ? { other: async () => { await other.errorLevelRoundTrip(await other.decodeImage(bytes, { recycle: true }), {}, {}, true); } } : {}),
  };
  const wall = {}, cpu = {}, faults = {};
  for (const task of Object.keys(tasks)) { wall[task] = []; cpu[task] = []; faults[task] = []; }
  for (const run of Object.values(tasks)) await run();
  for (let i = 0; i < reps; i++) {
    for (const [task, run] of Object.entries(tasks)) {
      const before = process.resourceUsage(), t = performance.now();
      await run();
      wall[task].push(performance.now() - t);
      const after = process.resourceUsage();
      cpu[task].push((after.userCPUTime + after.systemCPUTime - before.userCPUTime - before.systemCPUTime) / 1000);
      faults[task].push(after.minorPageFault - before.minorPageFault);
    }
  }
  const w = Object.fromEntries(Object.keys(tasks).map((k) => [k, median(wall[k])])), c = Object.fromEntries(Object.keys(tasks).map((k) => [k, median(cpu[k])]));
  rows.push({
    photo: name, file: relative(datasetsDir, path), 'floor ms (CPU)': `${w.floor.toFixed(0)} (${c.floor.toFixed(0)})`,
    'path ms (CPU)': `${w.path.toFixed(0)} (${c.path.toFixed(0)})`, 'path / floor': w.path / w.floor, 'CPU path / floor': c.path / c.floor,
    'page faults floor / path': `${median(faults.floor)} / ${median(faults.path)}`,
    'composed ms (CPU)': `${w.composed.toFixed(0)} (${c.composed.toFixed(0)})`, 'composed / floor': w.composed / w.floor, 'CPU composed / floor': c.composed / c.floor,
    ...(other ? { 'other build ms (CPU)': `${w.other.toFixed(0)} (${c.other.toFixed(0)})`, 'other / floor': w.other / w.floor, 'CPU other / floor': c.other / c.floor, 'other page faults': String(median(faults.other)) } : {}),
  });
}
console.table(rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'number' ? v.toFixed(3) : v]))));
console.log(`load average at end ${load()}`);
