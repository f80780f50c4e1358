import { sharp } from '../runtime/lazySharp.js';
import type { OutputInfo } from 'sharp';
import { InvalidInputError } from '../errors.js';

/**
 * How every AI-image model sees an image, in training and in inference alike (see the package README):
 * 1. decode, apply the EXIF orientation, flatten any alpha onto white, convert to 8-bit sRGB (metadata is gone);
 * 2. bring the shorter side to at most `maxSide` (512) by Lanczos-3 reduction, and leave smaller images at their
 *    native resolution: generators write 256 to 1024 px images, and the photographs of the web (like the real
 *    training images: ImageNet, the benchmark photos) are camera pictures reduced to about that size. A 256 px
 *    crop of a 12 MP original would show a few smooth pixels of sensor blur instead, which no training image
 *    resembles. Resizing all images to one size would make the resampling factor itself the signal, and erase
 *    the pixel-level traces generators leave. Only an image whose shorter side is below the crop is enlarged;
 * 3. cut a `crop` x `crop` square (the centre in inference; the centre and two corners as training views), as
 *    forensic detectors do (Wang et al., CVPR 2020; Corvi et al., ICASSP 2023: crops, not resizing, at test time);
 * 4. encode that square as JPEG quality 90 with 4:2:0 chroma and decode it again, so that PNG and JPEG inputs,
 *    and JPEGs of any quality above 90, arrive with the same compression history.
 */
export interface ViewSpec {
  /** Square crop side. */
  crop: number;
  /** Larger images are reduced until their shorter side is this. */
  maxSide: number;
}

/** A prepared square view: 8-bit RGB, interleaved, `size` x `size`. */
export interface PreparedView {
  size: number;
  rgb: Uint8Array;
}

/** Where a view is cut: the centre, or (training views only) the top-left or bottom-right corner. */
export type CropPosition = 'centre' | 'top-left' | 'bottom-right';

/** The view every model reads: MobileNetV2 its centre 224, InceptionV3 and the handcrafted spectra all 256. */
export const VIEW: ViewSpec = { crop: 256, maxSide: 512 };

/** JPEG quality of the normalising round trip (step 4). */
export const NORMALISING_JPEG_QUALITY = 90;

/** Decodes an image once and prepares its view at each of `positions`. */
export async function prepareViews(
  image: Uint8Array,
  spec: ViewSpec = VIEW,
  positions: readonly CropPosition[] = ['centre'],
): Promise<PreparedView[]> {
  let base: { data: Buffer; info: OutputInfo };
  try {
    base = await sharp(image, { failOn: 'error', limitInputPixels: 268_402_689 })
      .rotate()
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .resize({ width: spec.maxSide, height: spec.maxSide, fit: 'outside', withoutEnlargement: true, kernel: 'lanczos3' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new InvalidInputError('image', 'a decodable JPEG, PNG, WebP, GIF, TIFF or AVIF image', image, { cause: error });
  }
  const { data, width, height } = await enlargeToSide({ data: base.data, width: base.info.width, height: base.info.height }, spec.crop);
  const views: PreparedView[] = [];
  for (const position of positions) {
    const left = position === 'centre' ? (width - spec.crop) >> 1 : position === 'top-left' ? 0 : width - spec.crop;
    const top = position === 'centre' ? (height - spec.crop) >> 1 : position === 'top-left' ? 0 : height - spec.crop;
    const rgb = await normalisedSquare({ data, width, height }, left, top, spec.crop, NORMALISING_JPEG_QUALITY);
    views.push({ size: spec.crop, rgb: new Uint8Array(rgb.buffer, rgb.byteOffset, rgb.byteLength) });
  }
  return views;
}

/** Interleaved 8-bit RGB pixels. */
export interface RawRgb {
  data: Buffer;
  width: number;
  height: number;
}

/** The image itself when its shorter side reaches `side`; otherwise enlarged (Lanczos-3) until it does. */
export async function enlargeToSide(image: RawRgb, side: number): Promise<RawRgb> {
  const { data, width, height } = image;
  if (Math.min(width, height) >= side) return image;
  const scale = side / Math.min(width, height);
  const enlarged = { width: Math.max(side, Math.round(width * scale)), height: Math.max(side, Math.round(height * scale)) };
  return {
    data: await sharp(data, { raw: { width, height, channels: 3 } }).resize({ ...enlarged, fit: 'fill', kernel: 'lanczos3' }).raw().toBuffer(),
    ...enlarged,
  };
}

/**
 * The `size` x `size` square at (`left`, `top`) after a JPEG round trip (4:2:0 chroma, libjpeg's encoder), as
 * interleaved RGB: every view's last compression, whatever the input's.
 */
export async function normalisedSquare(image: RawRgb, left: number, top: number, size: number, quality: number): Promise<Buffer> {
  const { data, width, height } = image;
  const jpeg = await sharp(data, { raw: { width, height, channels: 3 } })
    .extract({ left, top, width: size, height: size })
    .jpeg({ quality, chromaSubsampling: '4:2:0', mozjpeg: false })
    .toBuffer();
  return sharp(jpeg).removeAlpha().raw().toBuffer();
}

/** Planar float input of a backbone ([3, size, size], values in [0, 1] as nsfwjs trained them) from the centre of a view. */
export function toPlanar(view: PreparedView, size: number): Float32Array {
  if (size > view.size) throw new RangeError(`view of ${view.size} px is smaller than ${size}`);
  const offset = (view.size - size) >> 1;
  const plane = size * size;
  const out = new Float32Array(3 * plane);
  for (let y = 0; y < size; y++) {
    const row = ((y + offset) * view.size + offset) * 3;
    for (let x = 0; x < size; x++) {
      const i = row + 3 * x;
      const o = y * size + x;
      out[o] = view.rgb[i]! / 255;
      out[plane + o] = view.rgb[i + 1]! / 255;
      out[2 * plane + o] = view.rgb[i + 2]! / 255;
    }
  }
  return out;
}
