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
