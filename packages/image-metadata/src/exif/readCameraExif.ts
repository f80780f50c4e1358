import { readTiffIfds, type TiffTags } from './readTiffIfds.js';

/**
 * Camera EXIF under exiftool's tag names (what users compare with), values as `exiftool -n` prints them: dates as
 * `YYYY:MM:DD hh:mm:ss` strings, numbers as numbers, GPS as signed decimal degrees.
 */
export interface CameraExif {
  Make?: string;
  Model?: string;
  Software?: string;
  Orientation?: number;
  ModifyDate?: string;
  DateTimeOriginal?: string;
  CreateDate?: string;
  OffsetTimeOriginal?: string;
  Artist?: string;
  Copyright?: string;
  ImageDescription?: string;
  ExposureTime?: number;
  FNumber?: number;
  ISO?: number;
  FocalLength?: number;
  Flash?: number;
  LensMake?: string;
  LensModel?: string;
  SerialNumber?: string;
  ExifImageWidth?: number;
  ExifImageHeight?: number;
  GPSLatitude?: number;
  GPSLongitude?: number;
  GPSAltitude?: number;
  GPSDateStamp?: string;
  /** Decoded text of the EXIF UserComment (its 8-byte character code removed), when not blank. */
  UserComment?: string;
}

const IFD0_STRINGS: readonly [number, keyof CameraExif][] = [
  [0x010f, 'Make'], [0x0110, 'Model'], [0x0131, 'Software'], [0x0132, 'ModifyDate'], [0x013b, 'Artist'],
  [0x8298, 'Copyright'], [0x010e, 'ImageDescription'],
];
const EXIF_STRINGS: readonly [number, keyof CameraExif][] = [
  [0x9003, 'DateTimeOriginal'], [0x9004, 'CreateDate'], [0x9011, 'OffsetTimeOriginal'], [0xa433, 'LensMake'],
  [0xa434, 'LensModel'], [0xa431, 'SerialNumber'],
];
const EXIF_NUMBERS: readonly [number, keyof CameraExif][] = [
  [0x829a, 'ExposureTime'], [0x829d, 'FNumber'], [0x8827, 'ISO'], [0x920a, 'FocalLength'], [0x9209, 'Flash'],
  [0xa002, 'ExifImageWidth'], [0xa003, 'ExifImageHeight'],
];
const NO_TAGS: TiffTags = new Map();
const WANTED = {
  ifd0: new Set([...IFD0_STRINGS.map(([tag]) => tag), 0x0112]),
  exif: new Set([...EXIF_STRINGS, ...EXIF_NUMBERS].map(([tag]) => tag).concat(0x9286)),
  gps: new Set([1, 2, 3, 4, 5, 6, 0x1d]),
};

/** Reads camera EXIF from a TIFF stream (sharp's `exif` buffer with its `Exif\0\0` header, or a bare TIFF). */
export function readCameraExif(exif: Uint8Array): CameraExif {
  const tiff = hasExifHeader(exif) ? exif.subarray(6) : exif;
  const { ifd0 = NO_TAGS, exif: sub = NO_TAGS, gps = NO_TAGS } = readTiffIfds(tiff, WANTED);
  const out: CameraExif = {};
  for (const [tag, name] of IFD0_STRINGS) setString(out, name, ifd0.get(tag));
  const orientation = ifd0.get(0x0112);
  if (typeof orientation === 'number') out.Orientation = orientation;
  for (const [tag, name] of EXIF_STRINGS) setString(out, name, sub.get(tag));
  for (const [tag, name] of EXIF_NUMBERS) {
    const value = sub.get(tag);
    if (typeof value === 'number' && Number.isFinite(value)) (out as Record<string, unknown>)[name] = value;
  }
  const latitude = degrees(gps.get(2), gps.get(1), 'S');
  const longitude = degrees(gps.get(4), gps.get(3), 'W');
  if (latitude !== undefined && longitude !== undefined) {
    out.GPSLatitude = latitude;
    out.GPSLongitude = longitude;
  }
  const altitude = gps.get(6);
  if (typeof altitude === 'number' && Number.isFinite(altitude)) {
    const ref = gps.get(5);
    const below = ref instanceof Uint8Array ? ref[0] === 1 : ref === 1;
    out.GPSAltitude = below ? -altitude : altitude;
  }
  setString(out, 'GPSDateStamp', gps.get(0x1d));
  const comment = sub.get(0x9286);
  if (comment instanceof Uint8Array) setString(out, 'UserComment', decodeUserComment(comment, tiff[0] === 0x49));
  return out;
}

function hasExifHeader(bytes: Uint8Array): boolean {
  return bytes.length > 6 && bytes[0] === 0x45 && bytes[1] === 0x78 && bytes[2] === 0x69 && bytes[3] === 0x66;
}

function setString<K extends keyof CameraExif>(out: CameraExif, key: K, value: unknown): void {
  if (typeof value !== 'string') return;
  // EXIF ASCII values are NUL-padded; exiftool trims trailing NULs and spaces.
  const text = value.replace(/\0[\s\S]*$/, '').trim();
  if (text.length > 0) (out as Record<string, unknown>)[key] = text;
}

function degrees(value: unknown, ref: unknown, negative: string): number | undefined {
  let decimal: number | undefined;
  if (Array.isArray(value) && value.length >= 1 && value.every((v) => typeof v === 'number' && Number.isFinite(v))) {
    const [d = 0, m = 0, s = 0] = value as number[];
    decimal = d + m / 60 + s / 3600;
  } else if (typeof value === 'number' && Number.isFinite(value)) decimal = value;
  if (decimal === undefined) return undefined;
  return typeof ref === 'string' && ref.trim().toUpperCase() === negative ? -decimal : decimal;
}

/**
 * EXIF UserComment: an 8-byte character code, then the text. `UNICODE` is UTF-16 in the byte order of the TIFF
 * stream (as exiftool reads it; AUTOMATIC1111 writes its generation parameters so, through piexif, big-endian).
 */
function decodeUserComment(bytes: Uint8Array, littleEndian: boolean): string {
  const code = String.fromCharCode(...bytes.subarray(0, Math.min(8, bytes.length)));
  const body = bytes.subarray(Math.min(8, bytes.length));
  if (code.startsWith('UNICODE')) {
    const units = Buffer.from(body.subarray(0, body.length & ~1));
    if (!littleEndian) units.swap16();
    return units.toString('utf16le');
  }
  return Buffer.from(body).toString(code.startsWith('ASCII') ? 'latin1' : 'utf8');
}
