import exifr from 'exifr';
type ExifrOptions = NonNullable<Parameters<typeof exifr.sidecar>[1]>;

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
}

const EXIFR_OPTIONS: ExifrOptions = {
  tiff: true, ifd0: {}, exif: true, gps: true, interop: false, ifd1: false, makerNote: false, userComment: false,
  xmp: false, iptc: false, icc: false, jfif: false, ihdr: false,
  translateKeys: true, translateValues: false, reviveValues: false, sanitize: true, mergeOutput: false,
};

const STRING_TAGS = ['Make', 'Model', 'Software', 'ModifyDate', 'Artist', 'Copyright', 'ImageDescription'] as const;
const EXIF_STRING_TAGS = ['DateTimeOriginal', 'CreateDate', 'OffsetTimeOriginal', 'LensMake', 'LensModel'] as const;
const EXIF_NUMBER_TAGS = ['ExposureTime', 'FNumber', 'ISO', 'FocalLength', 'Flash', 'ExifImageWidth', 'ExifImageHeight'] as const;

type Tags = Record<string, unknown>;

/** Reads camera EXIF from a TIFF stream (sharp's `exif` buffer without its `Exif\0\0` header, or a bare TIFF). */
export async function readCameraExif(exif: Uint8Array): Promise<CameraExif> {
  const tiff = hasExifHeader(exif) ? exif.subarray(6) : exif;
  const parsed = (await exifr.parse(Buffer.from(tiff.buffer, tiff.byteOffset, tiff.byteLength), EXIFR_OPTIONS)) as
    | { ifd0?: Tags; exif?: Tags; gps?: Tags }
    | undefined;
  const out: CameraExif = {};
  if (!parsed) return out;
  const ifd0 = parsed.ifd0 ?? {};
  const sub = parsed.exif ?? {};
  const gps = parsed.gps ?? {};
  for (const tag of STRING_TAGS) setString(out, tag, ifd0[tag]);
  const orientation = ifd0['Orientation'];
  if (typeof orientation === 'number') out.Orientation = orientation;
  for (const tag of EXIF_STRING_TAGS) setString(out, tag, sub[tag]);
  for (const tag of EXIF_NUMBER_TAGS) {
    const value = sub[tag];
    if (typeof value === 'number' && Number.isFinite(value)) out[tag] = value;
  }
  setString(out, 'SerialNumber', sub['BodySerialNumber'] ?? ifd0['SerialNumber']);
  const latitude = degrees(gps['GPSLatitude'], gps['GPSLatitudeRef'], 'S');
  const longitude = degrees(gps['GPSLongitude'], gps['GPSLongitudeRef'], 'W');
  if (latitude !== undefined && longitude !== undefined) {
    out.GPSLatitude = latitude;
    out.GPSLongitude = longitude;
  }
  const altitude = gps['GPSAltitude'];
  if (typeof altitude === 'number' && Number.isFinite(altitude)) {
    const ref = gps['GPSAltitudeRef'];
    const below = ref instanceof Uint8Array ? ref[0] === 1 : ref === 1;
    out.GPSAltitude = below ? -altitude : altitude;
  }
  setString(out, 'GPSDateStamp', gps['GPSDateStamp']);
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
