import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A photo-like test JPEG: smooth colour field with texture and noise, encoded at quality 92 by `sharp`. */
export async function testJpeg(sharp, width, height) {
  const rgb = new Uint8Array(width * height * 3);
  let s = 12345;
  const rand = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) for (let c = 0; c < 3; c++) {
    const v = 128 + 60 * Math.sin(x / (70 + 20 * c) + y / 90) + 25 * Math.sin((x * y) / 5000) + 8 * (rand() - 0.5);
    rgb[(y * width + x) * 3 + c] = Math.max(0, Math.min(255, v));
  }
  return sharp(rgb, { raw: { width, height, channels: 3 } }).jpeg({ quality: 92 }).toBuffer();
}

/** The camera photo the image benchmarks scale (from `CONTENT_ANALYSIS_DATASETS`, default `../shared/datasets`). */
export const benchPhoto = join(
  resolve(fileURLToPath(new URL('../../', import.meta.url)), process.env.CONTENT_ANALYSIS_DATASETS ?? '../shared/datasets'),
  'images/exif-samples/jpg/Canon_40D.jpg',
);

/**
 * A JPEG of about `mp` megapixels: {@link benchPhoto} resized (Lanczos 3, quality 92), or {@link testJpeg} of 4:3 where
 * the datasets are absent.
 */
export async function photoOfMegapixels(sharp, mp) {
  if (!existsSync(benchPhoto)) return testJpeg(sharp, Math.round(Math.sqrt(mp * 1e6 * 4 / 3)), Math.round(Math.sqrt(mp * 1e6 * 3 / 4)));
  const { width, height } = await sharp(benchPhoto).metadata();
  const scale = Math.sqrt((mp * 1e6) / (width * height));
  return sharp(readFileSync(benchPhoto)).resize(Math.round(width * scale), Math.round(height * scale), { kernel: 'lanczos3' }).jpeg({ quality: 92 }).toBuffer();
}

/**
 * Real camera photos at their own resolution, in the shared datasets (`CONTENT_ANALYSIS_DATASETS`), by short name:
 * what the kernel benchmarks time. Each is the camera's (or the phone's) own JPEG, 4:2:0, never resized or re-encoded.
 * - `pixel5`: Google Pixel 5 phone capture, 4032x3024 (12.2 MP), `c2pa-public-testfiles/truepic-20230212-camera.jpg`
 *   (C2PA public test files, CC BY-SA 4.0)
 * - `nikonZ9`: Nikon Z 9 sample, 4128x2752 (11.4 MP), `c2pa-public-testfiles/nikon-20221019-building.jpeg` (same set)
 * - `canon1300D`: Canon EOS 1300D, 5184x3456 (17.9 MP), `exifr-fixtures/canon-dslr.jpg` (exifr's test fixtures)
 */
export const cameraPhotos = {
  pixel5: 'images/c2pa-public-testfiles/truepic-20230212-camera.jpg',
  nikonZ9: 'images/c2pa-public-testfiles/nikon-20221019-building.jpeg',
  canon1300D: 'images/exifr-fixtures/canon-dslr.jpg',
};

/** The datasets folder the benchmarks read (`CONTENT_ANALYSIS_DATASETS`, default `../shared/datasets` from the root). */
export const datasetsDir = resolve(fileURLToPath(new URL('../../', import.meta.url)), process.env.CONTENT_ANALYSIS_DATASETS ?? '../shared/datasets');

/** Path of a {@link cameraPhotos} entry; throws with the expected location when the datasets are absent. */
export function cameraPhotoPath(name) {
  const rel = cameraPhotos[name];
  if (!rel) throw new RangeError(`Expected one of ${Object.keys(cameraPhotos).join(', ')} for photo but received ${name}`);
  const path = join(datasetsDir, rel);
  if (!existsSync(path)) throw new Error(`Camera photo ${name} not found at ${path}: set CONTENT_ANALYSIS_DATASETS to the shared datasets folder`);
  return path;
}
