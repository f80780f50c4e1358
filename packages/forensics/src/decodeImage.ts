import { sharp } from './lazySharp.js';
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
  /**
   * Row bands encoded and decoded at the same time in sharp's threads (the result is the same for any count; see
   * `recompressJpeg`). The default splits images of at least 2 MP in two.
   * @default undefined
   */
  bands?: number;
}

export const recompressJpegDefaults: Required<Omit<RecompressJpegOptions, 'bands'>> = { quality: 90 };

/** Images from this many pixels are re-encoded in two row bands by default. */
const BAND_MIN_PIXELS = 2_000_000;
/** Rows of a JPEG MCU with 4:2:0 chroma, and the margin each band is encoded with beyond its own rows. */
const MCU_ROWS = 16;

/**
 * Re-encodes 8-bit pixels as a baseline JPEG (4:2:0 chroma, standard tables, no Huffman optimisation) with sharp and
 * decodes it back: the second input of `errorLevelAnalysis`. Large images go through in row bands at the same time:
 * each band starts at a multiple of 16 rows (an MCU row) and is encoded with 16 rows more above and below, which it
 * then drops. JPEG codes each MCU from its own pixels (the DC differences are lossless, the chroma averaging is within
 * 2x2 pixels) and the decoder's chroma upsampling reads one chroma row (two pixel rows) either side, so a band's own
 * rows decode to exactly the whole image's (test/decodeImage.test.ts); the last band ends where the image does, with
 * the same bottom padding. The banded result's pixels are in a SharedArrayBuffer.
 */
export async function recompressJpeg(image: PixelBuffer, options: RecompressJpegOptions = {}): Promise<PixelBuffer> {
  const o = { ...recompressJpegDefaults, ...options };
  expectPixelBuffer('image', image);
  expectIntegerInRange('quality', o.quality, 1, 100);
  if (o.bands !== undefined) expectIntegerInRange('bands', o.bands, 1, 64);
  if (!(image.data instanceof Uint8Array)) throw new TypeError('Expected Uint8Array pixels for recompressJpeg but received Float32Array of type object');
  const { width, height, channels } = image;
  const pixels = image.data;
  const mcuRows = Math.ceil(height / MCU_ROWS);
  const bands = Math.min(mcuRows, o.bands ?? (width * height >= BAND_MIN_PIXELS ? 2 : 1));
  if (bands <= 1) return roundTrip(pixels, width, height, channels, o.quality);
  // Joined in shared memory: a ForensicsPool then hands these pixels to its workers as they are, without a copy.
  const out = new Uint8Array(new SharedArrayBuffer(width * height * channels));
  const row = width * channels;
  await Promise.all(Array.from({ length: bands }, async (_, i) => {
    const y0 = Math.floor((i * mcuRows) / bands) * MCU_ROWS, y1 = Math.min(height, Math.floor(((i + 1) * mcuRows) / bands) * MCU_ROWS);
    const from = Math.max(0, y0 - MCU_ROWS), to = Math.min(height, y1 + MCU_ROWS);
    const band = await roundTrip(pixels.subarray(from * row, to * row), width, to - from, channels, o.quality);
    // Buffer#copy: the same bytes, two to three times faster than TypedArray#set into shared memory (this runs
    // on the event loop: 147 MB for a 49-Mpx image).
    Buffer.from(band.data.buffer, band.data.byteOffset, band.data.byteLength)
      .copy(Buffer.from(out.buffer, out.byteOffset, out.byteLength), y0 * row, (y0 - from) * row, (y1 - from) * row);
  }));
  return { data: out, width, height, channels };
}

/** One JPEG encode and decode of `height` rows of 8-bit pixels with sharp. */
async function roundTrip(data: Uint8Array, width: number, height: number, channels: number, quality: number): Promise<PixelBuffer> {
  const jpeg = await sharp(data, { raw: { width, height, channels: channels as 1 | 2 | 3 | 4 } })
    .jpeg({ quality, chromaSubsampling: '4:2:0', optimiseCoding: false, mozjpeg: false })
    .toBuffer();
  const { data: decoded, info } = await sharp(jpeg).toColourspace(channels === 1 ? 'b-w' : 'srgb').raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== channels) throw new ImageDecodeError(`JPEG round trip returned ${info.channels} channels for ${channels}`);
  return { data: new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.length), width: info.width, height: info.height, channels: info.channels };
}
