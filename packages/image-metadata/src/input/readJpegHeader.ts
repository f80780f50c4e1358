import type { Metadata } from 'sharp';

/**
 * What sharp's `metadata()` reports for a JPEG (libvips 8.18 jpegload, header only), read in JavaScript from the
 * segments before the first scan, plus whether an APP11 JUMBF segment (a C2PA store) is there. The blocks (`exif`,
 * `iptc`, `xmp`) are views of `bytes`, not copies.
 *
 * Only files whose header libjpeg would read without an error and whose metadata follows the common layouts are
 * read here; anything else (another frame type, malformed tables, an EXIF IFD0 with odd entries, a gain map that
 * sends libvips to its Ultra HDR loader, ...) returns `undefined`, and the caller asks sharp, which then reports the
 * same fields or the same error as before. The rules follow libvips' `read_jpeg_header` (jpeg2vips.c) and
 * `vips__exif_parse` (exif.c), and libjpeg-turbo's marker reader (jdmarker.c); `test/readJpegHeader.test.ts`
 * compares the two on every JPEG of the shared datasets.
 */
export interface JpegHeader {
  /** sharp's metadata fields for this file (without `icc`, `mediaType` and the blocks libvips does not read). */
  meta: Metadata;
  /** An APP11 segment starting `JP`: JUMBF, where C2PA manifest stores live. */
  jumbf: boolean;
}

/** libjpeg-turbo's JPEG_MAX_DIMENSION. */
const MAX_DIMENSION = 65500;
/** Bounds on the MPF check, so that a crafted index costs at most a few thousand segment reads. */
const MAX_MPF_IMAGES = 16;
const MAX_SECONDARY_SEGMENTS = 256;
/** libvips' MAX_APP2_SECTIONS: ICC chunks with a larger sequence number are dropped. */
const MAX_ICC_SECTIONS = 100;

