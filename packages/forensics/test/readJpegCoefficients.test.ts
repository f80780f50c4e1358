import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blockDct, decodeImage, estimateStep, jpegLuma, readJpegCoefficients, standardLumaTable, ZIGZAG } from '../src/index.js';
import type { DctPlane } from '../src/index.js';
import { readAnyJpegCoefficients } from '../src/jpeg/readJpegCoefficients.js';
import { readSequentialLuma } from '../src/jpeg/sequentialLuma.js';
import { datasetDir } from './datasets.js';
import { H, jpeg, texturedImage, W } from './jpegForgeries.js';

/** The same grid, table and coefficients, bit for bit. */
function samePlane(a: DctPlane, b: DctPlane): boolean {
  const bytes = (v: Float32Array | Uint16Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  return a.blocksX === b.blocksX && a.blocksY === b.blocksY && a.offsetX === b.offsetX && a.offsetY === b.offsetY
    && a.coefficients.length === b.coefficients.length && bytes(a.coefficients).equals(bytes(b.coefficients)) && bytes(a.table!).equals(bytes(b.table!));
}

/** Share of coefficients equal to the pixels' DCT rounded to the file's steps (a decoder's rounding moves a few). */
async function agreement(bytes: Uint8Array, plane: DctPlane): Promise<number> {
  const image = await decodeImage(bytes);
  const dct = blockDct(jpegLuma(image), image.width, image.height);
  let same = 0;
  for (let i = 0; i < plane.coefficients.length; i++) {
    const q = plane.table![i % 64]!;
    if (Math.round(dct.coefficients[i]! / q) * q === plane.coefficients[i]) same++;
  }
  return same / plane.coefficients.length;
}

describe('readJpegCoefficients', () => {
  const pixels = texturedImage(3);

  it('reads a baseline JPEG: the IJG table of its quality and coefficients that match its pixels', async () => {
    const bytes = await jpeg(pixels, 75);
    const plane = readJpegCoefficients(bytes);
    expect(plane).toMatchObject({ blocksX: 64, blocksY: 48, offsetX: 0, offsetY: 0 });
    expect(Array.from(plane.table!)).toEqual(Array.from(standardLumaTable(75)));
    expect(await agreement(bytes, plane)).toBeGreaterThan(0.995);
  });

  it('reads the same coefficients from the progressive encoding of the same image', async () => {
    const baseline = readJpegCoefficients(await jpeg(pixels, 82));
    const progressive = readJpegCoefficients(await jpeg(pixels, 82, { progressive: true }));
    expect(Array.from(progressive.table!)).toEqual(Array.from(baseline.table!));
    expect(progressive.coefficients).toEqual(baseline.coefficients);
  });

  it('refuses bytes that are not a JPEG with a typed error', () => {
    expect(() => readJpegCoefficients(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toThrow(expect.objectContaining({ code: 'ERR_FORENSICS_JPEG_COEFFICIENTS' }));
  });

  const reference = datasetDir('images/pyifd-matlab-reference');
  it.skipIf(!reference)('reads the progressive 168_image.jpg of the MATLAB toolbox reference', async () => {
    const bytes = readFileSync(join(reference!, '168_image.jpg'));
    const plane = readJpegCoefficients(bytes);
    expect(plane).toMatchObject({ blocksX: 135, blocksY: 135 });
    expect(Array.from(plane.table!.slice(0, 4))).toEqual([10, 10, 10, 11]);
    expect(await agreement(bytes, plane)).toBeGreaterThan(0.995); // measured 0.9961
  });

  const cameras = datasetDir('images/exif-samples/jpg/exif-org');
  it.skipIf(!cameras)('estimates from the decoded pixels the steps that camera JPEGs carry in their tables', async () => {
    const names = readdirSync(cameras!).filter((n) => n.endsWith('.jpg')).sort().slice(0, 12);
    let right = 0, total = 0;
    for (const name of names) {
      const bytes = readFileSync(join(cameras!, name));
      const plane = readJpegCoefficients(bytes);
      const image = await decodeImage(bytes, { minSide: 8 });
      const dct = blockDct(jpegLuma(image), image.width, image.height);
      for (const k of ZIGZAG.slice(1, 21)) {
        const values = Float32Array.from({ length: dct.blocksX * dct.blocksY }, (_, b) => dct.coefficients[b * 64 + k]!);
        if (estimateStep(values, values.length).step === plane.table![k]) right++;
        total++;
      }
    }
    console.log(`steps estimated from pixels equal the file's table for ${right} of ${total} AC frequencies (${names.length} camera JPEGs)`);
    expect(total).toBe(240);
    expect(right / total).toBeGreaterThan(0.95);
  }, 60_000);

  /** readJpegCoefficients and the general reader agree: the same plane, or the same error. */
  const agree = (bytes: Uint8Array, label: string): void => {
    const read = (f: () => DctPlane) => { try { return f(); } catch (error) { return `${(error as Error).name}: ${(error as Error).message}`; } };
    const fast = read(() => readJpegCoefficients(bytes)), general = read(() => readAnyJpegCoefficients(bytes, undefined));
    if (typeof fast === 'string' || typeof general === 'string') return expect(fast, label).toEqual(general);
    expect(samePlane(fast, general), label).toBe(true);
  };

  it('reads sequential JPEGs by the fast path with the general reader\'s coefficients: subsampling, grey, odd sizes, into a reused buffer', async () => {
    const { default: sharp } = await import('sharp');
    const files = [
      await jpeg(pixels, 90),
      new Uint8Array(await sharp(Buffer.from(pixels), { raw: { width: W, height: H, channels: 3 } }).resize(301, 203).jpeg({ quality: 97, chromaSubsampling: '4:4:4' }).toBuffer()),
      new Uint8Array(await sharp(Buffer.from(pixels), { raw: { width: W, height: H, channels: 3 } }).resize(259, 131).greyscale().jpeg({ quality: 60 }).toBuffer()),
      new Uint8Array(await sharp(Buffer.from(pixels), { raw: { width: W, height: H, channels: 3 } }).jpeg({ quality: 30, optimiseCoding: false }).toBuffer()),
    ];
    for (const [i, bytes] of files.entries()) {
      expect(readSequentialLuma(bytes), `file ${i} takes the fast path`).toBeDefined();
      agree(bytes, `file ${i}`);
      // A buffer with another image's values is zeroed and filled: the same plane, as a view of it.
      const into = new Float32Array(W * H * 2).fill(5);
      const plane = readJpegCoefficients(bytes, { into });
      expect(plane.coefficients.buffer).toBe(into.buffer);
      expect(samePlane(plane, readJpegCoefficients(bytes))).toBe(true);
    }
    // Progressive files are the general reader's.
    expect(readSequentialLuma(await jpeg(pixels, 82, { progressive: true }))).toBeUndefined();
  });

  const images = datasetDir('images');
  it.skipIf(!images)('agrees with the general reader on camera JPEGs with restart intervals, and on truncated and corrupted ones', { timeout: 120_000 }, () => {
    const names = ['exifr-fixtures/Bush-dog.jpg', 'exif-samples/jpg/exif-org/fujifilm-mx1700.jpg', 'exif-samples/jpg/exif-org/nikon-e950.jpg', 'c2pa-sdk-fixtures/c2pa-rs/P1000827.jpg', 'exif-samples/jpg/Canon_40D.jpg'];
    let seed = 3;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
    for (const name of names) {
      const bytes = new Uint8Array(readFileSync(join(images!, name)));
      expect(readSequentialLuma(bytes), name).toBeDefined();
      agree(bytes, name);
      agree(bytes.subarray(0, Math.floor(bytes.length * 0.6)), `${name} truncated`);
      for (let t = 0; t < 3; t++) {
        const corrupted = Uint8Array.from(bytes);
        for (let q = 0; q < 6; q++) corrupted[Math.floor(bytes.length * (0.3 + 0.6 * random()))] = Math.floor(random() * 256);
        agree(corrupted, `${name} corrupted ${t}`);
      }
    }
  });
});
