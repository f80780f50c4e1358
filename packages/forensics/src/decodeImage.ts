import sharp from 'sharp';
import type { OutputInfo } from 'sharp';
import { ImageDecodeError, ImageTooLargeError, ImageTooSmallError } from './errors.js';
import type { PixelBuffer } from './types.js';
import { expectIntegerInRange, expectPixelBuffer, expectPositiveInteger } from './validate.js';

export interface DecodeImageOptions {
  /**
   * Largest accepted width*height.
   * @default 50_000_000
   */
  maxPixels?: number;
  /**
   * Smallest accepted width and height.
   * @default 64
   */
  minSide?: number;
}

export const decodeImageDefaults: Required<DecodeImageOptions> = { maxPixels: 50_000_000, minSide: 64 };

/**
 * Decodes an encoded image (JPEG, PNG, WebP, TIFF, ...) to 8-bit sRGB RGB pixels with sharp. The EXIF orientation is
 * NOT applied: forensic traces (CFA lattice, JPEG grid) live on the stored pixel grid. Alpha is dropped.
 */
export async function decodeImage(bytes: Uint8Array, options: DecodeImageOptions = {}): Promise<PixelBuffer> {
  const o = { ...decodeImageDefaults, ...options };
  expectPositiveInteger('maxPixels', o.maxPixels);
  expectPositiveInteger('minSide', o.minSide);
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`Expected Uint8Array for bytes but received ${String(bytes)} of type ${typeof bytes}`);
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    const pixels = (meta.width ?? 0) * (meta.height ?? 0);
    if (pixels > o.maxPixels) throw new ImageTooLargeError(pixels, o.maxPixels);
    decoded = await sharp(bytes, { limitInputPixels: false, failOn: 'error' })
      .toColourspace('srgb').removeAlpha().raw().toBuffer({ resolveWithObject: true });
  } catch (error) {
    if (error instanceof ImageTooLargeError) throw error;
    throw new ImageDecodeError(`Could not decode the image: ${(error as Error).message}`, { cause: error });
  }
  const { width, height, channels } = decoded.info;
  if (width < o.minSide || height < o.minSide) throw new ImageTooSmallError(width, height, o.minSide);
  return { data: new Uint8Array(decoded.data.buffer, decoded.data.byteOffset, decoded.data.length), width, height, channels };
}

export interface RecompressJpegOptions {
  /**
   * JPEG quality of the re-encode (the toolbox's ELA uses 90).
   * @default 90
   */
  quality?: number;
}

export const recompressJpegDefaults: Required<RecompressJpegOptions> = { quality: 90 };

/**
 * Re-encodes 8-bit pixels as a baseline JPEG (4:2:0 chroma, standard tables, no Huffman optimisation) with sharp and
 * decodes it back: the second input of `errorLevelAnalysis`.
 */
export async function recompressJpeg(image: PixelBuffer, options: RecompressJpegOptions = {}): Promise<PixelBuffer> {
  const o = { ...recompressJpegDefaults, ...options };
  expectPixelBuffer('image', image);
  expectIntegerInRange('quality', o.quality, 1, 100);
  if (!(image.data instanceof Uint8Array)) throw new TypeError('Expected Uint8Array pixels for recompressJpeg but received Float32Array of type object');
  const { width, height, channels } = image;
  const jpeg = await sharp(image.data, { raw: { width, height, channels: channels as 1 | 2 | 3 | 4 } })
    .jpeg({ quality: o.quality, chromaSubsampling: '4:2:0', optimiseCoding: false, mozjpeg: false })
    .toBuffer();
  const { data, info } = await sharp(jpeg).toColourspace(channels === 1 ? 'b-w' : 'srgb').raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== channels) throw new ImageDecodeError(`JPEG round trip returned ${info.channels} channels for ${channels}`);
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, channels: info.channels };
}
