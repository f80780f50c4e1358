// Where the time of one pool analysis goes: decode plus the 7 pixel-domain kernels in a 2-thread ForensicsPool, a fresh
// copy of the camera photo's bytes per run (as bench.mjs's pool row), with every worker task traced (poolTracer.mjs):
// per task kind its worker-thread CPU (Linux /proc/thread-self/schedstat), the CPU of sharp's libvips threads (decode
// and the ELA round trip run there), of this (main) thread, and of the whole process; the workers' idle share (waits
// for dependencies, dispatch and result transfers); minor page faults (the process's, and per task its thread's); the
// garbage collections of the workers and of the main thread during the analysis (count, total ms); and the timeline of the median run. Sharp's
// decode of the same file is the anchor, timed in the same process between the runs.
// Run after building: `node_modules/.bin/tsc -b packages/forensics && node benchmarks/forensics/pool-timeline.mjs [photos]`
// photos: comma-separated cameraPhotos names (default pixel5). RUNS=<n> (default 10) after 3 warm-up runs;
// FORENSICS_DIST=<dir> traces another build (a copy of dist/ next to a package.json, as bench.mjs). RELEASE=1 gives each
// run's result maps back to the pool after the run (pool.releaseResults, opt-in; what the engine's advanced image
// detection does once its report is built); without it every result is kept, as by a caller that does not opt in.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PerformanceObserver } from 'node:perf_hooks';
import { BroadcastChannel } from 'node:worker_threads';
import { cameraPhotoPath } from './testImage.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = process.env.FORENSICS_DIST ? resolve(process.env.FORENSICS_DIST) : join(here, '../../packages/forensics/dist');
process.env.FORENSICS_TIMELINE_DIST = dist;
const f = await import(join(dist, 'index.js'));
const require = createRequire(join(here, '../../packages/forensics/package.json'));
const { Piscina } = require('piscina');
const sharp = require('sharp');
const KERNELS = ['ela', 'wavelet-noise', 'median-residual', 'cfa-variance', 'cfa-reinterpolation', 'edge-anomaly', 'spectral'];
const RUNS = Number(process.env.RUNS ?? 10);

const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
const median = (values) => { const s = [...values].sort((a, b) => a - b); return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const schedstat = (path) => { try { return Number(readFileSync(path, 'utf8').split(' ')[0]) / 1e6; } catch { return 0; } };
/** CPU ms of this thread and of sharp's libvips threads so far. */
function threadTimes() {
  let vips = 0;
  for (const task of readdirSync('/proc/self/task')) {
    try { if (readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim() === 'libvips worker') vips += schedstat(`/proc/self/task/${task}/schedstat`); } catch { /* a thread that ended */ }
  }
  return { main: schedstat('/proc/thread-self/schedstat'), vips };
}
const processCpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

// The pool's own settings (bench.mjs's pool), with this package's priority queue where the build has one.
const piscina = new Piscina({
  filename: join(here, 'poolTracer.mjs'), minThreads: 2, maxThreads: 2, stricterFIFO: true,
  ...(f.PriorityTaskQueue ? { taskQueue: new f.PriorityTaskQueue() } : {}),
});
const pool = new f.ForensicsPool({ piscina });
let events = [];
const channel = new BroadcastChannel('forensics-pool-timeline');
channel.onmessage = ({ data }) => events.push(data);
const settle = () => new Promise((r) => setTimeout(r, 50));
// This (main) thread's garbage collections, by start time.
let mainGcs = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) mainGcs.push({ t0: performance.timeOrigin + e.startTime, ms: e.duration }); }).observe({ entryTypes: ['gc'] });

