import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { KERNEL_IDS, analyzeImage, decodeImage, fuseMaps, kernelRegistry, localisationScores, rocAuc } from '@content-analysis/forensics';
import type { KernelId, KernelOutcome, LocalisationScores } from '@content-analysis/forensics';
import { parseCommandLine } from './commandLine.js';
import { CliError } from './errors.js';

/** Methods the bench can score: every kernel with a map over the image, and `fused`. */
const MAP_KERNELS = KERNEL_IDS.filter((id) => id !== 'spectral');
const IMAGE = /\.(png|jpe?g|webp|tiff?|bmp)$/i;

interface MethodRow {
  method: string;
  images: number;
  pixelAuc: number;
  bestF1: number;
  mcc: number;
  imageAuc: number;
  failed: number;
}

const mean = (values: number[]): number => {
  const finite = values.filter(Number.isFinite);
  return finite.length ? finite.reduce((s, v) => s + v, 0) / finite.length : Number.NaN;
};

async function maskOf(path: string): Promise<{ mask: Uint8Array; width: number; height: number }> {
  const image = await decodeImage(await readFile(path), { minSide: 1 });
  const mask = new Uint8Array(image.width * image.height);
  for (let i = 0; i < mask.length; i++) mask[i] = image.data[i * image.channels]! > 127 ? 1 : 0;
  return { mask, width: image.width, height: image.height };
}

function findMask(dir: string, name: string): string | undefined {
  const stem = basename(name, extname(name));
  for (const candidate of [`${stem}.png`, `${stem}_gt.png`, `${stem}.bmp`, `${stem}.tif`]) if (existsSync(join(dir, candidate))) return join(dir, candidate);
  return undefined;
}

/**
 * `forensics-bench --dataset DIR [--methods a,b] [--include REGEX] [--json out.json]`: per method, the mean over the
 * tampered images of the pixel AUC, best F1 and MCC at that F1's threshold against the masks, and the image-level
 * AUC of its score over tampered against original images (when `original/` exists). Layout: `DIR/tampered/*`,
 * `DIR/mask/<same stem>.png` (nonzero = tampered), optional `DIR/original/*`.
 */
export async function forensicsBenchCommand(argv: string[], out: Writable, usage: (message: string) => Error): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, { dataset: { type: 'string' }, methods: { type: 'string' }, include: { type: 'string' }, json: { type: 'string' } });
  if (positionals.length) throw usage(`forensics-bench: unexpected argument ${positionals[0]}`);
  if (!values.dataset) throw usage('forensics-bench: expected --dataset <folder with tampered/ and mask/>');
  const tamperedDir = join(values.dataset, 'tampered'), maskDir = join(values.dataset, 'mask'), originalDir = join(values.dataset, 'original');
  if (!existsSync(tamperedDir) || !existsSync(maskDir)) throw new CliError(`forensics-bench: expected ${tamperedDir} and ${maskDir}`);
  const methods = values.methods ? values.methods.split(',').map((m) => m.trim()).filter(Boolean) : [...MAP_KERNELS, 'fused'];
  for (const m of methods) if (m !== 'fused' && !(MAP_KERNELS as readonly string[]).includes(m)) throw usage(`forensics-bench: unknown method ${m}; known: ${[...MAP_KERNELS, 'fused'].join(', ')}`);
  // The fused map needs every kernel of its model.
  const kernels: KernelId[] = methods.includes('fused') ? [...MAP_KERNELS] : (methods as KernelId[]);
  let include: RegExp | undefined;
  try { include = values.include ? new RegExp(values.include) : undefined; } catch (error) { throw usage(`forensics-bench: bad --include: ${(error as Error).message}`); }
  const names = readdirSync(tamperedDir).filter((n) => IMAGE.test(n) && (!include || include.test(n))).sort();
  if (names.length === 0) throw new CliError(`forensics-bench: no images in ${tamperedDir}${include ? ` matching ${include}` : ''}`);
  const pixel = new Map<string, LocalisationScores[]>(methods.map((m) => [m, []]));
  const scores = { tampered: new Map<string, number[]>(methods.map((m) => [m, []])), original: new Map<string, number[]>(methods.map((m) => [m, []])) };
  const failed = new Map<string, number>(methods.map((m) => [m, 0]));
  const perImage: Array<Record<string, unknown>> = [];
  const scoreAll = (outcomes: KernelOutcome[], width: number, height: number, which: 'tampered' | 'original', truth?: { mask: Uint8Array; width: number; height: number }): Record<string, LocalisationScores | undefined> => {
    const row: Record<string, LocalisationScores | undefined> = {};
    for (const method of methods) {
      let map, score;
      if (method === 'fused') {
        const fused = fuseMaps(outcomes, width, height);
        map = fused.map; score = fused.score;
      } else {
        const o = outcomes.find((k) => k.id === method);
        if (o?.state !== 'completed') { failed.set(method, failed.get(method)! + 1); continue; }
        map = o.result.maps[0]!; score = o.result.score;
      }
      scores[which].get(method)!.push(score);
      if (truth) {
        if (truth.width !== width || truth.height !== height) throw new CliError(`forensics-bench: mask ${truth.width}x${truth.height} does not match image ${width}x${height}`);
        const s = localisationScores(map, truth.mask, width, height);
        pixel.get(method)!.push(s);
        row[method] = s;
      }
    }
    return row;
  };
  for (const name of names) {
    const maskPath = findMask(maskDir, name);
    if (!maskPath) throw new CliError(`forensics-bench: no mask for ${name} in ${maskDir}`);
    const truth = await maskOf(maskPath);
    const analysis = await analyzeImage(await readFile(join(tamperedDir, name)), { kernels });
    const row = scoreAll(analysis.kernels, analysis.width, analysis.height, 'tampered', truth);
    perImage.push({ image: name, ...Object.fromEntries(Object.entries(row).map(([m, s]) => [m, s && { auc: s.auc, bestF1: s.bestF1, mcc: s.mcc }])) });
    const original = join(originalDir, name);
    if (existsSync(original)) {
      const a = await analyzeImage(await readFile(original), { kernels });
      scoreAll(a.kernels, a.width, a.height, 'original');
    }
  }
  const rows: MethodRow[] = methods.map((method) => {
    const s = pixel.get(method)!;
    return {
      method, images: s.length, pixelAuc: mean(s.map((x) => x.auc)), bestF1: mean(s.map((x) => x.bestF1)), mcc: mean(s.map((x) => x.mcc)),
      imageAuc: rocAuc(scores.tampered.get(method)!, scores.original.get(method)!), failed: failed.get(method)!,
    };
  });
  const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');
  out.write(`dataset ${values.dataset}: ${names.length} tampered images${include ? ` matching ${include}` : ''}, ${scores.original.get(methods[0]!)!.length} originals\n`);
  out.write('| method | tool | pixel AUC | best F1 | MCC | image AUC | failed |\n|---|---|---|---|---|---|---|\n');
  for (const r of rows) out.write(`| ${r.method} | ${r.method === 'fused' ? '' : kernelRegistry[r.method as KernelId].tool} | ${f3(r.pixelAuc)} | ${f3(r.bestF1)} | ${f3(r.mcc)} | ${f3(r.imageAuc)} | ${r.failed} |\n`);
  if (values.json) writeFileSync(values.json, `${JSON.stringify({
    dataset: values.dataset, include: values.include ?? null, images: names.length, methods: rows, perImage,
    imageScores: Object.fromEntries(methods.map((m) => [m, { tampered: scores.tampered.get(m), original: scores.original.get(m) }])),
  }, null, 2)}\n`);
  return 0;
}
