import sharp from 'sharp';
import type { OutputInfo } from 'sharp';
import { InvalidInputError } from '../errors.js';

/**
 * The view the artefact features of model version 6 read. Like the view of the earlier versions (prepare.ts), the
 * image keeps its native resolution up to a shorter side of `maxSide`, so that the pixel-level traces of a generator
 * are not resampled away; unlike it, the crop is as large as the image allows (512, or 256 for smaller images),
 * because co-occurrence statistics need many residuals and the tiles are split into texture-rich and texture-poor
 * halves. The square goes through the same JPEG round trip so that PNG and JPEG inputs share one compression history.
 */
export interface ArtefactViewSpec {
  /** Larger images are reduced until their shorter side is this; it is also the crop side when the image allows. */
  maxSide: number;
  /** JPEG quality of the normalising round trip. */
  jpegQuality: number;
}

export const ARTEFACT_VIEW: ArtefactViewSpec = { maxSide: 512, jpegQuality: 90 };

/** Crop side used when the shorter side is below `maxSide`; smaller images are enlarged to it. */
const SMALL_CROP = 256;

/** A square luma plane: `size` x `size` values in 0..255, row-major. */
export interface LumaView {
  size: number;
  y: Float32Array;
}

/**
 * Decodes an image and returns the luma of its centre square (512 x 512 when the shorter side, after reduction to
 * at most 512, is 512; otherwise 256 x 256), after a JPEG quality 90, 4:2:0 round trip.
 *
 * @throws InvalidInputError on `image` when sharp cannot decode the bytes.
 */
export async function prepareArtefactView(image: Uint8Array): Promise<LumaView> {
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await sharp(image, { failOn: 'error', limitInputPixels: 268_402_689 })
      .rotate()
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .resize({
        width: ARTEFACT_VIEW.maxSide,
        height: ARTEFACT_VIEW.maxSide,
        fit: 'outside',
        withoutEnlargement: true,
        kernel: 'lanczos3',
      })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new InvalidInputError('image', 'a decodable JPEG, PNG, WebP, GIF, TIFF or AVIF image', image, { cause: error });
  }
  let { data } = decoded;
  let { width, height } = decoded.info;
  if (Math.min(width, height) < SMALL_CROP) {
    const scale = SMALL_CROP / Math.min(width, height);
    const enlargedWidth = Math.max(SMALL_CROP, Math.round(width * scale));
    const enlargedHeight = Math.max(SMALL_CROP, Math.round(height * scale));
    data = await sharp(data, { raw: { width, height, channels: 3 } })
      .resize({ width: enlargedWidth, height: enlargedHeight, fit: 'fill', kernel: 'lanczos3' })
      .raw()
      .toBuffer();
    width = enlargedWidth;
    height = enlargedHeight;
  }
  const size = Math.min(width, height) >= ARTEFACT_VIEW.maxSide ? ARTEFACT_VIEW.maxSide : SMALL_CROP;
  const jpeg = await sharp(data, { raw: { width, height, channels: 3 } })
    .extract({ left: (width - size) >> 1, top: (height - size) >> 1, width: size, height: size })
    .jpeg({ quality: ARTEFACT_VIEW.jpegQuality, chromaSubsampling: '4:2:0', mozjpeg: false })
    .toBuffer();
  const rgb = await sharp(jpeg).removeAlpha().raw().toBuffer();
  return { size, y: lumaOf(rgb, size * size) };
}

/** ITU-R BT.601 luma of interleaved 8-bit RGB. */
function lumaOf(rgb: Uint8Array, count: number): Float32Array {
  const y = new Float32Array(count);
  for (let i = 0; i < count; i++) y[i] = 0.299 * rgb[3 * i]! + 0.587 * rgb[3 * i + 1]! + 0.114 * rgb[3 * i + 2]!;
  return y;
}