console.log(`load average at start ${load()}; ${dist}; ${RUNS} runs after 3 warm-up runs; ${f.PriorityTaskQueue ? 'priority queue' : 'first in first out'}`);
for (const name of (process.argv[2] ?? 'pixel5').split(',')) {
  const bytes = readFileSync(cameraPhotoPath(name));
  const runs = [], decodes = [];
  for (let i = 0; i < RUNS + 3; i++) {
    const started = performance.now();
    await sharp(bytes).raw().toBuffer();
    if (i >= 3) decodes.push(performance.now() - started);
    await settle();
    events = [];
    const copy = Buffer.from(bytes);
    const t0 = performance.timeOrigin + performance.now(), c0 = processCpu(), threads0 = threadTimes(), faults0 = process.resourceUsage().minorPageFault;
    const analysis = await f.analyzeImage(copy, { kernels: KERNELS, pool });
    const t1 = performance.timeOrigin + performance.now(), c1 = processCpu(), threads1 = threadTimes(), faults = process.resourceUsage().minorPageFault - faults0;
    const failed = analysis.kernels.find((k) => k.state !== 'completed');
    if (failed) throw new Error(`${failed.id}: ${failed.error.message}`);
    if (process.env.RELEASE === '1') pool.releaseResults(analysis);
    await settle();
    // The workers' garbage collections that started during the analysis (reported by poolTracer.mjs as observed).
    const gcs = events.filter((e) => e.gc && e.t0 >= t0 && e.t0 <= t1), main = mainGcs.filter((e) => e.t0 >= t0 && e.t0 <= t1);
    mainGcs = [];
    if (i >= 3) runs.push({ wall: t1 - t0, cpu: c1 - c0, main: threads1.main - threads0.main, vips: threads1.vips - threads0.vips, faults, gcs: gcs.length, gcMs: gcs.reduce((a, e) => a + e.ms, 0), mainGcs: main.length, mainGcMs: main.reduce((a, e) => a + e.ms, 0), events: events.filter((e) => !e.gc).map((e) => ({ ...e, s: e.t0 - t0, e: e.t1 - t0 })) });
  }
  const busy = (run) => run.events.reduce((a, e) => a + e.e - e.s, 0);
  const decode = median(decodes), wall = median(runs.map((r) => r.wall));
  console.log(`\n== ${name}, load ${load()}: pool wall median ${wall.toFixed(0)} ms (${(wall / decode).toFixed(2)}x sharp decode ${decode.toFixed(0)} ms); CPU per run (medians): process ${median(runs.map((r) => r.cpu)).toFixed(0)} ms, libvips threads ${median(runs.map((r) => r.vips)).toFixed(0)}, main thread ${median(runs.map((r) => r.main)).toFixed(0)}, worker tasks ${median(runs.map((r) => r.events.reduce((a, e) => a + e.cpu, 0))).toFixed(0)}; workers idle ${(100 * median(runs.map((r) => 1 - busy(r) / (2 * r.wall)))).toFixed(0)}% of 2 x wall; minor page faults ${median(runs.map((r) => r.faults)).toFixed(0)} (in worker tasks ${median(runs.map((r) => r.events.reduce((a, e) => a + (e.faults ?? 0), 0))).toFixed(0)}); GCs: workers ${median(runs.map((r) => r.gcs)).toFixed(0)} taking ${median(runs.map((r) => r.gcMs)).toFixed(1)} ms, main thread ${median(runs.map((r) => r.mainGcs)).toFixed(0)} taking ${median(runs.map((r) => r.mainGcMs)).toFixed(1)} ms`);
  const kinds = new Map();
  for (const run of runs) for (const e of run.events) { const k = kinds.get(e.name) ?? { cpu: 0, wall: 0, n: 0, faults: 0 }; k.cpu += e.cpu; k.wall += e.e - e.s; k.n++; k.faults += e.faults ?? 0; kinds.set(e.name, k); }
  console.table(Object.fromEntries([...kinds].map(([k, v]) => [k, { 'tasks per run': (v.n / runs.length).toFixed(0), 'worker CPU ms per run': (v.cpu / runs.length).toFixed(1), 'wall ms per run': (v.wall / runs.length).toFixed(1), 'page faults per run': (v.faults / runs.length).toFixed(0) }])));
  const mid = [...runs].sort((a, b) => a.wall - b.wall)[runs.length >> 1];
  console.log('median run (ms from the call; T = worker thread):');
  for (const e of mid.events.sort((a, b) => a.s - b.s)) console.log(`  T${e.threadId} ${e.s.toFixed(0).padStart(5)} -> ${e.e.toFixed(0).padStart(5)}  ${e.name} (CPU ${e.cpu.toFixed(1)}, ${e.faults ?? '?'} page faults)`);
}
channel.close();
await pool.close();
await piscina.close();
console.log(`\nload average at end ${load()}`);
