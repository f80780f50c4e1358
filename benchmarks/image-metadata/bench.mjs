// Benchmark of @content-analysis/image-metadata (built dist) on real JPEGs of the shared datasets, each set measured
// beside its anchors in the same run: exifr.parse(bytes, true) (every block exifr reads), exifr with the blocks our
// result needs (tiff, exif, gps, xmp, iptc), sharp's metadata() (what our extraction called for every file before
// issue 35), and for the camera JPEGs `exiftool -json` in batch mode. Our rows: metadata extraction with the
// watermark decoder off (metadata + exif + c2pa + AI signals, no pixel decoding) and on (decode + watermark).
// Figures are tinybench medians of one pass over a set, divided by the set's size: per file.
// Then the invisible-watermark decoder's own cost per megapixel (pixels already decoded) and with the decode.
// Run: node_modules/.bin/tsc -b packages/image-metadata && node benchmarks/image-metadata/bench.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/** Median ms of one pass over `buffers` (tinybench), per file. */
async function perFile(buffers, fn, { time = 1500, iterations = 10 } = {}) {
  const bench = new Bench({ time, iterations, warmupIterations: 2 });
  bench.add('pass', async () => { for (const b of buffers) await fn(b); });
  await bench.run();
  const result = bench.tasks[0].result;
  if (result.state !== 'completed') throw new Error(`${result.state} ${result.error ?? ''}`);
  return result.latency.p50 / buffers.length;
}

const fmt = (ms) => (ms < 1 ? `${ms.toFixed(4)} ms` : `${ms.toFixed(2)} ms`);
const ratio = (ms, anchor) => `${(ms / anchor).toFixed(2)}`;

async function measureSet(name, files, { watermark = false, exiftool = false } = {}) {
  if (files.length === 0) {
    console.log(`\n${name}: not found, skipped`);
    return;
  }
  const buffers = files.map((f) => readFileSync(f));
  const megabytes = buffers.reduce((s, b) => s + b.length, 0) / 1e6;
  const rows = [];
  rows.push(['ours, watermark decoder off', await perFile(buffers, (b) => extractImageMetadata(b, off))]);
  const anchor = await perFile(buffers, (b) => exifr.parse(b, true));
  rows.push(['exifr.parse(bytes, true)', anchor]);
  rows.push(['exifr.parse: tiff, exif, gps, xmp, iptc', await perFile(buffers, (b) => exifr.parse(b, exifrNeeded))]);
  rows.push(['sharp(bytes).metadata()', await perFile(buffers, (b) => sharp(b).metadata())]);
  if (watermark) rows.push(['ours, watermark decoder on (decode + watermark)', await perFile(buffers, (b) => extractImageMetadata(b, on), { time: 3000, iterations: 3 })]);
  if (exiftool) {
    const run = () => execFileSync('exiftool', ['-json', '-G1', '-a', '-n', ...files], { maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      run();
      const bench = new Bench({ time: 3000, iterations: 3, warmupIterations: 1 });
      bench.add('exiftool', run);
      await bench.run();
      rows.push(['exiftool -json -G1 -a -n, one batch process', bench.tasks[0].result.latency.p50 / files.length]);
    } catch (error) {
      console.log(`exiftool row left out: exiftool not runnable (${error.message.split('\n')[0]}); apt-get install -y libimage-exiftool-perl`);
    }
  }
  console.log(`\n${name}: ${files.length} files, ${megabytes.toFixed(1)} MB; load average after ${load()}`);
  console.log('| what | per file (median) | ratio to exifr.parse(bytes, true) |');
  console.log('|---|---|---|');
  for (const [what, ms] of rows) console.log(`| ${what} | ${fmt(ms)} | ${ratio(ms, anchor)} |`);
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
  const median = async (fn, time, iterations) => {
    const bench = new Bench({ time, iterations, warmupIterations: 2 });
    bench.add('task', fn);
    await bench.run();
    return bench.tasks[0].result.latency.p50;
  };
  const kernel = await median(() => decodeInvisibleWatermark(data, info.width, info.height, info.channels), 2000, 5);
  const withDecode = await median(() => extractImageMetadata(wmBytes, on), 2000, 5);
  const metadataOnly = await median(() => extractImageMetadata(wmBytes, off), 1000, 10);
  console.log(`\ninvisible watermark (IPTC reference image, ${info.width}x${info.height}, ${megapixels.toFixed(2)} MP, 4 pixel conventions x 4 payloads):`);
  console.log(`  kernels on decoded pixels: ${fmt(kernel)} = ${fmt(kernel / megapixels)} per MP`);
  console.log(`  full extraction with JPEG decode + watermark: ${fmt(withDecode)} (metadata only on the same file: ${fmt(metadataOnly)}) = ${fmt((withDecode - metadataOnly) / megapixels)} per MP for decode + watermark`);
}
console.log(`\nload average at end ${load()}`);
