// Benchmark of @content-analysis/image-metadata (built dist) on real JPEGs of the shared datasets, each set measured
// beside its anchors in the same run: exifr.parse(bytes, true) (every block exifr reads), exifr with the blocks our
// result needs (tiff, exif, gps, xmp, iptc), sharp's metadata() (what our extraction called for every file before
// issue 35), and for the camera JPEGs `exiftool -json` in batch mode. Our rows: metadata extraction with the
// watermark decoder off (metadata + exif + c2pa + AI signals, no pixel decoding) and on (decode + watermark).
// Figures are tinybench medians of one pass over a set, divided by the set's size: per file; runs alternate between
// the tasks (three rounds), and each row also gives the CPU time of a pass, which moves less with the machine's load.
// Then the invisible-watermark decoder's own cost per megapixel (pixels already decoded) and with the decode.
// Run: node_modules/.bin/tsc -b packages/image-metadata && node benchmarks/image-metadata/bench.mjs
// With IMAGE_METADATA_BASELINE=<another checkout>/packages/image-metadata/dist, that build gets a row of its own.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { Bench } from 'tinybench';
import { decodeInvisibleWatermark, extractImageMetadata } from '../../packages/image-metadata/dist/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// The anchors are the very libraries the package depends on, resolved from the package's own dependencies.
const requireFromPackage = createRequire(join(root, 'packages/image-metadata/package.json'));
const sharp = requireFromPackage('sharp');
const exifr = requireFromPackage('exifr');
const datasets = resolve(root, process.env.CONTENT_ANALYSIS_DATASETS ?? '../shared/datasets');
const samples = join(datasets, 'images/exif-samples');
if (!existsSync(samples)) {
  console.log(`exif-samples not found under ${datasets}: set CONTENT_ANALYSIS_DATASETS. Nothing measured.`);
  process.exit(0);
}
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`image-metadata benchmark, Node ${process.version}, load average at start ${load()}`);

// Optional: another build of the package (its dist folder, e.g. a checkout of main) measured in the same run.
const baselineDist = process.env.IMAGE_METADATA_BASELINE;
const baseline = baselineDist ? await import(pathToFileURL(join(resolve(baselineDist), 'index.js')).href) : undefined;

const off = { minDimension: 0, decodeWatermark: false };
const on = { minDimension: 0, decodeWatermark: true };
const exifrNeeded = { tiff: true, exif: true, gps: true, xmp: true, iptc: true, icc: false, mergeOutput: false };

/** The camera JPEGs of exif-samples that exiftool's reference lists (its `invalid/` folder left out). */
function cameraJpegs() {
  const reference = JSON.parse(readFileSync(join(samples, 'exiftool-12.57.json'), 'utf8'));
  return reference
    .map((r) => r.SourceFile)
    .filter((f) => /\.jpe?g$/i.test(f) && !f.includes('/invalid/') && existsSync(join(samples, f)))
    .map((f) => join(samples, f));
}

/** The JPEGs directly in a dataset folder that both our extraction and exifr read (broken fixtures left out). */
async function readableJpegs(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir).filter((n) => /\.jpe?g$/i.test(n)).sort()) {
    const path = join(dir, name);
    try {
      const bytes = readFileSync(path);
      await extractImageMetadata(bytes, off);
      await exifr.parse(bytes, true);
      out.push(path);
    } catch {
      // a fixture of a parser bug or a broken file: not a timing input
    }
  }
  return out;
}

const median = (values) => [...values].sort((x, y) => x - y)[values.length >> 1];

/**
 * Per file, for each task: the median wall time of one pass over `buffers` (tinybench's median of a run, then the
 * median over `rounds` runs that alternate between the tasks, so a change of load hits every task alike) and the
 * median CPU time of a pass (process.cpuUsage: every thread of the process, sharp's and the worker threads'
 * included; it does not count time spent waiting for a core, so it moves less with the load).
 */
async function perFile(buffers, tasks, { rounds = 3 } = {}) {
  const wall = new Map(tasks.map(([name]) => [name, []]));
  const cpu = new Map(tasks.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, fn, { time = 700, iterations = 5 } = {}] of tasks) {
      const bench = new Bench({ time, iterations, warmupIterations: round === 0 ? 2 : 1 });
      bench.add(name, async () => {
        const start = process.cpuUsage();
        for (const b of buffers) await fn(b);
        const used = process.cpuUsage(start);
        cpu.get(name).push((used.user + used.system) / 1000);
      });
      await bench.run();
      const result = bench.tasks[0].result;
      if (result.state !== 'completed') throw new Error(`${name}: ${result.state} ${result.error ?? ''}`);
      wall.get(name).push(result.latency.p50);
    }
  }
  return tasks.map(([name]) => ({ name, wall: median(wall.get(name)) / buffers.length, cpu: median(cpu.get(name)) / buffers.length }));
}

