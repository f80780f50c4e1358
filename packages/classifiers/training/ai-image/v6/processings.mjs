// The processings extract.mjs applies to each corpus image before computing its features (described in its header),
// shared with scripts/ai-image/heldout-sources.mjs, which measures the shipped models on the same copies.
import sharp from 'sharp';
import { MIN_SIDE } from '../datasets.mjs';

/** A number in [0, 1) from a hex digest and a salt (the processing parameters of one image). */
const unit = (sha, salt) => parseInt(sha.slice(salt * 6, salt * 6 + 6), 16) / 0x1000000;

/** The image turned upright (EXIF orientation), with its upright size. */
async function oriented(bytes) {
  const { width, height } = (await sharp(bytes).metadata()).autoOrient;
  return { image: sharp(bytes, { failOn: 'none', limitInputPixels: 268_402_689 }).rotate(), width, height };
}

/** The image, oriented and reduced by `factor` (Lanczos-3; never below MIN_SIDE on the shorter side; 1: as it is). */
async function reducedBy(bytes, factor) {
  const { image, width, height } = await oriented(bytes);
  const applied = Math.max(factor, MIN_SIDE / Math.min(width, height));
  return applied < 1 ? image.resize(Math.round(width * applied), null, { kernel: 'lanczos3' }) : image;
}

/** The `shared` processing of an image (see the header). */
export async function sharedCopy(bytes, sha) {
  const image = (await reducedBy(bytes, unit(sha, 0) < 0.5 ? 0.5 + unit(sha, 1) / 2 : 1)).flatten({ background: '#ffffff' });
  return unit(sha, 2) < 0.75
    ? image.jpeg({ quality: 65 + Math.floor(unit(sha, 3) * 31), chromaSubsampling: '4:2:0' }).toBuffer()
    : image.webp({ quality: 70 + Math.floor(unit(sha, 3) * 26) }).toBuffer();
}

/** The `reduced` processing of an image (see the header). */
export async function reducedCopy(bytes, sha) {
  return (await reducedBy(bytes, 0.35 + unit(sha, 4) * 0.4)).png({ compressionLevel: 0 }).toBuffer();
}

/**
 * The `enlarged` processing: enlarged by a factor from 1.25 to 2 (Lanczos-3 or bicubic, half each), as pictures are
 * shown and captured on high-density screens or blown up by editors, then kept lossless (PNG) or re-encoded as JPEG
 * at a quality from 75 to 95 (half each).
 */
export async function enlargedCopy(bytes, sha) {
  const { image: upright, width } = await oriented(bytes);
  const image = upright
    .resize(Math.round(width * (1.25 + unit(sha, 5) * 0.75)), null, { kernel: unit(sha, 6) < 0.5 ? 'lanczos3' : 'cubic' })
    .flatten({ background: '#ffffff' });
  return unit(sha, 7) < 0.5
    ? image.png({ compressionLevel: 0 }).toBuffer()
    : image.jpeg({ quality: 75 + Math.floor(unit(sha, 8) * 21), chromaSubsampling: '4:2:0' }).toBuffer();
}

/** The image, upright, with its long side reduced to `side` when it is longer (Lanczos-3). */
async function longSideAtMost(bytes, side) {
  const { image, width, height } = await oriented(bytes);
  const long = Math.max(width, height);
  if (long <= side) return { image, width, height };
  const f = side / long;
  return { image: image.resize(Math.round(width * f), Math.round(height * f), { kernel: 'lanczos3' }), width: Math.round(width * f), height: Math.round(height * f) };
}

const SOCIAL_SIDES = [720, 1080, 1280, 1600, 2048];

/** The `social` processing (see the header). */
export async function socialCopy(bytes, sha) {
  const side = SOCIAL_SIDES[Math.floor(unit(sha, 0) * SOCIAL_SIDES.length)];
  const { image: reduced, width, height } = await longSideAtMost(bytes, side);
  // sharp applies extract after resize only through a second pipeline: materialise the reduced image first.
  let image = sharp(await reduced.png({ compressionLevel: 0 }).toBuffer());
  if (unit(sha, 1) < 0.5) {
    const f = 0.6 + unit(sha, 2) * 0.3;
    const w = Math.max(Math.min(width, MIN_SIDE), Math.round(width * f));
    const h = Math.max(Math.min(height, MIN_SIDE), Math.round(height * f));
    image = image.extract({ left: Math.floor(unit(sha, 3) * (width - w)), top: Math.floor(unit(sha, 4) * (height - h)), width: w, height: h });
  }
  if (unit(sha, 5) < 0.1) image = image.blur(0.5 + unit(sha, 6));
  image = image.flatten({ background: '#ffffff' });
  const quality = 60 + Math.floor(unit(sha, 7) * 36);
  const format = unit(sha, 8);
  if (format < 0.2) return image.png({ compressionLevel: 0 }).toBuffer();
  return format < 0.75 ? image.jpeg({ quality, chromaSubsampling: '4:2:0' }).toBuffer() : image.webp({ quality }).toBuffer();
}

/** The `asshared` processing: long side at most 1080 px, JPEG quality 75. */
export async function asSharedCopy(bytes) {
  const { image } = await longSideAtMost(bytes, 1080);
  return image.flatten({ background: '#ffffff' }).jpeg({ quality: 75, chromaSubsampling: '4:2:0' }).toBuffer();
}

/**
 * The `screenshot` processing: 80% (bicubic), PNG. The PNG is stored uncompressed: the pixels are those of
 * scripts/ai-image/robustness.mjs's screenshot (compression level 6), at a fraction of the time.
 */
export async function screenshotCopy(bytes) {
  const { image, width } = await oriented(bytes);
  return image.resize(Math.round(width * 0.8), null, { kernel: 'cubic' }).png({ compressionLevel: 0 }).toBuffer();
}

export const PROCESSINGS = {
  original: (bytes) => bytes, shared: sharedCopy, reduced: reducedCopy, enlarged: enlargedCopy, social: socialCopy,
  asshared: asSharedCopy, screenshot: screenshotCopy,
};
