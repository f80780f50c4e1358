// Kernels on the main thread against sharp's decode of the same real camera photo (testImage.mjs's cameraPhotos), in
// one process, run by run alternated: decode, then each kernel of this build and, with FORENSICS_BASE=<dist dir>
// (e.g. a copy of dist/ from an earlier commit inside packages/forensics, with its wasm/ folder beside it), of that
// build. Medians of wall time and of the process's CPU time (user + system: on a loaded machine the wall time also
// counts the time other processes held the core, the CPU time does not), each as a ratio to the decode's median of
// the same run, and the system part of the CPU time (page faults of fresh output buffers). Issue 35's target for the
// noise, CFA and edge kernels is < 50 ms at 12 MP, about 0.55x a quiet 90 ms decode.
// `node benchmarks/forensics/anchored.mjs [photos] [kernels]` after building; photos and kernels comma-separated
// (default pixel5,nikonZ9 and wavelet-noise,median-residual); RUNS=<n> (default 21) alternated runs after 3 warm-ups.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cameraPhotoPath } from './testImage.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const current = await import(join(root, 'packages/forensics/dist/index.js'));
const base = process.env.FORENSICS_BASE ? await import(join(resolve(process.env.FORENSICS_BASE), 'index.js')) : undefined;
const sharp = createRequire(join(root, 'packages/forensics/package.json'))('sharp');
const photos = (process.argv[2] ?? 'pixel5,nikonZ9').split(',');
const kernels = (process.argv[3] ?? 'wavelet-noise,median-residual').split(',');
const RUNS = Number(process.env.RUNS ?? 21);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const median = (v) => { const t = [...v].sort((x, y) => x - y); return t.length % 2 ? t[t.length >> 1] : (t[t.length / 2 - 1] + t[t.length / 2]) / 2; };

console.log(`Node ${process.version}, sharp ${sharp.versions.sharp}; ${RUNS} alternated runs per task; load at start ${load()}`);
for (const photo of photos) {
  const bytes = readFileSync(cameraPhotoPath(photo));
  const image = await current.decodeImage(bytes);
  const tasks = [['sharp decode (anchor)', () => sharp(bytes).raw().toBuffer()]];
  for (const id of kernels) {
    if (base) tasks.push([`${id} (base)`, () => base.kernelRegistry[id].run({ image })]);
    tasks.push([id, () => current.kernelRegistry[id].run({ image })]);
  }
  const times = tasks.map(() => ({ wall: [], cpu: [], system: [] }));
  for (const [, run] of tasks) for (let i = 0; i < 3; i++) await run();
  for (let r = 0; r < RUNS; r++) {
    for (let k = 0; k < tasks.length; k++) {
      const c = process.cpuUsage(), t = performance.now();
      await tasks[k][1]();
      const wall = performance.now() - t, d = process.cpuUsage(c);
      times[k].wall.push(wall);
      times[k].cpu.push((d.user + d.system) / 1000);
      times[k].system.push(d.system / 1000);
    }
  }
  const decodeWall = median(times[0].wall), decodeCpu = median(times[0].cpu);
  console.log(`\n${photo}: ${image.width}x${image.height} (${(image.width * image.height / 1e6).toFixed(1)} MP); load ${load()}`);
  console.table(Object.fromEntries(tasks.map(([name], k) => [name, {
    'wall ms': median(times[k].wall).toFixed(1), 'x decode wall': (median(times[k].wall) / decodeWall).toFixed(2),
    'CPU ms': median(times[k].cpu).toFixed(1), 'x decode CPU': (median(times[k].cpu) / decodeCpu).toFixed(2), 'of which system ms': median(times[k].system).toFixed(1),
  }])));
}
console.log(`load at end ${load()}`);
