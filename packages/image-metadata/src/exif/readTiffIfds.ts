import { withoutTrailingNuls } from '../metadata/withoutTrailingNuls.js';
/**
 * The raw tags of IFD0, the Exif IFD and the GPS IFD of a TIFF stream, read synchronously in one pass over the
 * buffer sharp already holds (no second parser, no promise chain). Values follow exifr 7 with `translateValues`
 * and `reviveValues` off, the reader this replaces: ASCII as trimmed UTF-8 text, BYTE and UNDEFINED as bytes,
 * RATIONAL as quotients (several in a plain array), other numeric types as numbers or typed arrays. A malformed
 * entry ends its IFD as it did there: a broken IFD0 yields nothing, a broken Exif or GPS IFD keeps the entries read
 * before it.
 */

/** Tag number -> value, for one IFD. */
export type TiffTags = Map<number, unknown>;

/** The IFDs a camera EXIF block is read from; absent when the stream has none. */
export interface TiffIfds {
  ifd0?: TiffTags;
  exif?: TiffTags;
  gps?: TiffTags;
}

const EXIF_IFD_POINTER = 0x8769;
const GPS_IFD_POINTER = 0x8825;
/** Bytes per value of each TIFF type (1 BYTE ... 12 DOUBLE, 13 IFD). */
const TYPE_SIZE = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4] as const;
const utf8 = new TextDecoder('utf-8');

class MalformedIfd extends Error {}
// One instance, thrown for every malformed entry: a new Error per throw captured a stack trace each time.
const MALFORMED = new MalformedIfd('malformed IFD entry');

/** Tag numbers to decode, per IFD. */
export interface WantedTags {
  /** The Exif and GPS IFD pointers are always read. */
  ifd0?: ReadonlySet<number>;
  exif?: ReadonlySet<number>;
  gps?: ReadonlySet<number>;
}

/**
 * Reads IFD0, then the Exif and GPS IFDs it points to. Every entry is checked, only the `wanted` tags of each IFD
 * are decoded (all when omitted). Throws only when the stream is not TIFF at all.
 */
export function readTiffIfds(tiff: Uint8Array, wanted: WantedTags = {}): TiffIfds {
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const order = tiff.length >= 2 ? view.getUint16(0) : 0;
  if (order !== 0x4949 && order !== 0x4d4d) throw new Error('Unknown file format');
  const le = order === 0x4949;
  const out: TiffIfds = {};
  try {
    const ifd0Offset = view.getUint32(4, le);
    if (ifd0Offset < 8 || ifd0Offset > tiff.length) return out;
    const ifd0: TiffTags = new Map();
    readIfd(view, tiff, le, ifd0Offset, ifd0, wanted.ifd0);
    if (ifd0.size === 0) return out;
    out.ifd0 = ifd0;
  } catch (error) {
    if (error instanceof MalformedIfd || error instanceof RangeError) return out;
    throw error;
  }
  for (const [key, pointer] of [['exif', EXIF_IFD_POINTER], ['gps', GPS_IFD_POINTER]] as const) {
    const offset = out.ifd0.get(pointer);
    if (offset === undefined) continue;
    const tags: TiffTags = new Map();
    out[key] = tags;
    try {
      readIfd(view, tiff, le, Number(offset), tags, wanted[key]);
    } catch (error) {
      if (!(error instanceof MalformedIfd || error instanceof RangeError)) throw error;
    }
  }
  return out;
}

function readIfd(view: DataView, bytes: Uint8Array, le: boolean, offset: number, into: TiffTags, wanted: ReadonlySet<number> | undefined): void {
  const count = view.getUint16(offset, le);
  for (let i = 0, entry = offset + 2; i < count; i++, entry += 12) {
    const tag = view.getUint16(entry, le);
    const type = view.getUint16(entry + 2, le);
    const values = view.getUint32(entry + 4, le);
    if (type < 1 || type > 13) throw MALFORMED;
    const size = TYPE_SIZE[type]! * values;
    const at = size <= 4 ? entry + 8 : view.getUint32(entry + 8, le);
    if (at > bytes.length || at + size > bytes.length) throw MALFORMED;
    if (wanted === undefined || wanted.has(tag) || tag === EXIF_IFD_POINTER || tag === GPS_IFD_POINTER) into.set(tag, readValue(view, bytes, le, type, values, at));
  }
}

function readValue(view: DataView, bytes: Uint8Array, le: boolean, type: number, count: number, at: number): unknown {
  if (type === 1 || type === 7) return bytes.subarray(at, at + count);
  if (type === 2) {
    const text = withoutTrailingNuls(utf8.decode(bytes.subarray(at, at + count))).trim();
    return text === '' ? undefined : text;
  }
  if (count === 1) return scalar(view, le, type, at);
  const values = type === 5 || type === 10 ? new Array<number>(count) : typedArray(type, count);
  for (let i = 0, p = at; i < count; i++, p += TYPE_SIZE[type]!) values[i] = scalar(view, le, type, p);
  return values;
}

function scalar(view: DataView, le: boolean, type: number, at: number): number {
  switch (type) {
    case 3: return view.getUint16(at, le);
    case 4: case 13: return view.getUint32(at, le);
    case 5: return view.getUint32(at, le) / view.getUint32(at + 4, le);
    case 6: return view.getInt8(at);
    case 8: return view.getInt16(at, le);
    case 9: return view.getInt32(at, le);
    case 10: return view.getInt32(at, le) / view.getInt32(at + 4, le);
    case 11: return view.getFloat32(at, le);
    default: return view.getFloat64(at, le);
  }
}

function typedArray(type: number, count: number): { [i: number]: number } {
  switch (type) {
    case 3: return new Uint16Array(count);
    case 4: case 13: return new Uint32Array(count);
    case 6: return new Int8Array(count);
    case 8: return new Int16Array(count);
    case 9: return new Int32Array(count);
    case 11: return new Float32Array(count);
    default: return new Float64Array(count);
  }
}
