// Benchmark of @content-analysis/forensics on real camera photos at their own resolution (testImage.mjs's
// cameraPhotos, from the shared datasets): medians (tinybench) of
//  1. each pixel-domain kernel on the main thread, against sharp's decode of the same file in the same Bench, and a
//     fresh Float32Array of the image's size filled once (the pages any full-resolution float32 map costs);
//  2. ELA's whole path (decodeImage, then errorLevelRoundTrip: recompressJpeg's q90 round trip in row bands, each band
//     compared with the image as it comes back, as analyzeImage does without a pool) against its codec floor: sharp's
//     decode + JPEG encode with recompressJpeg's settings (quality 90, 4:2:0, standard tables, no mozjpeg) + decode;
//     and, for comparison, the two calls it replaces (recompressJpeg, then errorLevelAnalysis on the joined pixels);
//  3. decode plus every pixel-domain kernel in a 2-thread ForensicsPool, the bytes decoded afresh in every run (a new
//     image each time: its pixels copied to shared memory and its luma computed again; only the released buffers of
//     earlier images are recycled, as between two requests), against sharp's decode; the same with each result's maps
//     given back to the pool after the run (pool.releaseResults, opt-in: what the engine's advanced image detection
//     does once its report and figures are built; the plain pool row keeps every result, as a caller that does not
//     opt in; timed before and after the released row, the mean of the two its anchor); and the same serially.
// Each anchor is timed before and after what it anchors and the ratio uses the mean of the two medians. The load
// average and a parallelism probe are printed at start and end. The JPEG-domain kernels are timed by jpeg.mjs.
// Run after building: `node_modules/.bin/tsc -b packages/forensics && node benchmarks/forensics/bench.mjs [photos]`
// photos: comma-separated names of cameraPhotos (default all). BENCH_TIME=<ms> (default 3000) is the time per task and
// BENCH_RUNS=<n> (default 15) the least number of runs per task. FORENSICS_DIST=<dir> times another build of the
// package (e.g. a copy of dist/ from an earlier commit, next to a package.json so it resolves sharp and piscina).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Bench } from 'tinybench';
import { cameraPhotoPath, cameraPhotos, datasetsDir } from './testImage.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const f = await import(join(process.env.FORENSICS_DIST ? resolve(process.env.FORENSICS_DIST) : join(root, 'packages/forensics/dist'), 'index.js'));
const sharp = createRequire(join(root, 'packages/forensics/package.json'))('sharp');
const photos = (process.argv[2] ?? Object.keys(cameraPhotos).join(',')).split(',');
const TIME = Number(process.env.BENCH_TIME ?? 3000), RUNS = Number(process.env.BENCH_RUNS ?? 15);
/** The kernels that work on pixels (the JPEG-domain ones, which read the file's coefficients, are in jpeg.mjs). */
const PIXEL_KERNELS = ['ela', 'wavelet-noise', 'median-residual', 'cfa-variance', 'cfa-reinterpolation', 'edge-anomaly', 'spectral'];
for (const id of PIXEL_KERNELS) if (!f.KERNEL_IDS.includes(id)) throw new Error(`kernel ${id} is not in this build's registry`);

