import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATASETS_DIR as DATASETS } from '../datasets.mjs';

/** Exits with a clear message when the datasets are absent. */
export function requireDatasets() {
  const dir = join(DATASETS, 'images', 'ai-vs-real-train');
  if (!existsSync(dir)) {
    console.log(`skipped: ${dir} not found (set CONTENT_ANALYSIS_DATASETS to the shared datasets folder)`);
    process.exit(0);
  }
}

/** Minimal CSV reader (quoted fields with doubled quotes). */
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') row.push(field), (field = '');
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field), rows.push(row), (row = []), (field = '');
    } else field += ch;
  }
  if (field !== '' || row.length > 0) row.push(field), rows.push(row);
  const [header, ...body] = rows.filter((r) => r.length > 1);
  return body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

/**
 * Generator family of an AI row, the unit left out in the leave-generator-out evaluation. Families merge versions
 * of one model line (all Stable Diffusion releases are one family, so no SD version helps predict another).
 */
export function generatorFamily(generator) {
  const g = generator.toLowerCase();
  if (g.includes('midjourney')) return 'midjourney';
  if (g.includes('dall-e 2')) return 'dalle2';
  if (g.includes('dall-e mini') || g.includes('craiyon')) return 'dalle-mini';
  if (g.includes('stable diffusion') || g.includes('sdxl') || g.includes('invokeai')) return 'stable-diffusion';
  if (g.includes('latent-diffusion')) return 'latent-diffusion';
  if (g.includes('glid-3')) return 'glid3';
  if (g.includes('disco diffusion')) return 'disco-diffusion';
  if (g.includes('majesty')) return 'majesty-diffusion';
  if (g.includes('vqgan') || g.includes('pixray')) return 'vqgan-clip';
  if (g.includes('stylegan')) return 'stylegan2';
  if (g.includes('pixart')) return 'pixart';
  return 'other:' + g.slice(0, 30);
}

/** Every row of ai-vs-real-train: {dataset, path, label (1 = AI), family, group}. */
export function trainingImages() {
  const root = join(DATASETS, 'images', 'ai-vs-real-train');
  const rows = [];
  for (const subset of readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    const csv = join(root, subset.name, 'labels.csv');
    if (!existsSync(csv)) continue;
    for (const r of parseCsv(readFileSync(csv, 'utf8'))) {
      const ai = r.label === 'ai';
      rows.push({
        dataset: 'ai-vs-real-train',
        subset: subset.name,
        path: join(root, subset.name, r.file),
        label: ai ? 1 : 0,
        family: ai ? generatorFamily(r.generator_or_camera) : 'real',
        group: `${subset.name}/${r.group}`,
      });
    }
  }
  return rows;
}

/** Images whose shorter side is below this are outside the API's input rules (spec: minimum 256 x 256). */
export const MIN_SIDE = 256;

function walk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
    .filter((f) => /\.(jpe?g|png|webp|tiff?)$/i.test(f));
}

/**
 * Held-out sets never used in training or in any choice: rows {dataset, path, label}. Photographs of cameras and
 * phones from the metadata test sets (exif-samples, exifr-fixtures, IPTC and pyifd references), the C2PA test
 * photos (without the one Firefly image), CASIA v1 photos (original and spliced: camera content either way), all at least 256 px on the
 * shorter side as the API requires; and cifake-subset (SD 1.4 against CIFAR-10), which is 32 px and so far below
 * that minimum: reported for reference only.
 */
export async function evaluationImages() {
  const { default: sharp } = await import('sharp');
  const images = join(DATASETS, 'images');
  const rows = [];
  const photos = async (dataset, dir, keep = () => true) => {
    for (const path of walk(dir).filter(keep)) {
      try {
        const { width, height } = await sharp(path).metadata();
        if (Math.min(width, height) >= MIN_SIDE) rows.push({ dataset, path, label: 0 });
      } catch {
        // not decodable by sharp: not an input the API takes either
      }
    }
  };
  await photos('camera photos (exif-samples, exifr, IPTC)', join(images, 'exif-samples'));
  await photos('camera photos (exif-samples, exifr, IPTC)', join(images, 'exifr-fixtures'));
  await photos('camera photos (exif-samples, exifr, IPTC)', join(images, 'iptc-reference'));
  await photos('camera photos (exif-samples, exifr, IPTC)', join(images, 'pyifd-matlab-reference'));
  await photos('casia1 photos (original and spliced)', join(images, 'forgery-casia1-samples', 'original'));
  await photos('casia1 photos (original and spliced)', join(images, 'forgery-casia1-samples', 'tampered'));
  for (const path of walk(join(images, 'cifake-subset', 'FAKE'))) rows.push({ dataset: 'cifake-subset (32 px, below the API minimum)', path, label: 1 });
  for (const path of walk(join(images, 'cifake-subset', 'REAL'))) rows.push({ dataset: 'cifake-subset (32 px, below the API minimum)', path, label: 0 });
  // The same file can sit in two sets (c2pa-node and c2pa-rs share test images): keep the first.
  const seen = new Set();
  return rows.filter((r) => {
    const key = createHash('sha256').update(readFileSync(r.path)).digest('hex');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
