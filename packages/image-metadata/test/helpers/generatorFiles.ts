/**
 * Builders for files that carry generator traces, made in the test itself: PNG text chunks (tEXt, zTXt, iTXt)
 * written by a small chunk writer, JPEG/WEBP with EXIF and XMP written by sharp, and an EXIF UserComment in the
 * UNICODE encoding that AUTOMATIC1111 writes through piexif (big-endian TIFF, UTF-16BE text).
 */
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One PNG chunk: length, type, data, CRC-32 of type and data. */
export function pngChunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  Buffer.from(data).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A PNG text chunk as a generator writes it. */
export type PngText =
  | { type: 'tEXt'; keyword: string; text: string }
  | { type: 'zTXt'; keyword: string; text: string }
  | { type: 'iTXt'; keyword: string; text: string; compressed?: boolean };

function textChunk(entry: PngText): Buffer {
  const keyword = Buffer.from(`${entry.keyword}\0`, 'latin1');
  if (entry.type === 'tEXt') return pngChunk('tEXt', Buffer.concat([keyword, Buffer.from(entry.text, 'latin1')]));
  if (entry.type === 'zTXt') {
    return pngChunk('zTXt', Buffer.concat([keyword, Buffer.from([0]), deflateSync(Buffer.from(entry.text, 'latin1'))]));
  }
  // iTXt: keyword, compression flag, method, language tag, translated keyword, UTF-8 text.
  const text = Buffer.from(entry.text, 'utf8');
  const header = Buffer.from([entry.compressed ? 1 : 0, 0, 0, 0]);
  return pngChunk('iTXt', Buffer.concat([keyword, header, entry.compressed ? deflateSync(text) : text]));
}

/** A 256x256 RGB PNG (sharp-encoded pixels) with the given text chunks inserted before its first IDAT. */
export async function pngWithText(texts: readonly PngText[]): Promise<Buffer> {
  const png = await sharp({ create: { width: 256, height: 256, channels: 3, background: { r: 90, g: 140, b: 200 } } }).png().toBuffer();
  const chunks: Buffer[] = [PNG_SIGNATURE];
  let offset = 8;
  let inserted = false;
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    if (type === 'IDAT' && !inserted) {
      chunks.push(...texts.map(textChunk));
      inserted = true;
    }
    chunks.push(png.subarray(offset, offset + 12 + length));
    offset += 12 + length;
  }
  return Buffer.concat(chunks);
}

/** An XMP packet with the given `prefix:Name` properties as attributes of one rdf:Description. */
export function xmpPacket(properties: Record<string, string>): string {
  const attrs = Object.entries(properties).map(([name, value]) => ` ${name}="${value}"`).join('');
  return '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">' +
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about=""' +
    ' xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"' +
    ` xmlns:dc="http://purl.org/dc/elements/1.1/"${attrs}/></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
}

/** IFD0 string tags sharp can write (Make, Model, Software...). */
export interface EncodeOptions {
  format: 'jpeg' | 'webp';
  ifd0?: Record<string, string>;
  xmp?: string;
}

/** A 256x256 JPEG or WEBP written by sharp with EXIF IFD0 tags and an XMP packet. */
export async function encodedWithMetadata({ format, ifd0, xmp }: EncodeOptions): Promise<Buffer> {
  let image = sharp({ create: { width: 256, height: 256, channels: 3, background: { r: 200, g: 160, b: 90 } } });
  if (ifd0) image = image.withExif({ IFD0: ifd0 });
  if (xmp) image = image.withXmp(xmp);
  return format === 'jpeg' ? image.jpeg().toBuffer() : image.webp().toBuffer();
}

/**
 * An `Exif\0\0` TIFF block as piexif dumps AUTOMATIC1111's generation parameters: big-endian, IFD0 holding only the
 * Exif IFD pointer, the Exif IFD holding UserComment = "UNICODE\0" + UTF-16BE text.
 */
export function a1111ExifBlock(parameters: string): Buffer {
  const comment = Buffer.concat([Buffer.from('UNICODE\0', 'latin1'), Buffer.from(parameters, 'utf16le').swap16()]);
  const ifd0 = 8;
  const exifIfd = ifd0 + 2 + 12 + 4;
  const value = exifIfd + 2 + 12 + 4;
  const tiff = Buffer.alloc(value + comment.length);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(ifd0, 4);
  tiff.writeUInt16BE(1, ifd0);
  tiff.writeUInt16BE(0x8769, ifd0 + 2); // ExifIFDPointer, LONG
  tiff.writeUInt16BE(4, ifd0 + 4);
  tiff.writeUInt32BE(1, ifd0 + 6);
  tiff.writeUInt32BE(exifIfd, ifd0 + 10);
  tiff.writeUInt32BE(0, ifd0 + 14);
  tiff.writeUInt16BE(1, exifIfd);
  tiff.writeUInt16BE(0x9286, exifIfd + 2); // UserComment, UNDEFINED
  tiff.writeUInt16BE(7, exifIfd + 4);
  tiff.writeUInt32BE(comment.length, exifIfd + 6);
  tiff.writeUInt32BE(value, exifIfd + 10);
  tiff.writeUInt32BE(0, exifIfd + 14);
  comment.copy(tiff, value);
  return Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
}

/** A sharp-encoded JPEG with `exif` inserted as an APP1 segment right after SOI (where piexif.insert puts it). */
export async function jpegWithExif(exif: Buffer): Promise<Buffer> {
  const jpeg = await sharp({ create: { width: 256, height: 256, channels: 3, background: { r: 30, g: 60, b: 90 } } }).jpeg().toBuffer();
  const app1 = Buffer.alloc(4);
  app1.writeUInt16BE(0xffe1, 0);
  app1.writeUInt16BE(exif.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), app1, exif, jpeg.subarray(2)]);
}

/**
 * A sharp-encoded extended WEBP (VP8X) whose EXIF chunk is replaced by `exif` (the TIFF stream, as the WEBP
 * container stores it without the `Exif\0\0` header).
 */
export async function webpWithExif(exif: Buffer): Promise<Buffer> {
  const webp = await sharp({ create: { width: 256, height: 256, channels: 3, background: { r: 30, g: 60, b: 90 } } })
    .withExif({ IFD0: { Software: 'placeholder' } })
    .webp()
    .toBuffer();
  const tiff = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif;
  const chunks: Buffer[] = [];
  let offset = 12;
  let replaced = false;
  while (offset + 8 <= webp.length) {
    const type = webp.toString('latin1', offset, offset + 4);
    const size = webp.readUInt32LE(offset + 4);
    const end = offset + 8 + size + (size % 2);
    if (type === 'EXIF') {
      const header = Buffer.alloc(8);
      header.write('EXIF', 0, 'latin1');
      header.writeUInt32LE(tiff.length, 4);
      chunks.push(header, tiff, Buffer.alloc(tiff.length % 2));
      replaced = true;
    } else chunks.push(webp.subarray(offset, end));
    offset = end;
  }
  if (!replaced) throw new Error('sharp wrote no EXIF chunk to replace');
  const body = Buffer.concat(chunks);
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length + 4, 4);
  riff.write('WEBP', 8, 'latin1');
  return Buffer.concat([riff, body]);
}
