import { sharp } from './lazySharp.js';
import type { OutputInfo } from 'sharp';
import { ImageDecodeError, ImageTooLargeError, ImageTooSmallError } from './errors.js';
import { recycledShared } from './internal/recycledMemory.js';
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
  /**
   * Put a large JPEG's pixels in recycled shared memory (`recycledShared`): used again for later pixels once nothing
   * of this thread refers to these any more, so a caller that decodes photo after photo faults in no fresh pages.
   * Only for a caller that keeps a reference on this thread for as long as any other thread (a `postMessage`, a
   * `structuredClone`) reads them; otherwise leave it off, and the pixels are a plain buffer of their own.
   * @default false
   */
  recycle?: boolean;
}

export const decodeImageDefaults: Required<DecodeImageOptions> = { maxPixels: 50_000_000, minSide: 64, recycle: false };

/**
 * Decodes an encoded image (JPEG, PNG, WebP, TIFF, ...) to 8-bit sRGB RGB pixels with sharp. The EXIF orientation is
 * NOT applied: forensic traces (CFA lattice, JPEG grid) live on the stored pixel grid. Alpha is dropped.
 *
 * A sequential 3-component JPEG of at least 2 MP is decoded as two bands of rows at once (`decodeRowsInto`, the same
 * pixels bit for bit): sharp's band outputs are small enough for the allocator to reuse. With `recycle`, the pixels
 * go into shared memory that is used again for later pixels once nothing of this thread refers to these any more
 * (`recycledShared`), so neither side faults in fresh pages (about 9k at 12 MP, half the decode's time on the
 * benchmark machine); to hand such pixels to another thread for longer than you hold them here, post a copy.
 */
export async function decodeImage(bytes: Uint8Array, options: DecodeImageOptions = {}): Promise<PixelBuffer> {
  const o = { ...decodeImageDefaults, ...options };
  expectPositiveInteger('maxPixels', o.maxPixels);
  expectPositiveInteger('minSide', o.minSide);
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`Expected Uint8Array for bytes but received ${String(bytes)} of type ${typeof bytes}`);
  const split = await decodeInRows(bytes, o.maxPixels, o.minSide, o.recycle);
  if (split) return split;
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    // sharp checks width * height against the limit from the header before decoding; the header is read again
    // (metadata) only to name the size of an image it refused, not for every image (a few ms at 12 MP).
    decoded = await sharp(bytes, { limitInputPixels: o.maxPixels, failOn: 'error' })
      .toColourspace('srgb').removeAlpha().raw().toBuffer({ resolveWithObject: true });
  } catch (error) {
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata().catch(() => undefined);
    const pixels = (meta?.width ?? 0) * (meta?.height ?? 0);
    if (pixels > o.maxPixels) throw new ImageTooLargeError(pixels, o.maxPixels);
    throw new ImageDecodeError(`Could not decode the image: ${(error as Error).message}`, { cause: error });
  }
  const { width, height, channels } = decoded.info;
  if (width < o.minSide || height < o.minSide) throw new ImageTooSmallError(width, height, o.minSide);
  return { data: new Uint8Array(decoded.data.buffer, decoded.data.byteOffset, decoded.data.length), width, height, channels };
}

/** JPEGs from this many pixels are decoded in two bands of rows at once (`decodeImage`, `ForensicsPool.decode`). */
export const SPLIT_DECODE_MIN_PIXELS = 2_000_000;
/** The first band's share of the rows (the second also entropy-decodes the first's rows, about a third of their cost). */
const FIRST_BAND_SHARE = 0.56;

/**
 * The first rows of the row bands a JPEG of `height` rows is decoded in: two, the second starting on an MCU row
 * (16 rows, 4:2:0) after about FIRST_BAND_SHARE of them.
 */
export function decodeBandTops(height: number): number[] {
  const mcuRows = Math.ceil(height / MCU_ROWS);
  return [0, Math.min(height - MCU_ROWS, Math.max(MCU_ROWS, Math.round(mcuRows * FIRST_BAND_SHARE) * MCU_ROWS))];
}

/**
 * `decodeImage`'s pixels of a sequential 3-component JPEG of at least SPLIT_DECODE_MIN_PIXELS within the bounds, as
 * two bands of rows decoded at once (into recycled shared memory with `recycle`); undefined for any other file, or when a band fails
 * (`decodeImage` then decodes it whole, which gives its own errors).
 */
