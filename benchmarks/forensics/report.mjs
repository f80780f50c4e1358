// Cost of the HTML report (`forensics --report`, `report: "html"`) against the advanced analysis it reports, at 1, 4
// and 12 MP in one run: the analysis (analyzeImageAuthenticity, kernels in a 2-thread pool) is the baseline; the
// report is advancedReportFigures (image JPEG, every map averaged down and drawn as a PNG) plus advancedReportHtml.
// Inputs: a camera photo of the shared datasets resized to each size (JPEG q92), else a synthetic photo-like JPEG.
// Run: npm run build && node benchmarks/forensics/report.mjs [megapixels, e.g. 1,4,12]
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { meanLatency } from '../lib/meanLatency.mjs';
import { advancedReportFigures, advancedReportHtml, analyzeImageAuthenticity } from '../../packages/engine/dist/index.js';
import { ForensicsPool } from '../../packages/forensics/dist/index.js';
import { benchPhoto as photo, photoOfMegapixels } from './testImage.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const sharp = createRequire(join(root, 'packages/forensics/package.json'))('sharp');
const sizes = (process.argv[2] ?? '1,4,12').split(',').map(Number);
const mean = (fn) => meanLatency(fn, { time: 4000, iterations: 5, warmupIterations: 1 });

const inputOf = (mp) => photoOfMegapixels(sharp, mp);

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`input: ${existsSync(photo) ? 'Canon_40D.jpg resized' : 'synthetic photo-like JPEG (datasets not found)'}; load at start ${load()}`);
const pool = new ForensicsPool({ threads: 2 });
const rows = [];
for (const mp of sizes) {
  const bytes = await inputOf(mp);
  const analysis = await analyzeImageAuthenticity(bytes, { pool }); // models and worker code warmed
  const result = { status: 200, ...analysis.report, cost: 500 };
  const figures = await advancedReportFigures(bytes, analysis);
  const page = advancedReportHtml(result, figures);
  const analyse = await mean(() => analyzeImageAuthenticity(bytes, { pool }));
  const draw = await mean(() => advancedReportFigures(bytes, analysis));
  const write = await mean(async () => advancedReportHtml(result, figures));
  rows.push({
    MP: mp, 'analysis ms': analyse.toFixed(0), 'figures ms': draw.toFixed(0), 'html ms': write.toFixed(1),
    'report / analysis': ((draw + write) / analyse).toFixed(2), 'page MB': (Buffer.byteLength(page) / 1e6).toFixed(2),
  });
}
console.table(rows);
console.log(`load at end ${load()}`);
await pool.close();
