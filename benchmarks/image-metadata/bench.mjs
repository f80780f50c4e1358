// Benchmark of @content-analysis/image-metadata (built dist) against `exiftool -json` (batch mode, one process
// for all files) and against exifr + sharp metadata alone, on the camera JPEGs of exif-samples, all in one run.
// Also the invisible-watermark decoder's own cost per megapixel (pixels already decoded) and with the decode.
// Run: node_modules/.bin/tsc -b packages/image-metadata && node benchmarks/image-metadata/bench.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { Bench } from 'tinybench';
import { decodeInvisibleWatermark, extractImageMetadata } from '../../packages/image-metadata/dist/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// The baselines are the very libraries the package uses, resolved from the package's own dependencies.
const requireFromPackage = createRequire(join(root, 'packages/image-metadata/package.json'));
const sharp = requireFromPackage('sharp');
const exifr = requireFromPackage('exifr');
const datasets = resolve(root, process.env.CONTENT_ANALYSIS_DATASETS ?? '../shared/datasets');
const samples = join(datasets, 'images/exif-samples');
if (!existsSync(samples)) {
  console.log(`exif-samples not found under ${datasets}: set CONTENT_ANALYSIS_DATASETS. Nothing measured.`);
  process.exit(0);
}
const reference = JSON.parse(readFileSync(join(samples, 'exiftool-12.57.json'), 'utf8'));
const files = reference
  .map((r) => r.SourceFile)
  .filter((f) => /\.jpe?g$/i.test(f) && !f.includes('/invalid/') && existsSync(join(samples, f)))
  .map((f) => join(samples, f));
const buffers = files.map((f) => readFileSync(f));
const options = { minDimension: 0, decodeWatermark: false };
const exifrOptions = { tiff: true, exif: true, gps: true, xmp: true, iptc: true, icc: false, mergeOutput: false };

async function mean(name, fn, { time = 2000, iterations = 10 } = {}) {
  const bench = new Bench({ time, iterations, warmupIterations: 2 });
  bench.add(name, fn);
  await bench.run();
  const result = bench.tasks[0].result;
  if (result.state !== 'completed') throw new Error(`${name}: ${result.state} ${result.error ?? ''}`);
  return result.latency.mean;
}

const perFile = (ms) => ms / files.length;
const ours = perFile(await mean('ours', async () => { for (const b of buffers) await extractImageMetadata(b, options); }));
const baseline = perFile(await mean('exifr+sharp', async () => {
  for (const b of buffers) { await sharp(b).metadata(); await exifr.parse(b, exifrOptions); }
}));
const sharpOnly = perFile(await mean('sharp', async () => { for (const b of buffers) await sharp(b).metadata(); }));
const exifrOnly = perFile(await mean('exifr', async () => { for (const b of buffers) await exifr.parse(b, exifrOptions); }));
let exiftool;
try {
  exiftool = perFile(await mean('exiftool', () => { execFileSync('exiftool', ['-json', '-G1', '-a', '-n', ...files], { maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] }); }, { time: 3000, iterations: 5 }));
} catch (error) {
  console.log(`exiftool not runnable (${error.message.split('\n')[0]}); apt-get install -y libimage-exiftool-perl`);
}

// Watermark decoder: kernels alone on decoded pixels, and with the sharp decode, per megapixel.
const wmFile = join(datasets, 'images/iptc-reference/IPTC-PhotometadataRef-Std2022.1.jpg');
const wmBytes = readFileSync(wmFile);
const { data, info } = await sharp(wmBytes).raw().toBuffer({ resolveWithObject: true });
const megapixels = (info.width * info.height) / 1e6;
const kernel = await mean('watermark kernels', () => decodeInvisibleWatermark(data, info.width, info.height, info.channels), { time: 2000, iterations: 5 });
const withDecode = await mean('watermark + decode', () => extractImageMetadata(wmBytes, { decodeWatermark: true }), { time: 2000, iterations: 5 });
const metadataOnly = await mean('metadata only', () => extractImageMetadata(wmBytes, { decodeWatermark: false }), { time: 1000, iterations: 10 });

const fmt = (ms) => `${ms.toFixed(3)} ms`;
console.log(`image-metadata benchmark, ${files.length} camera JPEGs of exif-samples, Node ${process.version}`);
console.log('| what | per file | ratio to ours |');
console.log('|---|---|---|');
console.log(`| ours: metadata + exif + c2pa + metadata AI signals (no pixel decoding) | ${fmt(ours)} | 1 |`);
console.log(`| exifr (tiff, exif, gps, xmp, iptc) + sharp metadata | ${fmt(baseline)} | ${(baseline / ours).toFixed(2)} |`);
console.log(`| sharp metadata alone | ${fmt(sharpOnly)} | ${(sharpOnly / ours).toFixed(2)} |`);
console.log(`| exifr alone | ${fmt(exifrOnly)} | ${(exifrOnly / ours).toFixed(2)} |`);
if (exiftool !== undefined) console.log(`| exiftool -json -G1 -a -n, one batch process | ${fmt(exiftool)} | ${(exiftool / ours).toFixed(2)} |`);
console.log('');
console.log(`invisible watermark (${info.width}x${info.height}, ${megapixels.toFixed(2)} MP, 4 pixel conventions x 4 payloads):`);
console.log(`  kernels on decoded pixels: ${fmt(kernel)} = ${fmt(kernel / megapixels)} per MP`);
console.log(`  full extraction with JPEG decode + watermark: ${fmt(withDecode)} (metadata only on the same file: ${fmt(metadataOnly)}) = ${fmt((withDecode - metadataOnly) / megapixels)} per MP for decode + watermark`);