async function decodeInRows(bytes: Uint8Array, maxPixels: number, minSide: number, recycle: boolean): Promise<PixelBuffer | undefined> {
  const frame = sequentialJpegFrame(bytes);
  if (!frame || frame.components !== 3) return undefined;
  const { width, height } = frame;
  if (width * height < SPLIT_DECODE_MIN_PIXELS || width * height > maxPixels || Math.min(width, height) < minSide) return undefined;
  const n = width * height * 3;
  // Taken when the first band is decoded, not before: by then the collector has more often taken pixels dropped just
  // before this call, whose memory these then reuse. Every byte is written by the bands (they cover the rows), so
  // recycled memory needs no clearing.
  let out: Uint8Array | undefined;
  const into = (): Uint8Array => (out ??= recycle ? new Uint8Array(recycledShared(n), 0, n) : new Uint8Array(n));
  const tops = decodeBandTops(height);
  const settled = await Promise.allSettled(tops.map((top, i) => decodeRowsInto(bytes, maxPixels, top, (tops[i + 1] ?? height) - top, width, into)));
  return settled.every((s) => s.status === 'fulfilled') ? { data: into(), width, height, channels: 3 } : undefined;
}

/** The frame header of a sequential Huffman JPEG (SOF0, SOF1): its stored size and component count. */
export interface JpegFrame {
  width: number;
  height: number;
  components: number;
}

/**
 * The frame header of JPEG bytes when it is baseline or extended sequential Huffman (SOF0, SOF1) with 8-bit samples,
 * read from the markers before the first scan; undefined for anything else (progressive, other formats, a header
 * that does not parse). Only a hint: the decode itself still checks the file.
 */
export function sequentialJpegFrame(bytes: Uint8Array): JpegFrame | undefined {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  for (let p = 2; p + 4 <= bytes.length;) {
    if (bytes[p] !== 0xff) return undefined;
    const marker = bytes[p + 1]!;
    // Fill bytes before a marker.
    if (marker === 0xff) { p++; continue; }
    const length = (bytes[p + 2]! << 8) | bytes[p + 3]!;
    if (length < 2) return undefined;
    if (marker === 0xc0 || marker === 0xc1) {
      if (p + 10 > bytes.length || bytes[p + 4] !== 8) return undefined;
      const height = (bytes[p + 5]! << 8) | bytes[p + 6]!, width = (bytes[p + 7]! << 8) | bytes[p + 8]!;
      return width > 0 && height > 0 ? { width, height, components: bytes[p + 9]! } : undefined;
    }
    // Another frame type (progressive, lossless, arithmetic...) or a scan before any frame.
    if ((marker >= 0xc2 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xcc) || marker === 0xda) return undefined;
    p += 2 + length;
  }
  return undefined;
}

/**
 * Rows `[top, top + rows)` of `decodeImage`'s pixels of a `width`-pixel-wide 3-channel image, decoded by sharp on
 * their own (libjpeg skips the rows above without their inverse DCT and colour conversion, and stops after the last)
 * and copied into `out` (the whole image's pixels) at their place. Throws ImageDecodeError when sharp fails or the
 * rows are not what was asked for. The rows equal the whole decode's bit for bit: the decoder produces the same
 * scanlines, only fewer of them (checked on all 502 JPEGs of the shared datasets with 64 rows or more, split after 56%
 * of the MCU rows; test/pool.test.ts checks the camera photos and synthetic 4:2:0, 4:4:4 and progressive files).
 * `out` may be a function that gives that buffer, called once the rows are decoded (`decodeImage` takes its memory
 * then, not before the decode).
 */
