import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { extractImageMetadata, ImageInputError } from '../src/index.js';

async function jpeg(width = 300, height = 300): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 120, g: 80, b: 40 } } }).jpeg().toBuffer();
}

function crc32(bytes: Uint8Array): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  Buffer.from(data).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A valid 20000x20000 greyscale PNG of a few kilobytes: a decompression bomb. */
function pngBomb(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(20000, 0);
  ihdr.writeUInt32BE(20000, 4);
  ihdr[8] = 1; // bit depth 1
  ihdr[9] = 0; // greyscale
  const row = Buffer.alloc(1 + 2500);
  const rows = Buffer.alloc(row.length * 20000);
  const idat = deflateSync(rows, { level: 9 });
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))]);
}

async function rejection(
  input: Parameters<typeof extractImageMetadata>[0], options?: Parameters<typeof extractImageMetadata>[1],
): Promise<ImageInputError> {
  try {
    await extractImageMetadata(input, options);
  } catch (error) {
    expect(error).toBeInstanceOf(ImageInputError);
    return error as ImageInputError;
  }
  throw new Error('expected a rejection');
}

describe('hostile and broken inputs give BAD_REQUEST with a clear description', () => {
  it('zero bytes', async () => {
    const error = await rejection(new Uint8Array(0));
    expect([error.code, error.reason]).toEqual(['BAD_REQUEST', 'EMPTY_INPUT']);
    expect(error.message).toMatch(/empty/);
  });

  it('wrong magic (a PDF)', async () => {
    const error = await rejection(Buffer.from('%PDF-1.7\n1 0 obj\n'));
    expect(error.reason).toBe('UNSUPPORTED_FORMAT');
    expect(error.message).toMatch(/not a JPEG, PNG or WEBP image: it looks like a PDF document/);
  });

  it('truncated JPEG', async () => {
    const whole = await jpeg();
    const error = await rejection(whole.subarray(0, Math.floor(whole.length * 0.6)));
    expect(error.reason).toBe('TRUNCATED');
    expect(error.message).toMatch(/JPEG is truncated/);
  });

  it('truncated PNG', async () => {
    const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#336699' } }).png().toBuffer();
    const error = await rejection(png.subarray(0, png.length - 20));
    expect(error.reason).toBe('TRUNCATED');
  });

  it('corrupted JPEG header', async () => {
    const bytes = Buffer.from(await jpeg());
    bytes.fill(0x00, 4, 40);
    const error = await rejection(bytes);
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.reason).toBe('CORRUPT');
  });

  it('a 20000x20000 PNG bomb is refused from its header', async () => {
    const bomb = pngBomb();
    expect(bomb.length).toBeLessThan(200_000);
    const error = await rejection(bomb);
    expect(error.reason).toBe('PIXEL_LIMIT');
    expect(error.message).toMatch(/20000x20000 pixels; the limit is 50000000 pixels/);
  });

  it('bad base64', async () => {
    const error = await rejection('this is *not* base64!');
    expect(error.reason).toBe('INVALID_BASE64');
  });

  it('a data URL of another type', async () => {
    const error = await rejection(`data:application/pdf;base64,${Buffer.from('%PDF-1.7').toString('base64')}`);
    expect(error.reason).toBe('UNSUPPORTED_DATA_URL');
    expect(error.message).toMatch(/media type "application\/pdf"/);
  });

  it('a file over 4 MB', async () => {
    const error = await rejection(new Uint8Array(4 * 1024 * 1024 + 1).fill(0xff));
    expect(error.reason).toBe('TOO_LARGE');
  });

  it('an image under the minDimension a caller asks for (the detection endpoints ask 256)', async () => {
    const error = await rejection(await jpeg(200, 300), { minDimension: 256 });
    expect(error.reason).toBe('TOO_SMALL');
    expect(error.message).toMatch(/200x300 pixels; the minimum is 256x256/);
  });

  it('random bytes behind a JPEG magic never crash', async () => {
    let seed = 7;
    const random = Buffer.alloc(5000, 0).map(() => (seed = (seed * 1103515245 + 12345) & 0xff));
    random[0] = 0xff; random[1] = 0xd8; random[2] = 0xff;
    const error = await rejection(random);
    expect(error.code).toBe('BAD_REQUEST');
  });
});

describe('accepted inputs', () => {
  it('reads bytes, base64 and a data URL alike, with mime_type from the bytes', async () => {
    const bytes = await jpeg();
    const fromBytes = await extractImageMetadata(bytes, { decodeWatermark: false });
    const fromBase64 = await extractImageMetadata(bytes.toString('base64'), { decodeWatermark: false });
    // The claimed type says PNG; the bytes are a JPEG.
    const fromDataUrl = await extractImageMetadata(`data:image/png;base64,${bytes.toString('base64')}`, { decodeWatermark: false });
    expect(fromBytes.mime_type).toBe('image/jpeg');
    expect(fromBase64).toEqual(fromBytes);
    expect(fromDataUrl.mime_type).toBe('image/jpeg');
    expect(fromBytes.metadata).toMatchObject({ format: 'jpeg', width: 300, height: 300, channels: 3 });
    expect(fromBytes.c2pa).toEqual({});
    expect(fromBytes.ai_watermark_detected).toBe(false);
  });

  it('reads an image of any size by default: the 256x256 minimum belongs to the detection endpoints', async () => {
    const result = await extractImageMetadata(await jpeg(100, 75));
    expect(result.metadata).toMatchObject({ format: 'jpeg', width: 100, height: 75 });
    expect(result.ai_watermark_detected).toBe(false);
  });

  it('rejects bad option values with a precise message', async () => {
    await expect(extractImageMetadata(await jpeg(), { maxBytes: -1 })).rejects.toThrow('Expected positive number for maxBytes but received -1 of type number');
  });

  it('keeps a readable image when a metadata block is broken', async () => {
    const bytes = await sharp(await jpeg()).withExif({ IFD0: { Make: 'Canon' } }).toBuffer();
    const result = await extractImageMetadata(bytes, { decodeWatermark: false });
    expect(result.exif.Make).toBe('Canon');
    expect(readFileSync).toBeDefined();
  });
});