/** Runs the tasks in order (each at least RUNS times and TIME ms, after 3 warm-up runs); median ms and runs by name. */
async function medians(tasks) {
  const bench = new Bench({ time: TIME, iterations: RUNS, warmupIterations: 3, warmupTime: 0 });
  for (const [name, fn] of tasks) bench.add(name, fn);
  await bench.run();
  const out = {};
  for (const task of bench.tasks) {
    const r = task.result;
    if (r.state !== 'completed') throw new Error(`${task.name}: ${r.state} ${r.error ?? ''}`);
    out[task.name] = { ms: r.latency.p50, runs: r.latency.samplesCount, mad: r.latency.mad };
  }
  return out;
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const ms = (v) => v.toFixed(v < 10 ? 1 : 0);

/**
 * Cores this process actually gets: the same fixed integer loop in 1 and in 2 worker threads at once; wall time of
 * 2 threads over 1 thread is 1.0 when two cores are free and 2.0 when the threads share one (other jobs, cgroup
 * quota). The pool's speed-up cannot exceed 2 / that ratio.
 */
async function parallelism() {
  const code = `const { parentPort } = require('node:worker_threads'); let s = 0; for (let i = 0; i < 2e8; i++) s = (s + i) % 1000003; parentPort.postMessage(s);`;
  const run = async (n) => {
    const started = performance.now();
    await Promise.all(Array.from({ length: n }, () => new Promise((resolve, reject) => {
      const worker = new Worker(code, { eval: true });
      worker.once('message', () => { resolve(); void worker.terminate(); });
      worker.once('error', reject);
    })));
    return performance.now() - started;
  };
  await run(1);
  const one = await run(1), two = await run(2);
  return two / one;
}

console.log(`${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), Node ${process.version}, sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips}); tinybench medians, at least ${RUNS} runs and ${TIME} ms per task`);
console.log(`load average (1/5/15 min) at start: ${load()}`);
console.log(`parallelism probe at start: 2 threads take ${(await parallelism()).toFixed(2)}x the wall time of 1 (1.0 = two free cores, 2.0 = one)`);

const pool = new f.ForensicsPool({ threads: 2 });
const summary = [];
for (const name of photos) {
  const path = cameraPhotoPath(name);
  const bytes = readFileSync(path);
  const image = await f.decodeImage(bytes);
  const mp = (image.width * image.height) / 1e6;
  console.log(`\n== ${name}: ${relative(datasetsDir, path)}, ${image.width}x${image.height} (${mp.toFixed(1)} MP), ${(bytes.length / 1e6).toFixed(2)} MB; load ${load()}`);
  const recompressed = await f.recompressJpeg(image);
  const decode = () => sharp(bytes).raw().toBuffer();

  // 1. Kernels on the main thread (each computes its own luma), between two sharp decodes of the file; and the floor
  // of a kernel that returns a full-resolution float32 map (median-residual's; the others' maps are per block): a
  // fresh Float32Array of the image's size written once, whose pages the system supplies and zeroes on first touch.
  const k = await medians([
    ['decode', decode],
    ...PIXEL_KERNELS.map((id) => [id, () => f.kernelRegistry[id].run({ image, recompressed })]),
    ['map pages', () => new Float32Array(image.width * image.height).fill(0)],
    ['decode (end)', decode],
  ]);
  const decodeMs = (k.decode.ms + k['decode (end)'].ms) / 2;
  console.table(Object.fromEntries([['sharp decode (anchor)', k.decode], ...PIXEL_KERNELS.map((id) => [id, k[id]]), ['fresh full-size float32 map, filled', k['map pages']], ['sharp decode (anchor, end)', k['decode (end)']]].map(([n, r]) => [n, {
    'median ms': ms(r.ms), 'MAD ms': ms(r.mad), runs: r.runs, 'x sharp decode': (r.ms / decodeMs).toFixed(2), 'MP/s': (mp / (r.ms / 1000)).toFixed(0),
  }])));

  // 2. ELA's whole path against its codec floor (the same encoder settings as recompressJpeg).
  const floor = async () => {
    const px = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    const again = await sharp(px.data, { raw: px.info }).jpeg({ quality: 90, chromaSubsampling: '4:2:0', optimiseCoding: false, mozjpeg: false }).toBuffer();
    await sharp(again).toColourspace('srgb').raw().toBuffer();
  };
  // recycle: the pixels and the map in recycled memory, as a caller that drops them before the next photo may ask.
  const elaPath = async () => {
    const img = await f.decodeImage(bytes, { recycle: true });
    // (a FORENSICS_DIST build from before errorLevelRoundTrip times the two calls here too)
    if (f.errorLevelRoundTrip) await f.errorLevelRoundTrip(img, {}, {}, true);
    else f.errorLevelAnalysis(img, await f.recompressJpeg(img));
  };
  const elaComposed = async () => {
    const img = await f.decodeImage(bytes);
    f.errorLevelAnalysis(img, await f.recompressJpeg(img));
  };
  const e = await medians([['floor', floor], ['ela', elaPath], ['ela composed', elaComposed], ['floor (end)', floor]]);
  const floorMs = (e.floor.ms + e['floor (end)'].ms) / 2;
  console.log(`ELA whole path (decodeImage + errorLevelRoundTrip q90) ${ms(e.ela.ms)} ms (${e.ela.runs} runs) / codec floor (sharp decode + q90 encode + decode) ${ms(e.floor.ms)} and ${ms(e['floor (end)'].ms)} ms = ${(e.ela.ms / floorMs).toFixed(3)}x; the two calls it replaces (recompressJpeg + errorLevelAnalysis) ${ms(e['ela composed'].ms)} ms = ${(e['ela composed'].ms / floorMs).toFixed(3)}x`);

  // 3. Decode + every pixel kernel, a fresh image per run: in the 2-thread pool, and serially on this thread.
  // `release`: the caller gives the result's maps back once it has read them (pool.releaseResults, as the engine's
  // advanced image detection does after its report and figures); the other pool row keeps them, as a caller that does
  // not opt in.
  const analyse = (options, release = false) => async () => {
    const analysis = await f.analyzeImage(bytes, { kernels: PIXEL_KERNELS, ...options });
    const failed = analysis.kernels.find((o) => o.state !== 'completed');
    if (failed) throw new Error(`${failed.id}: ${failed.error.message}`);
    if (release && options.pool.releaseResults) options.pool.releaseResults(analysis);
  };
  // The workers get the warm-up the main thread had from the per-kernel runs above.
  for (let i = 0; i < 3; i++) await analyse({ pool })();
  const p = await medians([['decode', decode], ['pool', analyse({ pool })], ['pool released', analyse({ pool }, true)], ['pool (end)', analyse({ pool })], ['serial', analyse({})], ['decode (end)', decode]]);
  const poolDecodeMs = (p.decode.ms + p['decode (end)'].ms) / 2;
  // The row that keeps its results is timed before and after the released one (the mean of the two is its anchor).
  const keptMs = (p.pool.ms + p['pool (end)'].ms) / 2;
  console.log(`decode + ${PIXEL_KERNELS.length} kernels, fresh decode per run: 2-thread pool ${ms(p.pool.ms)} ms (${p.pool.runs} runs, ${(p.pool.ms / poolDecodeMs).toFixed(2)}x sharp decode); the same with the results released after each run (pool.releaseResults, what the engine does) ${ms(p['pool released'].ms)} ms (${p['pool released'].runs} runs, ${(p['pool released'].ms / poolDecodeMs).toFixed(2)}x sharp decode, ${(p['pool released'].ms / keptMs).toFixed(3)}x the row that keeps them, ${ms(p.pool.ms)} and ${ms(p['pool (end)'].ms)} ms); serially ${ms(p.serial.ms)} ms (${p.serial.runs} runs; pool speed-up ${(p.serial.ms / p.pool.ms).toFixed(2)}); sharp decode ${ms(p.decode.ms)} and ${ms(p['decode (end)'].ms)} ms`);
  summary.push({
    photo: name, MP: mp.toFixed(1), 'sharp decode ms': ms(decodeMs),
    ...Object.fromEntries(PIXEL_KERNELS.map((id) => [`${id} ms`, ms(k[id].ms)])),
    'ELA path ms': ms(e.ela.ms), 'ELA floor ms': ms(floorMs), 'ELA / floor': (e.ela.ms / floorMs).toFixed(3), 'ELA composed / floor': (e['ela composed'].ms / floorMs).toFixed(3),
    'pool: decode + kernels ms': ms(p.pool.ms), 'pool / decode': (p.pool.ms / poolDecodeMs).toFixed(2),
    'pool, released ms': ms(p['pool released'].ms), 'released / decode': (p['pool released'].ms / poolDecodeMs).toFixed(2), 'serial ms': ms(p.serial.ms),
  });
}
await pool.close();
console.log('\nSummary (medians; ratios against the anchors of the same run):');
console.table(summary);
console.log(`parallelism probe at end: 2 threads take ${(await parallelism()).toFixed(2)}x the wall time of 1`);
console.log(`load average (1/5/15 min) at end: ${load()}`);