/** Reads the header of a JPEG whose container was already checked (`checkContainerIntegrity`). */
export function readJpegHeader(bytes: Uint8Array): JpegHeader | undefined {
  let jfif: { unit: number; x: number; y: number } | undefined;
  let exif: Uint8Array | undefined;
  let xmp: Uint8Array | undefined;
  let iptc: Uint8Array | undefined;
  let jumbf = false;
  let mpf: Uint8Array | undefined;
  let isoGainMap = false;
  const icc: boolean[] = [];
  let components: number[] | undefined;
  let width = 0;
  let height = 0;
  let progressive = false;
  let maxH = 0;
  let maxV = 0;
  let offset = 2;
  for (;;) {
    if (offset + 4 > bytes.length || bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) return undefined; // fill bytes: left to sharp, as the C2PA scan reads them otherwise
    const length = (bytes[offset + 2]! << 8) | bytes[offset + 3]!;
    const start = offset + 4;
    const end = offset + 2 + length;
    if (length < 2 || end > bytes.length) return undefined;
    const data = bytes.subarray(start, end);
    if (marker >= 0xe0 && marker <= 0xef) {
      switch (marker) {
        case 0xe0:
          // libjpeg's examine_app0: a JFIF APP0 of at least 14 bytes; the last one wins.
          if (data.length >= 14 && startsWith(data, JFIF)) {
            jfif = { unit: data[7]!, x: (data[8]! << 8) | data[9]!, y: (data[10]! << 8) | data[11]! };
          }
          break;
        case 0xe1:
          // libvips keeps the first EXIF block and the first XMP block (after the NUL ending its namespace URI).
          if (data.length > 4 && startsWith(data, EXIF) && exif === undefined) exif = data;
          if (data.length > 4 && startsWith(data, HTTP) && xmp === undefined) {
            const nul = data.subarray(0, Math.min(80, data.length - 2)).indexOf(0);
            if (nul >= 0) xmp = data.subarray(nul + 1);
          }
          break;
        case 0xe2:
          if (data.length > 4 && startsWith(data, MPF)) mpf ??= data;
          if (startsWith(data, ISO_GAIN_MAP)) isoGainMap = true;
          if (data.length > 14 && startsWith(data, ICC_PROFILE)) {
            const section = data[12]! - 1;
            if (section >= 0 && section < MAX_ICC_SECTIONS) icc[section] = true;
          }
          break;
        case 0xeb:
          if (data[0] === 0x4a && data[1] === 0x50) jumbf = true;
          break;
        case 0xed:
          if (data.length > 5 && startsWith(data, PHOTO) && iptc === undefined) iptc = data;
          break;
        default:
          break;
      }
    } else if (marker === 0xfe) {
      // COM: skipped by libvips.
    } else if (marker === 0xdb) {
      if (!validQuantTables(data)) return undefined;
    } else if (marker === 0xc4) {
      if (!validHuffmanTables(data)) return undefined;
    } else if (marker === 0xdd) {
      if (length !== 4) return undefined;
    } else if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) {
      if (components !== undefined) return undefined; // a second frame header: libjpeg stops with an error
      const count = data[5] ?? 0;
      if (data[0] !== 8 || (count !== 1 && count !== 3 && count !== 4) || data.length !== 6 + 3 * count) return undefined;
      height = (data[1]! << 8) | data[2]!;
      width = (data[3]! << 8) | data[4]!;
      if (width === 0 || height === 0 || width > MAX_DIMENSION || height > MAX_DIMENSION) return undefined;
      components = [];
      for (let i = 0; i < count; i++) {
        const id = data[6 + 3 * i]!;
        const h = data[7 + 3 * i]! >> 4;
        const v = data[7 + 3 * i]! & 0x0f;
        if (h < 1 || h > 4 || v < 1 || v > 4 || components.includes(id)) return undefined;
        components.push(id);
        maxH = Math.max(maxH, h);
        maxV = Math.max(maxV, v);
      }
      progressive = marker === 0xc2;
    } else if (marker === 0xda) {
      if (components === undefined) return undefined;
      const count = data[0] ?? 0;
      if (count < 1 || count > 4 || data.length !== 4 + 2 * count) return undefined;
      const seen: number[] = [];
      for (let i = 0; i < count; i++) {
        const id = data[1 + 2 * i]!;
        if (!components.includes(id) || seen.includes(id)) return undefined;
        seen.push(id);
      }
      // libjpeg's jdinput.c: several scans when progressive or when the first scan has fewer components.
      if (count < components.length) progressive = true;
      break;
    } else {
      return undefined; // another frame type, arithmetic coding tables, DNL, RST or TEM before the scan, ...
    }
    offset = end;
  }

  // libvips reads a JPEG with an MPF segment with its Ultra HDR loader when libultrahdr finds a gain map in it.
  if (mpf !== undefined && mayHaveGainMap(bytes, mpf, isoGainMap, xmp)) return undefined;
  const channels = components.length;
  const ifd0 = exif === undefined ? undefined : readIfd0(exif);
  if (exif !== undefined && ifd0 === undefined) return undefined;
  const resolution = resolutionOf(jfif, ifd0);
  if (resolution === undefined) return undefined;
  const orientation = ifd0 === undefined ? 0 : orientationOf(ifd0);
  if (orientation === undefined) return undefined;
  const subsampled = maxH > 1 || maxV > 1;
  const meta: Metadata = {
    format: 'jpeg',
    size: bytes.length,
    width,
    height,
    space: channels === 1 ? 'b-w' : channels === 3 ? 'srgb' : 'cmyk',
    channels: channels as Metadata['channels'],
    depth: 'uchar',
    chromaSubsampling: channels > 3 ? (subsampled ? '4:2:0:4' : '4:4:4:4') : subsampled ? '4:2:0' : '4:4:4',
    isProgressive: progressive,
    isPalette: false,
    hasProfile: icc[0] === true,
    hasAlpha: false,
    autoOrient: orientation >= 5 ? { width: height, height: width } : { width, height },
  };
  if (resolution.xres > 1) meta.density = Math.round(resolution.xres * 25.4);
  if (resolution.unit !== undefined) meta.resolutionUnit = resolution.unit === 'in' ? 'inch' : 'cm';
  if (orientation > 0) meta.orientation = orientation;
  if (exif) meta.exif = exif as Buffer;
  if (iptc) meta.iptc = iptc as Buffer;
  if (xmp) meta.xmp = xmp as Buffer;
  return { meta, jumbf };
}

const JFIF = [0x4a, 0x46, 0x49, 0x46, 0x00];
const EXIF = [0x45, 0x78, 0x69, 0x66];
const HTTP = [0x68, 0x74, 0x74, 0x70];
const MPF = [0x4d, 0x50, 0x46];
const ICC_PROFILE = [0x49, 0x43, 0x43, 0x5f, 0x50, 0x52, 0x4f, 0x46, 0x49, 0x4c, 0x45];
const PHOTO = [0x50, 0x68, 0x6f, 0x74, 0x6f];
const ISO_GAIN_MAP = [...'urn:iso:std:iso:ts:21496'].map((c) => c.charCodeAt(0));