const fmt = (ms) => (ms < 1 ? `${ms.toFixed(4)} ms` : `${ms.toFixed(2)} ms`);

async function measureSet(name, files, { watermark = false, exiftool = false } = {}) {
  if (files.length === 0) {
    console.log(`\n${name}: not found, skipped`);
    return;
  }
  const buffers = files.map((f) => readFileSync(f));
  const megabytes = buffers.reduce((s, b) => s + b.length, 0) / 1e6;
  const tasks = [
    ['ours, watermark decoder off', (b) => extractImageMetadata(b, off)],
    ['exifr.parse(bytes, true)', (b) => exifr.parse(b, true)],
    ['exifr.parse: tiff, exif, gps, xmp, iptc', (b) => exifr.parse(b, exifrNeeded)],
    ['sharp(bytes).metadata()', (b) => sharp(b).metadata()],
  ];
  if (baseline) tasks.push([`baseline build (${baselineDist}), watermark decoder off`, (b) => baseline.extractImageMetadata(b, off)]);
  if (watermark) tasks.push(['ours, watermark decoder on (decode + watermark)', (b) => extractImageMetadata(b, on), { time: 1000, iterations: 2 }]);
  const rows = await perFile(buffers, tasks);
  if (exiftool) {
    const run = () => execFileSync('exiftool', ['-json', '-G1', '-a', '-n', ...files], { maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      run();
      const [row] = await perFile(buffers, [['exiftool -json -G1 -a -n, one batch process', run, { time: 2000, iterations: 2 }]], { rounds: 1 });
      rows.push({ ...row, wall: row.wall, cpu: NaN }); // exiftool's CPU is another process's
    } catch (error) {
      console.log(`exiftool row left out: exiftool not runnable (${error.message.split('\n')[0]}); apt-get install -y libimage-exiftool-perl`);
    }
  }
  const anchor = rows.find((r) => r.name === 'exifr.parse(bytes, true)');
  console.log(`\n${name}: ${files.length} files, ${megabytes.toFixed(1)} MB; load average after ${load()}`);
  console.log('| what | per file, median | ratio to exifr.parse(bytes, true) | CPU per file | CPU ratio |');
  console.log('|---|---|---|---|---|');
  for (const { name: what, wall, cpu } of rows) {
    const cpuCells = Number.isNaN(cpu) ? '(another process) | ' : `${fmt(cpu)} | ${(cpu / anchor.cpu).toFixed(2)}`;
    console.log(`| ${what} | ${fmt(wall)} | ${(wall / anchor.wall).toFixed(2)} | ${cpuCells} |`);
  }
}

await measureSet('camera JPEGs of exif-samples', cameraJpegs(), { watermark: true, exiftool: true });
await measureSet('JPEGs of exifr-fixtures (cameras, phones, IPTC examples)', await readableJpegs(join(datasets, 'images/exifr-fixtures')));
await measureSet('photos of ai-vs-real-train/imagenet-class-samples/real (little metadata)', await readableJpegs(join(datasets, 'images/ai-vs-real-train/imagenet-class-samples/real')));

// Watermark decoder: kernels alone on decoded pixels, and with the sharp decode, per megapixel.
const wmFile = join(datasets, 'images/iptc-reference/IPTC-PhotometadataRef-Std2022.1.jpg');
if (existsSync(wmFile)) {
  const wmBytes = readFileSync(wmFile);
  const { data, info } = await sharp(wmBytes).raw().toBuffer({ resolveWithObject: true });
  const megapixels = (info.width * info.height) / 1e6;
  const p50 = async (fn, time, iterations) => {
    const bench = new Bench({ time, iterations, warmupIterations: 2 });
    bench.add('task', fn);
    await bench.run();
    return bench.tasks[0].result.latency.p50;
  };
  const kernel = await p50(() => decodeInvisibleWatermark(data, info.width, info.height, info.channels), 2000, 5);
  const withDecode = await p50(() => extractImageMetadata(wmBytes, on), 2000, 5);
  const metadataOnly = await p50(() => extractImageMetadata(wmBytes, off), 1000, 10);
  console.log(`\ninvisible watermark (IPTC reference image, ${info.width}x${info.height}, ${megapixels.toFixed(2)} MP, 4 pixel conventions x 4 payloads):`);
  console.log(`  kernels on decoded pixels: ${fmt(kernel)} = ${fmt(kernel / megapixels)} per MP`);
  console.log(`  full extraction with JPEG decode + watermark: ${fmt(withDecode)} (metadata only on the same file: ${fmt(metadataOnly)}) = ${fmt((withDecode - metadataOnly) / megapixels)} per MP for decode + watermark`);
}
console.log(`\nload average at end ${load()}`);
