// CPU profile of the full extraction (no pixel decoding) on the exif-samples camera JPEGs, summarised by self time.
// Run: node --cpu-prof --cpu-prof-dir=/tmp/image-metadata-prof benchmarks/image-metadata/profile.mjs [seconds]
//      node benchmarks/image-metadata/profile.mjs --summarise /tmp/image-metadata-prof/<file>.cpuprofile
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

if (process.argv[2] === '--summarise') {
  const profile = JSON.parse(readFileSync(process.argv[3], 'utf8'));
  const self = new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const counts = new Map();
  for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  let total = 0;
  for (const [id, count] of counts) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const key = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|packages)\//, '$1/')}:${lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + count);
    total += count;
  }
  for (const [key, count] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[4] ?? 30))) {
    console.log(`${((100 * count) / total).toFixed(1).padStart(5)}%  ${key}`);
  }
  process.exit(0);
}

const { extractImageMetadata } = await import('../../packages/image-metadata/dist/index.js');
const root = fileURLToPath(new URL('../../', import.meta.url));
const samples = join(resolve(root, process.env.CONTENT_ANALYSIS_DATASETS ?? '../shared/datasets'), 'images/exif-samples');
if (!existsSync(samples)) throw new Error(`exif-samples not found under ${samples}`);
const reference = JSON.parse(readFileSync(join(samples, 'exiftool-12.57.json'), 'utf8'));
const buffers = reference
  .map((r) => r.SourceFile)
  .filter((f) => /\.jpe?g$/i.test(f) && !f.includes('/invalid/') && existsSync(join(samples, f)))
  .map((f) => readFileSync(join(samples, f)));
const seconds = Number(process.argv[2] ?? 5);
const end = Date.now() + seconds * 1000;
let n = 0;
while (Date.now() < end) {
  for (const b of buffers) await extractImageMetadata(b, { minDimension: 0, decodeWatermark: false });
  n += buffers.length;
}
console.log(`${n} extractions in ${seconds} s: ${((seconds * 1000) / n).toFixed(3)} ms per file`);
