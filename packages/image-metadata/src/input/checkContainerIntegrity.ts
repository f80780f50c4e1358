import { ImageInputError } from '../errors.js';
import type { SniffedImageType } from './sniffImageType.js';

/**
 * Walks the container structure (JPEG segments, PNG chunks, RIFF size) without decoding pixels, so a truncated or
 * cut file is refused up front instead of half-decoding later. Costs a few microseconds: only headers are read.
 */
export function checkContainerIntegrity(bytes: Uint8Array, type: SniffedImageType): void {
  if (type.format === 'jpeg') checkJpeg(bytes);
  else if (type.format === 'png') checkPng(bytes);
  else checkWebp(bytes);
}

function checkJpeg(bytes: Uint8Array): void {
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) throw new ImageInputError('CORRUPT', `The JPEG is corrupt: no marker at byte ${offset}.`);
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) { offset += 1; continue; }
    if (marker === 0xd9) return;
    if (marker >= 0xd0 && marker <= 0xd7) { offset += 2; continue; }
    const length = (bytes[offset + 2]! << 8) | bytes[offset + 3]!;
    if (length < 2) throw new ImageInputError('CORRUPT', `The JPEG is corrupt: segment length ${length} at byte ${offset}.`);
    if (offset + 2 + length > bytes.length) break;
    if (marker === 0xda) {
      // Entropy-coded data follows; the image must still end with an EOI marker (trailers after it are allowed).
      for (let i = bytes.length - 2; i > offset + 2 + length; i--) {
        if (bytes[i] === 0xff && bytes[i + 1] === 0xd9) return;
      }
      break;
    }
    offset += 2 + length;
  }
  throw new ImageInputError('TRUNCATED', 'The JPEG is truncated: it ends before its end-of-image marker.');
}

function checkPng(bytes: Uint8Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 8;
  let sawIdat = false;
  while (offset + 8 <= bytes.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(bytes[offset + 4]!, bytes[offset + 5]!, bytes[offset + 6]!, bytes[offset + 7]!);
    const end = offset + 12 + length;
    if (end > bytes.length) break;
    if (type === 'IDAT') sawIdat = true;
    if (type === 'IEND') {
      if (!sawIdat) throw new ImageInputError('CORRUPT', 'The PNG is corrupt: it has no image data (IDAT).');
      return;
    }
    offset = end;
  }
  throw new ImageInputError('TRUNCATED', 'The PNG is truncated: it ends before its IEND chunk.');
}

function checkWebp(bytes: Uint8Array): void {
  const riffSize = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);
  if (riffSize + 8 > bytes.length) {
    throw new ImageInputError('TRUNCATED', `The WEBP is truncated: its header says ${riffSize + 8} bytes, the file has ${bytes.length}.`);
  }
}
