import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { SPLIT_DECODE_MIN_PIXELS, sequentialJpegFrame } from '../src/decodeImage.js';
import { decodeImage, ImageDecodeError, ImageTooLargeError, recompressJpeg } from '../src/index.js';
import * as recycledMemory from '../src/internal/recycledMemory.js';
import { datasetDir } from './datasets.js';
import { addNoise, smoothField, toUint8 } from './synthetic.js';

// recompressJpeg splits large images into row bands encoded and decoded at the same time: every band count must give
// the whole image's round trip byte for byte (MCU-aligned cuts with a 16-row margin), for odd sizes and grey too.
describe('recompressJpeg in row bands', () => {
  for (const [width, height, channels] of [[203, 170, 3], [160, 97, 3], [96, 250, 1], [64, 33, 3]] as const) {
    it(`${width}x${height}x${channels}: 2, 3 and 5 bands equal the whole round trip`, async () => {
      const rgb = toUint8(addNoise(smoothField(width, height, 3, width + height), width, 3, 6, height), width, height, 3);
      const image = channels === 3 ? rgb : { data: rgb.data.filter((_, i) => i % 3 === 1), width, height, channels: 1 };
      const whole = await recompressJpeg(image, { bands: 1 });
      for (const bands of [2, 3, 5]) {
        for (const quality of [90, 75]) {
          const banded = await recompressJpeg(image, { bands, quality });
          const reference = quality === 90 ? whole : await recompressJpeg(image, { bands: 1, quality });
          expect(isDeepStrictEqual(Array.from(banded.data), Array.from(reference.data))).toBe(true);
          expect([banded.width, banded.height, banded.channels]).toEqual([width, height, channels]);
        }
      }
    });
  }
});

// decodeImage decodes a large sequential JPEG in two bands of rows at once (into recycled shared memory when asked
// to recycle, else a plain buffer of its own): the pixels
// must be those of sharp's whole decode (the pipeline decodeImage runs for every other file) byte for byte, a recycled
// buffer must be fully overwritten, and a file whose bands fail must give the whole decode's error.
describe('decodeImage in two bands of rows', () => {
  const whole = async (bytes: Uint8Array): Promise<Buffer> =>
    (await sharp(bytes, { failOn: 'error' }).toColourspace('srgb').removeAlpha().raw().toBuffer());
  // One synthetic photo-like field (the files below are crops of it: making a field is the slow part).
  const W = 2100, H = 1500;
  const field = toUint8(addNoise(smoothField(W, H, 3, 90), W, 3, 6, 91), W, H, 3);
  const jpegOf = async (width: number, height: number, options: Parameters<ReturnType<typeof sharp>['jpeg']>[0]): Promise<Uint8Array> =>
    new Uint8Array(await sharp(field.data, { raw: { width: W, height: H, channels: 3 } }).extract({ left: 0, top: 0, width, height }).jpeg(options).toBuffer());

  it('gives the whole decode\'s pixels for large baseline JPEGs (4:2:0, 4:4:4, odd heights), with recycle in shared memory used again', async () => {
    const files: Uint8Array[] = [];
    for (const [w, h] of [[1800, 1203], [1410, 1500], [2100, 1000]] as const) {
      files.push(await jpegOf(w, h, { quality: 90 }));
      files.push(await jpegOf(w, h, { quality: 95, chromaSubsampling: '4:4:4' }));
    }
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const before = recycledMemory.recycledCount;
    for (const bytes of [...files, ...files]) {
      const frame = sequentialJpegFrame(bytes)!;
      expect(frame.width * frame.height).toBeGreaterThanOrEqual(SPLIT_DECODE_MIN_PIXELS);
      const image = await decodeImage(bytes, { recycle: true });
      expect(image.data.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect([image.width, image.height, image.channels]).toEqual([frame.width, frame.height, 3]);
      expect(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length).equals(await whole(bytes))).toBe(true);
      gc();
      // FinalizationRegistry callbacks run in a later task.
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Dropped pixels gave their memory to later ones (which were still the whole decode's, byte for byte).
    expect(recycledMemory.recycledCount).toBeGreaterThan(before);
  }, 60_000);

  it('gets dropped pixels\' memory back without an explicit collection (the collector is told of the memory it lends)', async () => {
    const jpeg = await jpegOf(1800, 1203, { quality: 90 });
    const reference = await whole(jpeg);
    const before = recycledMemory.recycledCount;
    // Each decode's pixels dropped at once; V8 counts no SharedArrayBuffer memory, so only the report of each lent
    // buffer makes it collect them (without it: no collection at all in a loop like this one).
    for (let i = 0; i < 40 && recycledMemory.recycledCount === before; i++) {
      const image = await decodeImage(jpeg, { recycle: true });
      expect(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length).equals(reference)).toBe(true);
    }
    expect(recycledMemory.recycledCount).toBeGreaterThan(before);
  }, 60_000);

  it('gives the whole decode\'s pixels for the 12 MP camera JPEGs of the shared datasets', async () => {
    const dir = datasetDir('images/c2pa-public-testfiles');
    if (!dir) return;
    for (const name of ['truepic-20230212-camera.jpg', 'nikon-20221019-building.jpeg']) {
      const bytes = new Uint8Array(readFileSync(join(dir, name)));
      const reference = await whole(bytes);
      const image = await decodeImage(bytes);
      // Without recycle: a plain buffer of its own, never lent memory.
      expect(image.data.buffer, name).toBeInstanceOf(ArrayBuffer);
      expect(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length).equals(reference), name).toBe(true);
      const recycled = await decodeImage(bytes, { recycle: true });
      expect(recycled.data.buffer, name).toBeInstanceOf(SharedArrayBuffer);
      expect(Buffer.from(recycled.data.buffer, recycled.data.byteOffset, recycled.data.length).equals(reference), name).toBe(true);
    }
  }, 60_000);

  it('decodes a file whose bands fail whole: its error, and a too large one is refused as before', async () => {
    const w = 1800, h = 1203;
    const jpeg = await jpegOf(w, h, { quality: 90 });
    const truncated = jpeg.subarray(0, jpeg.length >> 1);
    const error = await decodeImage(truncated).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImageDecodeError);
    const direct = await whole(truncated).catch((e: unknown) => e);
    expect((error as Error).message).toBe(`Could not decode the image: ${(direct as Error).message}`);
    await expect(decodeImage(jpeg, { maxPixels: w * h - 1 })).rejects.toBeInstanceOf(ImageTooLargeError);
  }, 60_000);
});
