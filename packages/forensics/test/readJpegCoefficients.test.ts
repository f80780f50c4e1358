import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blockDct, decodeImage, estimateStep, jpegLuma, readJpegCoefficients, standardLumaTable, ZIGZAG } from '../src/index.js';
import type { DctPlane } from '../src/index.js';
import { datasetDir } from './datasets.js';
import { jpeg, texturedImage } from './jpegForgeries.js';

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
});
