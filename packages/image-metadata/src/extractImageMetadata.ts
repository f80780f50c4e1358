import { sharp } from './lazySharp.js';
import type { Metadata } from 'sharp';
import { c2paLocation, findC2paStore } from './c2pa/findC2paStore.js';
import { readC2paAt, type C2paObject } from './c2pa/readC2pa.js';
import { ImageInputError, ImageMetadataOptionError } from './errors.js';
import { buildExifObject, type ExifFieldSource, type ExifObject } from './exif/buildExifObject.js';
import { readCameraExif, type CameraExif } from './exif/readCameraExif.js';
import { checkContainerIntegrity } from './input/checkContainerIntegrity.js';
import { readJpegHeader } from './input/readJpegHeader.js';
import { describeMagic, sniffImageType, type SniffedImageType } from './input/sniffImageType.js';
import { toImageBytes, type ImageInput } from './input/toImageBytes.js';
import { parseIptcIim, type IptcFields } from './iptc/parseIptcIim.js';
import { toMetadataObject, type ImageMetadataObject } from './metadata/toMetadataObject.js';
import {
  c2paSignals, exifSoftwareSignals, exifUserCommentSignals, groupSignals, pngTextSignals, watermarkSignals, xmpSignals,
  type AiSignal, type SignalStrength,
} from './signals/aiSignals.js';
import { decodeInvisibleWatermark, type InvisibleWatermarkResult } from './watermark/decodeInvisibleWatermark.js';
import { decodeInvisibleWatermarkOffThread, decodeSharedPixelsOffThread } from './watermark/decodeOffThread.js';
import { parseXmp, type XmpProperties } from './xmp/parseXmp.js';