export async function decodeRowsInto(bytes: Uint8Array, maxPixels: number, top: number, rows: number, width: number, out: Uint8Array | (() => Uint8Array)): Promise<void> {
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error' })
      .extract({ left: 0, top, width, height: rows })
      .toColourspace('srgb').removeAlpha().raw().toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new ImageDecodeError(`Could not decode the image: ${(error as Error).message}`, { cause: error });
  }
  const { info, data } = decoded;
  if (info.width !== width || info.height !== rows || info.channels !== 3) throw new ImageDecodeError(`Expected ${width}x${rows} pixels of 3 channels but received ${info.width}x${info.height} of ${info.channels}`);
  const target = typeof out === 'function' ? out() : out;
  Buffer.from(data.buffer, data.byteOffset, data.length).copy(Buffer.from(target.buffer, target.byteOffset, target.byteLength), top * width * 3);
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
  const plan = recompressPlan(image, options);
  if (plan.bands.length <= 1) return roundTrip(image.data as Uint8Array, image.width, image.height, image.channels, plan.quality);
  // Joined in shared memory: a ForensicsPool then hands these pixels to its workers as they are, without a copy.
  const out = new Uint8Array(new SharedArrayBuffer(image.width * image.height * image.channels));
  await Promise.all(plan.bands.map((band) => recompressBandInto(image, plan.quality, band, out)));
  return { data: out, width: image.width, height: image.height, channels: image.channels };
}

/** One band of {@link recompressJpeg}: its own rows `[y0, y1)`, encoded with the rows `[from, to)`. */
export interface RecompressBand {
  y0: number;
  y1: number;
  from: number;
  to: number;
}

/** The checked quality and the row bands of {@link recompressJpeg} (one band: the whole image in one trip). */
export function recompressPlan(image: PixelBuffer, options: RecompressJpegOptions = {}): { quality: number; bands: RecompressBand[] } {
  const o = { ...recompressJpegDefaults, ...options };
  expectPixelBuffer('image', image);
  expectIntegerInRange('quality', o.quality, 1, 100);
  if (o.bands !== undefined) expectIntegerInRange('bands', o.bands, 1, 64);
  if (!(image.data instanceof Uint8Array)) throw new TypeError('Expected Uint8Array pixels for recompressJpeg but received Float32Array of type object');
  const { width, height } = image;
  const mcuRows = Math.ceil(height / MCU_ROWS);
  const count = Math.min(mcuRows, o.bands ?? (width * height >= BAND_MIN_PIXELS ? 2 : 1));
  if (count <= 1) return { quality: o.quality, bands: [{ y0: 0, y1: height, from: 0, to: height }] };
  return {
    quality: o.quality,
    bands: Array.from({ length: count }, (_, i) => {
      const y0 = Math.floor((i * mcuRows) / count) * MCU_ROWS, y1 = Math.min(height, Math.floor(((i + 1) * mcuRows) / count) * MCU_ROWS);
      return { y0, y1, from: Math.max(0, y0 - MCU_ROWS), to: Math.min(height, y1 + MCU_ROWS) };
    }),
  };
}

/**
 * Round-trips the rows `[band.from, band.to)` of `image` and writes its own rows `[band.y0, band.y1)` into `out`
 * (the whole image's size): what a {@link ForensicsPool} worker does per band, on the pixels in shared memory.
 */
export async function recompressBandInto(image: PixelBuffer, quality: number, band: RecompressBand, out: Uint8Array): Promise<void> {
  const row = image.width * image.channels;
  const pixels = image.data as Uint8Array;
  const done = await roundTrip(pixels.subarray(band.from * row, band.to * row), image.width, band.to - band.from, image.channels, quality);
  // Buffer#copy: the same bytes, faster than TypedArray#set into shared memory.
  Buffer.from(done.data.buffer, done.data.byteOffset, done.data.byteLength)
    .copy(Buffer.from(out.buffer, out.byteOffset, out.byteLength), band.y0 * row, (band.y0 - band.from) * row, (band.y1 - band.from) * row);
}

/**
 * Round-trips the rows `[band.from, band.to)` of `image` and returns its own rows `[band.y0, band.y1)` of the result
 * (a view on sharp's output, not a copy): the very rows {@link recompressJpeg} puts there.
 */
export async function recompressBandRows(image: PixelBuffer, quality: number, band: RecompressBand): Promise<Uint8Array> {
  const row = image.width * image.channels;
  const pixels = image.data as Uint8Array;
  const done = await roundTrip(pixels.subarray(band.from * row, band.to * row), image.width, band.to - band.from, image.channels, quality);
  return (done.data as Uint8Array).subarray((band.y0 - band.from) * row, (band.y1 - band.from) * row);
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
