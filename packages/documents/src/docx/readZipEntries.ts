import { inflateRawSync } from 'node:zlib';
import { DocumentError } from '../errors.js';

/** One inflated entry of a ZIP archive. */
export interface ZipEntry {
  name: string;
  data: Buffer;
}

/** Limits of {@link readZipEntries}. */
export interface ZipLimits {
  maxUncompressedBytes: number;
  maxEntries: number;
  /** Entries whose names match are not inflated (their declared sizes still count). */
  skip?: (name: string) => boolean;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_MARKER = 0xffffffff;

const corrupt = (detail: string) => new DocumentError('CORRUPT', `The DOCX file is damaged or not a valid DOCX (${detail}).`);
const tooLarge = (detail: string) => new DocumentError('ARCHIVE_TOO_LARGE', `The DOCX archive is too large once decompressed (${detail}).`);

/**
 * Reads a ZIP archive through its central directory (PKWARE APPNOTE 4.3.12) with every size bounded before any
 * byte is inflated: the entry count and the sum of declared uncompressed sizes are checked first, then each entry is
 * inflated with an output cap of its declared size, so an archive that lies about its sizes stops at the lie.
 * This is what keeps a zip bomb from ever reaching the DOCX reader.
 * @throws {DocumentError} `ARCHIVE_TOO_LARGE` (too many entries, too many bytes declared, or an entry inflating past
 * its declared size), `ENCRYPTED` (an encrypted entry), `CORRUPT` (anything malformed).
 */
export function readZipEntries(bytes: Buffer, limits: ZipLimits): ZipEntry[] {
  const end = findEndOfDirectory(bytes);
  const count = bytes.readUInt16LE(end + 10);
  const directorySize = bytes.readUInt32LE(end + 12);
  const directoryOffset = bytes.readUInt32LE(end + 16);
  if (count === 0xffff || directoryOffset === ZIP64_MARKER) throw tooLarge('ZIP64 archives are not accepted');
  if (count > limits.maxEntries) throw tooLarge(`${count} entries, the limit is ${limits.maxEntries}`);
  if (directoryOffset + directorySize > end) throw corrupt('central directory out of bounds');

  const headers: { name: string; method: number; flags: number; compressed: number; size: number; offset: number }[] = [];
  let declaredTotal = 0;
  let cursor = directoryOffset;
  for (let index = 0; index < count; index += 1) {
    if (cursor + 46 > end || bytes.readUInt32LE(cursor) !== DIRECTORY_ENTRY) throw corrupt('bad central directory entry');
    const nameLength = bytes.readUInt16LE(cursor + 28);
    const header = {
      flags: bytes.readUInt16LE(cursor + 8),
      method: bytes.readUInt16LE(cursor + 10),
      compressed: bytes.readUInt32LE(cursor + 20),
      size: bytes.readUInt32LE(cursor + 24),
      offset: bytes.readUInt32LE(cursor + 42),
      name: bytes.toString('utf8', cursor + 46, cursor + 46 + nameLength),
    };
    if (header.size === ZIP64_MARKER || header.compressed === ZIP64_MARKER) throw tooLarge('ZIP64 entries are not accepted');
    declaredTotal += header.size;
    if (declaredTotal > limits.maxUncompressedBytes) {
      throw tooLarge(`more than ${limits.maxUncompressedBytes} bytes declared`);
    }
    headers.push(header);
    cursor += 46 + nameLength + bytes.readUInt16LE(cursor + 30) + bytes.readUInt16LE(cursor + 32);
  }

  const entries: ZipEntry[] = [];
  for (const header of headers) {
    if (header.name.endsWith('/') || limits.skip?.(header.name)) continue;
    if ((header.flags & 1) !== 0) {
      throw new DocumentError('ENCRYPTED', 'The DOCX file is encrypted; send a document that opens without a password.');
    }
    const local = header.offset;
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== LOCAL_HEADER) throw corrupt('bad local header');
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    if (start + header.compressed > bytes.length) throw corrupt('entry out of bounds');
    const raw = bytes.subarray(start, start + header.compressed);
    entries.push({ name: header.name, data: inflateEntry(raw, header.method, header.size, header.name) });
  }
  return entries;
}

function inflateEntry(raw: Buffer, method: number, size: number, name: string): Buffer {
  if (method === 0) {
    if (raw.length !== size) throw corrupt(`stored entry ${name} has the wrong size`);
    return raw;
  }
  if (method !== 8) throw corrupt(`entry ${name} uses unsupported compression method ${method}`);
  let data: Buffer;
  try {
    // One byte of slack: an output longer than declared is a lie, not a rounding.
    // Large chunks: with the default 16 KiB, a 51 MB entry takes twice as long (output assembled chunk by chunk).
    data = inflateRawSync(raw, { maxOutputLength: Math.max(1, size + 1), chunkSize: Math.min(Math.max(size + 1, 64), 1 << 20) });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw tooLarge(`entry ${name} inflates beyond its declared ${size} bytes`);
    }
    throw corrupt(`entry ${name} cannot be inflated`);
  }
  if (data.length !== size) {
    if (data.length > size) throw tooLarge(`entry ${name} inflates beyond its declared ${size} bytes`);
    throw corrupt(`entry ${name} is shorter than declared`);
  }
  return data;
}

function findEndOfDirectory(bytes: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65535 bytes, at the very end of the file.
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let position = bytes.length - 22; position >= lowest; position -= 1) {
    if (bytes.readUInt32LE(position) === END_OF_DIRECTORY) return position;
  }
  throw corrupt('no end of central directory');
}