/** Interleaved 8-bit pixels of a decoded image. */
export interface DecodedPixels {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

/** Options of {@link extractImageMetadata}. */
export interface ExtractImageMetadataOptions {
  /**
   * Largest accepted file, in bytes (spec: "about 4 MB or less").
   * @default 4_194_304
   */
  maxBytes?: number;
  /**
   * Smallest accepted width and height in pixels; 0 accepts any size. The metadata of an image of any size can be
   * read: the spec's 256x256 minimum is the detection endpoints', which pass it here.
   * @default 0
   */
  minDimension?: number;
  /**
   * Largest accepted width x height, against decompression bombs (checked from the header, before decoding).
   * @default 50_000_000
   */
  maxPixels?: number;
  /**
   * Decode the invisible DWT watermark from the pixels (costs a full decode; see the benchmark).
   * @default true
   */
  decodeWatermark?: boolean;
  /**
   * The image's pixels, when the caller has decoded them already, for the watermark decoder to read instead of
   * decoding the image again: 8-bit sRGB without alpha, EXIF orientation applied (what sharp's
   * `autoOrient().removeAlpha().toColourspace('srgb').raw()` gives). Pixels of another size or depth are ignored.
   * A rejected promise is reported as a watermark part error.
   * @default undefined: decode
   */
  pixels?: DecodedPixels | Promise<DecodedPixels>;
  /**
   * Check C2PA signers against the trust list (off: test credentials would all read untrusted).
   * @default false
   */
  verifyC2paTrust?: boolean;
}

/** A part that failed on a valid image: the rest of the result still came back. */
export interface PartError {
  part: 'exif' | 'xmp' | 'iptc' | 'c2pa' | 'watermark';
  message: string;
}

/** Everything the file says about itself. */
export interface ImageMetadataResult {
  mime_type: 'image/jpeg' | 'image/png' | 'image/webp';
  metadata: ImageMetadataObject;
  exif: ExifObject;
  c2pa: C2paObject;
  ai_watermark_detected: boolean;
  ai_watermark_issuers: Record<string, { strength: SignalStrength; signals: Omit<AiSignal, 'issuer'>[] }>;
  /** Which block (xmp, iptc, exif) each documented exif field was read from. */
  exif_sources: Record<string, ExifFieldSource>;
  /** The pixel decoder's best match per payload, when it ran. */
  invisible_watermark?: InvisibleWatermarkResult;
  errors: PartError[];
}

const DEFAULTS = { maxBytes: 4 * 1024 * 1024, minDimension: 0, maxPixels: 50_000_000 } as const;

/** What {@link checkImageInput} found: the image's format and size. */
export interface CheckedImageInput {
  mime_type: string;
  format: string;
  width: number;
  height: number;
  /** EXIF orientation (1 when absent): pixels decoded without applying it match the oriented image only at 1. */
  orientation: number;
}

/**
 * The input checks of {@link extractImageMetadata} alone (size in bytes, format, container integrity, pixel limit
 * from the header, minimum dimension), with the same errors, reading only the header: a caller can reject bad input
 * before starting other work on the image and then run that work beside the metadata extraction.
 */
export async function checkImageInput(input: ImageInput, options: ExtractImageMetadataOptions = {}): Promise<CheckedImageInput> {
  const { type, meta } = await checkedImage(input, options);
  return { mime_type: type.mimeType, format: type.format, width: meta.width ?? 0, height: meta.height ?? 0, orientation: meta.orientation ?? 1 };
}

// The checks, with what extractImageMetadata goes on to read: the bytes, the sniffed type, sharp's header metadata
// and, when the header walk saw it, whether a JUMBF (C2PA) segment is embedded. A JPEG's header is read here in
// JavaScript (the same fields sharp reports, see readJpegHeader); sharp reads the rest and the unusual JPEGs.
interface CheckedImage {
  bytes: Uint8Array;
  type: SniffedImageType;
  meta: Metadata;
  maxPixels: number;
  /** Whether an APP11 JUMBF segment is embedded, when the header walk saw it; undefined: not looked for yet. */
  jumbf: boolean | undefined;
}

async function checkedImage(input: ImageInput, options: ExtractImageMetadataOptions): Promise<CheckedImage> {
  const maxBytes = checkPositive('maxBytes', options.maxBytes ?? DEFAULTS.maxBytes);
  const minDimension = checkPositive('minDimension', options.minDimension ?? DEFAULTS.minDimension, true);
  const maxPixels = checkPositive('maxPixels', options.maxPixels ?? DEFAULTS.maxPixels);

  const bytes = toImageBytes(input);
  if (bytes.length === 0) throw new ImageInputError('EMPTY_INPUT', 'The image is empty (zero bytes).');
  if (bytes.length > maxBytes) {
    throw new ImageInputError('TOO_LARGE', `The image is ${bytes.length} bytes; the limit is ${maxBytes} bytes (about 4 MB).`);
  }
  const type = sniffImageType(bytes);
  if (!type) {
    throw new ImageInputError('UNSUPPORTED_FORMAT', `The file is not a JPEG, PNG or WEBP image: it looks like ${describeMagic(bytes)}.`);
  }
  checkContainerIntegrity(bytes, type);

  const header = type.format === 'jpeg' ? readJpegHeader(bytes) : undefined;
  if (header) {
    const { meta } = header;
    const width = meta.width ?? 0;
    const height = meta.height ?? 0;
    // Over the limit, or a limit sharp refuses (not an integer): sharp's own answer and message, as before.
    if (width * height <= maxPixels && Number.isInteger(maxPixels)) {
      checkMinDimension(width, height, minDimension);
      return { bytes, type, meta, maxPixels, jumbf: header.jumbf };
    }
  }
  const declared = pngDimensions(bytes, type.format);
  if (declared && declared.width * declared.height > maxPixels) throw pixelLimit(declared.width, declared.height, maxPixels);
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: maxPixels }).metadata();
  } catch (error) {
    if (/pixel limit/i.test((error as Error).message)) throw pixelLimit(undefined, undefined, maxPixels);
    throw new ImageInputError('CORRUPT', `The ${type.format.toUpperCase()} image cannot be read: ${(error as Error).message}`, { cause: error });
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width * height > maxPixels) throw pixelLimit(width, height, maxPixels);
  checkMinDimension(width, height, minDimension);
  return { bytes, type, meta, maxPixels, jumbf: undefined };
}

function checkMinDimension(width: number, height: number, minDimension: number): void {
  if (width < minDimension || height < minDimension) {
    throw new ImageInputError('TOO_SMALL', `The image is ${width}x${height} pixels; the minimum is ${minDimension}x${minDimension}.`);
  }
}

/**
 * Reads the metadata, EXIF/XMP/IPTC fields, C2PA manifest store and AI generation signals of a JPEG, PNG or WEBP
 * image. Bad input throws {@link ImageInputError} (code BAD_REQUEST); a part that fails on a readable image is
 * listed in `errors` and the rest comes back.
 */
