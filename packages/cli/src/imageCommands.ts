import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { CREDIT_COSTS } from '@content-analysis/credits';
import { ADVANCED_KERNELS, advancedReportFigures, advancedReportHtml, analyzeImageAuthenticity, callerError } from '@content-analysis/engine';
import { exportRawMap, renderHeatmap, decodeImage, kernelRegistry } from '@content-analysis/forensics';
import { extractImageMetadata } from '@content-analysis/image-metadata';
import { parseCommandLine } from './commandLine.js';
import { assertNotDirectory } from './inputs.js';

async function readImage(path: string): Promise<Buffer> {
  await assertNotDirectory(path);
  return readFile(path);
}

/** The image packages raise their caller errors with code BAD_REQUEST. */
function asApiError(error: unknown): never {
  throw callerError(error, ['BAD_REQUEST']);
}

/** `image-metadata <file>`: the metadata, exif, c2pa and AI watermark fields of an image, as JSON. */
export async function imageMetadataCommand(argv: string[], out: Writable, usage: (message: string) => Error): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, { compact: { type: 'boolean' } });
  if (positionals.length !== 1) throw usage(`image-metadata: expected one <image>, received ${positionals.length}`);
  const result = await extractImageMetadata(await readImage(positionals[0]!)).catch(asApiError);
  out.write(`${values.compact ? JSON.stringify(result) : JSON.stringify(result, null, 2)}\n`);
  return 0;
}

/**
 * `forensics <image> [--out dir] [--report file.html]`: prints the advanced analysis as JSON, the API's result with
 * its `cost` (no `balance`: nothing is charged); with --out, writes per map a heatmap over
 * the image (`<tool>.<kernel>.<map>.heatmap.png`), the raw map as 16-bit grayscale (`<tool>.<kernel>.<map>.raw.png`)
 * and its scale (`<tool>.<kernel>.<map>.raw.json`), the fused map as `fused.fused-tamper-probability.*`; with --report,
 * one self-contained HTML page of the same analysis.
 */
export async function forensicsCommand(argv: string[], out: Writable, usage: (message: string) => Error): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, { out: { type: 'string' }, report: { type: 'string' } });
  if (positionals.length !== 1) throw usage(`forensics: expected one <image>, received ${positionals.length}`);
  if (values.report === '') throw usage('forensics: --report needs a file name');
  const bytes = await readImage(positionals[0]!);
  // The endpoint's kernels and dq-nonaligned, which the endpoint leaves out (fusion weight 0) but whose map is shown here.
  const analysis = await analyzeImageAuthenticity(bytes, { kernels: [...ADVANCED_KERNELS, 'dq-nonaligned'] });
  const { report, kernels, fused } = analysis;
  const written: string[] = [];
  if (values.out !== undefined) {
    mkdirSync(values.out, { recursive: true });
    const underlay = await decodeImage(bytes);
    const maps = kernels.flatMap((outcome) =>
      outcome.state === 'completed' ? outcome.result.maps.map((map) => ({ stem: `${kernelRegistry[outcome.id].tool}.${outcome.id}.${map.name}`, map })) : []);
    maps.push({ stem: `fused.${fused.name}`, map: fused });
    {
      for (const { stem: name, map } of maps) {
        const stem = join(values.out, name);
        if (map.cellSize > 0) {
          writeFileSync(`${stem}.heatmap.png`, await renderHeatmap(map, { underlay }));
          written.push(`${stem}.heatmap.png`);
        }
        const raw = exportRawMap(map);
        writeFileSync(`${stem}.raw.png`, raw.png);
        writeFileSync(`${stem}.raw.json`, `${JSON.stringify(raw.sidecar, null, 2)}\n`);
        written.push(`${stem}.raw.png`, `${stem}.raw.json`);
      }
    }
  }
  // The API's advanced result, composed as the engine composes an unmetered one: what it would cost, no balance.
  const composed = { status: 200, ...report, cost: CREDIT_COSTS.advancedImageDetection };
  if (values.report !== undefined) {
    mkdirSync(dirname(values.report), { recursive: true });
    writeFileSync(values.report, advancedReportHtml(composed, await advancedReportFigures(bytes, analysis)));
    written.push(values.report);
  }
  const result = { ...composed, ...(written.length ? { files: written } : {}) };
  out.write(`${JSON.stringify(result, null, 2)}\n`);
  return 0;
}