function startsWith(data: Uint8Array, prefix: readonly number[]): boolean {
  if (data.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (data[i] !== prefix[i]) return false;
  return true;
}

/** DQT as libjpeg reads it without an error: whole tables, index below 4, nothing left over. */
function validQuantTables(data: Uint8Array): boolean {
  let p = 0;
  while (p < data.length) {
    const precision = data[p]! >> 4;
    if ((data[p]! & 0x0f) >= 4 || precision > 1) return false;
    p += 1 + 64 * (precision + 1);
  }
  return p === data.length;
}

/** DHT as libjpeg reads it without an error: class 0 or 1, index below 4, at most 256 codes, nothing left over. */
function validHuffmanTables(data: Uint8Array): boolean {
  let p = 0;
  while (p < data.length) {
    if (p + 17 > data.length) return false;
    const index = data[p]!;
    if ((index & 0xef) >= 4) return false;
    let count = 0;
    for (let i = 1; i <= 16; i++) count += data[p + i]!;
    if (count > 256) return false;
    p += 17 + count;
  }
  return p === data.length;
}

/**
 * The resolution libvips derives: 72 dpi, else the JFIF density (unless 1x1), else the EXIF IFD0 XResolution,
 * YResolution and ResolutionUnit. Pixels per millimetre, as VipsImage.Xres; `undefined` when the EXIF entries are
 * not the plain kind read here.
 */
function resolutionOf(
  jfif: { unit: number; x: number; y: number } | undefined, ifd0: Map<number, Ifd0Entry> | undefined,
): { xres: number; unit: 'in' | 'cm' | undefined } | undefined {
  let xres = 72 / 25.4;
  let unit: 'in' | 'cm' | undefined;
  if (jfif && jfif.x !== 1 && jfif.y !== 1) {
    if (jfif.unit === 1) { xres = jfif.x / 25.4; unit = 'in'; }
    else if (jfif.unit === 2) { xres = jfif.x / 10; unit = 'cm'; }
    else if (jfif.unit !== 0) return undefined; // libvips warns; left to sharp
  }
  if (ifd0 === undefined) return { xres, unit };
  const x = ifd0.get(0x011a);
  const y = ifd0.get(0x011b);
  const u = ifd0.get(0x0128);
  if (x === undefined || y === undefined) return { xres, unit };
  if (x.type !== 5 || x.count !== 1 || y.type !== 5 || y.count !== 1) return undefined;
  let exifUnit = 2;
  if (u !== undefined) {
    if (u.type !== 3 || u.count !== 1) return undefined;
    exifUnit = u.value;
  }
  const value = x.denominator === 0 ? 0 : x.value / x.denominator;
  if (exifUnit === 1) return { xres: Math.max(0, value), unit };
  if (exifUnit === 2) return { xres: Math.max(0, value / 25.4), unit: 'in' };
  if (exifUnit === 3) return { xres: Math.max(0, value / 10), unit: 'cm' };
  return undefined;
}

/** EXIF IFD0 Orientation as libvips sets it (values outside 1..8 read 1); 0 when absent, `undefined` when odd. */
function orientationOf(ifd0: Map<number, Ifd0Entry>): number | undefined {
  const entry = ifd0.get(0x0112);
  if (entry === undefined) return 0;
  if (entry.type !== 3 || entry.count !== 1) return undefined;
  return entry.value >= 1 && entry.value <= 8 ? entry.value : 1;
}

interface Ifd0Entry {
  type: number;
  count: number;
  /** SHORT: the value; RATIONAL: the numerator. */
  value: number;
  denominator: number;
}

/** Bytes per value of each TIFF type (1 BYTE ... 12 DOUBLE, 13 IFD). */
const TYPE_SIZE = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4] as const;
const RESOLUTION_TAGS = new Set([0x0112, 0x011a, 0x011b, 0x0128]);

/**
 * The Orientation and resolution entries of IFD0, from an `Exif\0\0` block; `undefined` when the block or IFD0 is
 * not one that libexif and this reader would both read alike (no TIFF header, IFD0 out of range or cut, one of the
 * wanted entries repeated or with its value out of range).
 */