export async function extractImageMetadata(input: ImageInput, options: ExtractImageMetadataOptions = {}): Promise<ImageMetadataResult> {
  const { bytes, type, meta, maxPixels, jumbf } = await checkedImage(input, options);

  const errors: PartError[] = [];
  const attempt = async <T>(part: PartError['part'], fallback: T, run: () => T | Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      errors.push({ part, message: error instanceof Error ? error.message : String(error) });
      return fallback;
    }
  };

  const metadata = toMetadataObject(meta);
  const xmpText = meta.xmpAsString ?? (meta.xmp ? Buffer.from(meta.xmp.buffer, meta.xmp.byteOffset, meta.xmp.byteLength).toString('utf8') : undefined);
  const xmp = await attempt<XmpProperties>('xmp', {}, () => (xmpText ? parseXmp(xmpText) : {}));
  const iptc = await attempt<IptcFields>('iptc', {}, () => (meta.iptc ? parseIptcIim(meta.iptc) : {}));
  const camera = await attempt<CameraExif>('exif', {}, () => (meta.exif ? readCameraExif(meta.exif) : {}));
  const { exif, fieldSources } = buildExifObject({ xmp, iptc, exif: camera });
  const c2pa = await attempt<C2paObject>('c2pa', {}, () => {
    const location = jumbf === undefined ? findC2paStore(bytes, type.format, xmpText) : c2paLocation(jumbf, xmpText);
    return readC2paAt(bytes, type.mimeType, location, { verifyTrust: options.verifyC2paTrust ?? false });
  });
  const watermark = options.decodeWatermark === false
    ? undefined
    : await attempt<InvisibleWatermarkResult | undefined>('watermark', undefined, () => decodeFromImage(bytes, maxPixels, meta, options.pixels));

  const signals: AiSignal[] = [
    ...c2paSignals(c2pa),
    ...xmpSignals(exif, xmp),
    ...pngTextSignals(metadata),
    ...exifSoftwareSignals(exif, xmp),
    ...exifUserCommentSignals(exif),
    ...(watermark ? watermarkSignals(watermark) : []),
  ];
  const result: ImageMetadataResult = {
    mime_type: type.mimeType,
    metadata,
    exif,
    c2pa,
    ai_watermark_detected: signals.length > 0,
    ai_watermark_issuers: groupSignals(signals),
    exif_sources: fieldSources,
    errors,
  };
  if (watermark) result.invisible_watermark = watermark;
  return result;
}

// Pixels already decoded by the caller are read on this thread up to this size (about 10 ms of work); larger images
// go to a worker thread that decodes them itself.
const ON_THREAD_PIXELS = 1_000_000;

async function decodeFromImage(
  bytes: Uint8Array, maxPixels: number, meta: Metadata, given: DecodedPixels | Promise<DecodedPixels> | undefined,
): Promise<InvisibleWatermarkResult> {
  if (given !== undefined) {
    const pixels = await given;
    const oriented = (meta.orientation ?? 1) >= 5 ? [meta.height, meta.width] : [meta.width, meta.height];
    const usable = pixels.data instanceof Uint8Array && pixels.width === oriented[0] && pixels.height === oriented[1] &&
      pixels.channels === 3 && pixels.data.length === pixels.width * pixels.height * 3;
    if (usable && pixels.width * pixels.height <= ON_THREAD_PIXELS) return decodeInvisibleWatermark(pixels.data, pixels.width, pixels.height, pixels.channels);
    // Large pixels in shared memory are read on a worker thread in place (no copy, no second decode).
    if (usable && pixels.data.buffer instanceof SharedArrayBuffer) return decodeSharedPixelsOffThread(pixels);
  }
  // Other large images are decoded and read on a worker thread: handing their pixels over would copy them here.
  return decodeInvisibleWatermarkOffThread(bytes, maxPixels);
}

function pixelLimit(width: number | undefined, height: number | undefined, maxPixels: number): ImageInputError {
  const size = width === undefined ? 'larger than allowed' : `${width}x${height} pixels`;
  return new ImageInputError('PIXEL_LIMIT', `The image is ${size}; the limit is ${maxPixels} pixels (decompression bomb guard).`);
}

/** Width and height from a PNG's IHDR, read before any decoder sees the file. */
function pngDimensions(bytes: Uint8Array, format: string): { width: number; height: number } | undefined {
  if (format !== 'png' || bytes.length < 24) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

function checkPositive(name: string, value: number, allowZero = false): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new ImageMetadataOptionError(name, allowZero ? 'non-negative number' : 'positive number', value);
  }
  return value;
}
