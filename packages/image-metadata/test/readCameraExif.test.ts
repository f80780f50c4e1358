import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readCameraExif } from '../src/index.js';
import { a1111ExifBlock } from './helpers/generatorFiles.js';

async function exifOf(exif: Record<string, Record<string, string>>): Promise<Buffer> {
  const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#808080' } }).withExif(exif).jpeg().toBuffer();
  const { exif: block } = await sharp(jpeg).metadata();
  if (!block) throw new Error('sharp wrote no EXIF');
  return block;
}

describe('readCameraExif', () => {
  it('reads IFD0 text, the Exif IFD serial number and the UserComment character code', async () => {
    const block = await exifOf({ IFD0: { Make: 'Nikon', Model: 'Z 6' }, IFD2: { BodySerialNumber: '6012345', UserComment: 'hello' } });
    expect(readCameraExif(block)).toMatchObject({ Make: 'Nikon', Model: 'Z 6', Orientation: 1, SerialNumber: '6012345', UserComment: 'hello' });
  });

  it('decodes a big-endian UNICODE UserComment', () => {
    expect(readCameraExif(a1111ExifBlock('灯台 Steps: 20')).UserComment).toBe('灯台 Steps: 20');
  });

  it('gives nothing for an IFD0 that runs past the end, and refuses a stream that is not TIFF', () => {
    expect(readCameraExif(a1111ExifBlock('x').subarray(0, 16))).toEqual({});
    expect(() => readCameraExif(Buffer.from('Exif\0\0not a tiff stream', 'latin1'))).toThrow('Unknown file format');
  });
});