function readIfd0(exif: Uint8Array): Map<number, Ifd0Entry> | undefined {
  if (exif.length < 14 || exif[4] !== 0 || exif[5] !== 0) return undefined;
  const tiff = exif.subarray(6);
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const order = view.getUint16(0);
  if (order !== 0x4949 && order !== 0x4d4d) return undefined;
  const le = order === 0x4949;
  if (view.getUint16(2, le) !== 42) return undefined;
  const ifd = view.getUint32(4, le);
  if (ifd < 8 || ifd + 2 > tiff.length) return undefined;
  const count = view.getUint16(ifd, le);
  if (ifd + 2 + 12 * count > tiff.length) return undefined;
  const out = new Map<number, Ifd0Entry>();
  for (let i = 0, entry = ifd + 2; i < count; i++, entry += 12) {
    const tag = view.getUint16(entry, le);
    if (!RESOLUTION_TAGS.has(tag)) continue;
    if (out.has(tag)) return undefined;
    const type = view.getUint16(entry + 2, le);
    const values = view.getUint32(entry + 4, le);
    if (type < 1 || type > 13) return undefined;
    const size = TYPE_SIZE[type]! * values;
    const at = size <= 4 ? entry + 8 : view.getUint32(entry + 8, le);
    if (size === 0 || at + size > tiff.length) return undefined;
    if (type === 3) out.set(tag, { type, count: values, value: view.getUint16(at, le), denominator: 1 });
    else if (type === 5) out.set(tag, { type, count: values, value: view.getUint32(at, le), denominator: view.getUint32(at + 4, le) });
    else out.set(tag, { type, count: values, value: 0, denominator: 1 });
  }
  return out;
}

/**
 * Whether a JPEG with an MPF segment may carry a gain map (Ultra HDR / ISO 21496-1): the primary image declares one
 * (ISO APP2, `hdrgm` XMP), or an image the MPF index lists has XMP or ISO gain map metadata in its header, or the
 * index cannot be read. Only files for which this says no are read here; the others are left to sharp.
 */
function mayHaveGainMap(bytes: Uint8Array, mpf: Uint8Array, isoGainMap: boolean, xmp: Uint8Array | undefined): boolean {
  if (isoGainMap || (xmp !== undefined && Buffer.from(xmp.buffer, xmp.byteOffset, xmp.byteLength).includes('hdrgm'))) return true;
  const images = mpfImageOffsets(mpf);
  // A hostile index could list thousands of images: past a camera's few, sharp decides.
  if (images === undefined || images.length > MAX_MPF_IMAGES) return true;
  const tiffStart = mpf.byteOffset - bytes.byteOffset + 4;
  return images.some((offset) => headerHasGainMapMetadata(bytes, tiffStart + offset));
}

/** Offsets (from the MPF TIFF header) of the images after the first that the MP Entry list (tag 0xB002) gives. */
function mpfImageOffsets(mpf: Uint8Array): number[] | undefined {
  const tiff = mpf.subarray(4);
  if (tiff.length < 8) return undefined;
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const order = view.getUint16(0);
  if (order !== 0x4949 && order !== 0x4d4d) return undefined;
  const le = order === 0x4949;
  const ifd = view.getUint32(4, le);
  if (ifd < 8 || ifd + 2 > tiff.length) return undefined;
  const count = view.getUint16(ifd, le);
  if (ifd + 2 + 12 * count > tiff.length) return undefined;
  for (let i = 0, entry = ifd + 2; i < count; i++, entry += 12) {
    if (view.getUint16(entry, le) !== 0xb002) continue;
    const size = view.getUint32(entry + 4, le);
    const at = size <= 4 ? entry + 8 : view.getUint32(entry + 8, le);
    if (view.getUint16(entry + 2, le) !== 7 || size % 16 !== 0 || at + size > tiff.length) return undefined;
    const offsets: number[] = [];
    for (let p = at; p < at + size; p += 16) {
      const offset = view.getUint32(p + 8, le);
      if (offset !== 0) offsets.push(offset);
    }
    return offsets;
  }
  return undefined;
}

/** Whether the image at `at` has XMP or an ISO 21496-1 segment before its scan; true when it is not a JPEG there. */
function headerHasGainMapMetadata(bytes: Uint8Array, at: number): boolean {
  if (bytes[at] !== 0xff || bytes[at + 1] !== 0xd8) return true;
  let offset = at + 2;
  for (let segments = 0; segments < MAX_SECONDARY_SEGMENTS; segments++) {
    if (offset + 4 > bytes.length || bytes[offset] !== 0xff) return true;
    const marker = bytes[offset + 1]!;
    if (marker === 0xda || marker === 0xd9) return false;
    const length = (bytes[offset + 2]! << 8) | bytes[offset + 3]!;
    if (length < 2 || offset + 2 + length > bytes.length) return true;
    const data = bytes.subarray(offset + 4, offset + 2 + length);
    if (marker === 0xe1 && startsWith(data, HTTP)) return true;
    if (marker === 0xe2 && startsWith(data, ISO_GAIN_MAP)) return true;
    offset += 2 + length;
  }
  return true;
}
