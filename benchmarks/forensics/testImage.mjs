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
 * The digicam_corpus git directory (drewnoakes/digicam_corpus, CC0), read at bench time and never copied into this
 * repository: `DIGICAM_CORPUS_GIT`, default where the `fetch` tool of this project's machines puts it.
 */
export const digicamCorpusGit = process.env.DIGICAM_CORPUS_GIT ?? '/work/.mirror/drewnoakes+digicam_corpus/repo';
/** The commit of digicam_corpus that ../shared/datasets/SOURCES.md lists. */
const DIGICAM_COMMIT = '6385e5eacf2d';

/**
 * Camera JPEGs of about 12 MP at their own resolution, none resized or re-encoded (baseline, as cameras write them):
 * the two of the shared datasets (c2pa-public-testfiles, CC BY-SA 4.0: a Truepic phone capture, 4032 x 3024, EXIF
 * orientation 6, and a Nikon Z 9 sample, 4128 x 2752) and, where the digicam_corpus git directory is on this machine,
 * five more cameras from it (iPhone XR, GoPro Hero7 Black, Nikon D90, Canon EOS RP, Kodak Z981; 11.5 to 13.8 MP). Each
 * `{ name, bytes, width, height }`; empty without the datasets. Benchmarks take them in turn, a fresh image per run.
 */
export async function cameraPhotos12MP(sharp) {
  const root = resolve(fileURLToPath(new URL('../../', import.meta.url)), process.env.CONTENT_ANALYSIS_DATASETS ?? '../shared/datasets');
  const photos = [];
  for (const [name, path] of [['Truepic phone', 'images/c2pa-public-testfiles/truepic-20230212-camera.jpg'], ['Nikon Z 9', 'images/c2pa-public-testfiles/nikon-20221019-building.jpeg']]) {
    if (existsSync(join(root, path))) photos.push({ name, bytes: readFileSync(join(root, path)) });
  }
  if (existsSync(digicamCorpusGit)) {
    const { execFileSync } = await import('node:child_process');
    for (const [name, path] of [
      ['iPhone XR', 'Apple/iPhone XR/IMG_3580.JPG'], ['GoPro Hero7 Black', 'GoPro/Hero7Black/GOPR8509.JPG'], ['Nikon D90', 'Nikon/D90/DSC_0002.JPG'],
      ['Canon EOS RP', 'Canon/EOS RP/_MG_0632.JPG'], ['Kodak Z981', 'Kodak/Z981/102KZ981/102_0009.JPG'],
    ]) {
      try {
        photos.push({ name, bytes: execFileSync('git', ['--git-dir', digicamCorpusGit, 'show', `${DIGICAM_COMMIT}:${path}`], { maxBuffer: 1 << 28 }) });
      } catch { /* a file the mirror lacks (over its size limit) is left out */ }
    }
  }
  for (const photo of photos) Object.assign(photo, await sharp(photo.bytes).metadata().then(({ width, height }) => ({ width, height })));
  return photos;
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
