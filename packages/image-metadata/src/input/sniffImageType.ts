/** An image container recognised from its first bytes. */
export interface SniffedImageType {
  format: 'jpeg' | 'png' | 'webp';
  mimeType: 'image/jpeg' | 'image/png' | 'image/webp';
}

/** The accepted formats (spec: JPG, JPEG, PNG, WEBP) told apart by their magic bytes, never by a claimed type. */
export function sniffImageType(bytes: Uint8Array): SniffedImageType | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return { format: 'jpeg', mimeType: 'image/jpeg' };
  }
  if (
    bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47 &&
    bytes[4] === 0x0d && bytes[5] === 0x0a && bytes[6] === 0x1a && bytes[7] === 0x0a
  ) {
    return { format: 'png', mimeType: 'image/png' };
  }
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') {
    return { format: 'webp', mimeType: 'image/webp' };
  }
  return undefined;
}

/** A short human name of what the bytes look like, for error messages. */
export function describeMagic(bytes: Uint8Array): string {
  if (bytes.length >= 4 && ascii(bytes, 0, 4) === 'GIF8') return 'a GIF image';
  if (bytes.length >= 4 && ascii(bytes, 0, 4) === '%PDF') return 'a PDF document';
  if (bytes.length >= 4 && (ascii(bytes, 0, 4) === 'II*\0' || ascii(bytes, 0, 4) === 'MM\0*')) return 'a TIFF image';
  if (bytes.length >= 12 && ascii(bytes, 4, 4) === 'ftyp') return 'an ISO-BMFF (HEIC/AVIF/MP4) file';
  if (bytes.length >= 2 && bytes[0] === 0x42 && bytes[1] === 0x4d) return 'a BMP image';
  const head = Array.from(bytes.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join(' ');
  return `unknown bytes (${head})`;
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}
