import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '@content-analysis/forensics';
import { checkImageInput, extractImageMetadata } from '@content-analysis/image-metadata';
import { DATASETS, datasetImage, syntheticPhoto } from './images.js';

// The advanced analysis decodes an image once for the kernels and hands the pixels to the watermark decoder when the
// EXIF orientation is 1. That is sound only if the kernels' decode equals the one the watermark decoder makes itself
// (oriented, alpha removed, sRGB, 8 bits): checked here on camera JPEGs, watermark vectors and generated images.
const folders = ['exif-samples/jpg', 'sd-invisible-watermark/watermarked', 'sd-invisible-watermark/carriers'];

async function files(): Promise<Array<[string, Buffer]>> {
  const out: Array<[string, Buffer]> = [];
  for (const folder of folders) {
    const dir = datasetImage(...folder.split('/'));
    if (!dir) continue;
    for (const name of readdirSync(dir).filter((n) => /\.(jpe?g|png|webp)$/i.test(n))) out.push([`${folder}/${name}`, readFileSync(join(dir, name))]);
  }
  out.push(['synthetic.png', await syntheticPhoto({ format: 'png' })], ['synthetic.webp', await syntheticPhoto({ format: 'webp' })]);
  return out;
}

describe('one decode for the kernels and the watermark decoder', () => {
  it('gives the watermark decoder\'s own pixels and result at orientation 1', async () => {
    let compared = 0;
    for (const [name, bytes] of await files()) {
      const checked = await checkImageInput(bytes, { maxBytes: 25 * 1024 * 1024, minDimension: 64 }).catch(() => undefined);
      if (!checked || checked.orientation !== 1) continue;
      const shared = await decodeImage(bytes);
      const own = await sharp(bytes).autoOrient().removeAlpha().toColourspace('srgb').raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
      expect([shared.width, shared.height, shared.channels], name).toEqual([own.info.width, own.info.height, own.info.channels]);
      expect(Buffer.compare(Buffer.from(shared.data as Uint8Array), own.data), name).toBe(0);
      const options = { maxBytes: 25 * 1024 * 1024, minDimension: 64 };
      const a = await extractImageMetadata(bytes, { ...options, pixels: { ...shared, data: shared.data as Uint8Array } });
      const b = await extractImageMetadata(bytes, options);
      expect(a.invisible_watermark, name).toEqual(b.invisible_watermark);
      expect(a.ai_watermark_issuers, name).toEqual(b.ai_watermark_issuers);
      compared++;
    }
    console.log(`shared decode: ${compared} images compared (datasets at ${DATASETS})`);
    expect(compared).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('falls back to its own decode for pixels of another size', async () => {
    const bytes = await syntheticPhoto();
    const wrong = { data: new Uint8Array(16 * 16 * 3), width: 16, height: 16, channels: 3 };
    const a = await extractImageMetadata(bytes, { pixels: wrong });
    const b = await extractImageMetadata(bytes);
    expect(a.invisible_watermark).toEqual(b.invisible_watermark);
  });
});
