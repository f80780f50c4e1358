// Evaluation of @content-analysis/image-metadata (built dist) on the shared datasets: field-level agreement with
// exiftool 12.57 (exif-samples), agreement with the reference C2PA reader (c2pa-public-testfiles/manifests) and the
// invisible-watermark test vectors. Run: node_modules/.bin/tsc -b packages/image-metadata && node scripts/image-metadata/evaluate.mjs
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractImageMetadata } from '../../packages/image-metadata/dist/index.js';
import { compareWithExiftool, isCameraJpeg } from './compareWithExiftool.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const images = join(resolve(root, process.env.CONTENT_ANALYSIS_DATASETS ?? '../shared/datasets'), 'images');
const verbose = process.argv.includes('--verbose');

async function exiftoolAgreement() {
  const dir = join(images, 'exif-samples');
  if (!existsSync(dir)) return console.log('exif-samples absent: skipped');
  const reference = JSON.parse(readFileSync(join(dir, 'exiftool-12.57.json'), 'utf8'));
  let compared = 0, disagree = 0, fileCount = 0;
  for (const entry of reference.filter((r) => isCameraJpeg(r.SourceFile) && existsSync(join(dir, r.SourceFile)))) {
    fileCount++;
    try {
      const result = await extractImageMetadata(readFileSync(join(dir, entry.SourceFile)), { minDimension: 0, decodeWatermark: false });
      const outcome = compareWithExiftool(result, entry);
      compared += outcome.compared;
      disagree += outcome.disagreements.length;
      if (verbose) for (const d of outcome.disagreements) console.log(`  ${entry.SourceFile} ${d.field}: ours ${JSON.stringify(d.ours)} exiftool ${JSON.stringify(d.exiftool)}`);
    } catch (error) {
      compared++; disagree++;
      console.log(`  ${entry.SourceFile} unreadable: ${error.message}`);
    }
  }
  console.log(`exiftool 12.57 agreement (exif-samples camera JPEGs): ${compared - disagree}/${compared} fields = ${(100 * (1 - disagree / compared)).toFixed(2)}% over ${fileCount} files`);
}

const TRUST_OR_TIME = new Set(['signingCredential.untrusted', 'signingCredential.expired', 'timeStamp.mismatch', 'timeStamp.untrusted']);

async function c2paAgreement() {
  const dir = join(images, 'c2pa-public-testfiles');
  if (!existsSync(join(dir, 'manifests'))) return console.log('c2pa-public-testfiles absent: skipped');
  const { readdirSync } = await import('node:fs');
  let compared = 0, disagree = 0, stateRight = 0, files = 0;
  for (const name of readdirSync(join(dir, 'manifests'))) {
    const file = ['jpg', 'jpeg'].map((e) => join(dir, `${name}.${e}`)).find(existsSync);
    if (!file) continue;
    files++;
    const ref = JSON.parse(readFileSync(join(dir, 'manifests', name, 'manifest_store.json'), 'utf8'));
    const { c2pa } = await extractImageMetadata(readFileSync(file), { minDimension: 0, decodeWatermark: false });
    const checks = [['active', c2pa.active_manifest_label, ref.active_manifest], ['labels', Object.keys(c2pa.manifests ?? {}).sort(), Object.keys(ref.manifests).sort()]];
    for (const [label, m] of Object.entries(ref.manifests)) {
      const ours = c2pa.manifests?.[label];
      checks.push([`${label} generator`, ours?.claim_generator, m.claim_generator], [`${label} title`, ours?.title, m.title],
        [`${label} ingredients`, ours?.ingredient_paths, (m.ingredients ?? []).map((i) => i.title)], [`${label} signer`, ours?.signature_info?.issuer, m.signature_info?.issuer]);
    }
    const refCodes = (ref.validation_status ?? []).map((s) => s.code).filter((c) => !TRUST_OR_TIME.has(c)).sort();
    checks.push(['failure codes', (c2pa.validation_status ?? []).map((s) => s.code).filter((c) => !TRUST_OR_TIME.has(c)).sort(), refCodes]);
    const refInvalid = (ref.validation_status ?? []).length > 0;
    if ((c2pa.validation_state === 'invalid') === refInvalid) stateRight++;
    for (const [what, ours, theirs] of checks) {
      compared++;
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) { disagree++; console.log(`  ${name} ${what}: ours ${JSON.stringify(ours)} reference ${JSON.stringify(theirs)}`); }
    }
  }
  console.log(`c2patool agreement (c2pa-public-testfiles): ${compared - disagree}/${compared} checks = ${(100 * (1 - disagree / compared)).toFixed(2)}%; valid/invalid verdict right on ${stateRight}/${files} files`);
}

async function watermarkVectors() {
  const dir = join(images, 'sd-invisible-watermark');
  if (!existsSync(dir)) return console.log('sd-invisible-watermark absent: skipped');
  const expected = JSON.parse(readFileSync(join(dir, 'expected_decode.json'), 'utf8'));
  console.log('invisible watermark vectors: file | label | detected | best match (ours) | reference best');
  for (const [file, entry] of Object.entries(expected)) {
    const result = await extractImageMetadata(readFileSync(join(dir, file)), { minDimension: 0 });
    const wm = result.invisible_watermark;
    const target = entry.label === 'clean' ? undefined : wm.best.find((b) => b.payload === entry.label);
    const refBest = entry.label === 'clean' ? '-' : Math.max(...Object.values(entry.decode).map((d) => d[entry.label]));
    console.log(`  ${file} | ${entry.label} | ${wm.detections.map((d) => d.payload).join(',') || 'none'} | ${target ? `${target.matchedBits}/${target.totalBits} ${target.convention}` : '-'} | ${refBest}`);
  }
}

await exiftoolAgreement();
await c2paAgreement();
await watermarkVectors();
