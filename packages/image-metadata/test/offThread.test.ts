import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { pixelHeavyPng } from '../../../scripts/fuzz/lib/index.mjs';
import { extractImageMetadata } from '../src/index.js';
import { sharedPixelReads } from '../src/watermark/decodeOffThread.js';

describe('watermark decoding off the event loop (issue 26 item 7)', () => {
  it('keeps the event loop answering while four 4000 x 4000 images are read for watermarks', async () => {
    // On the main thread, the decoder's pass over 16 million pixels held the loop for about a second per image.
    const png = pixelHeavyPng(4000, 4000);
    let last = performance.now();
    let longest = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 5);
    const results = await Promise.all(Array.from({ length: 4 }, () => extractImageMetadata(png, { minDimension: 0 })));
    clearInterval(ticker);
    for (const result of results) {
      expect(result.errors).toEqual([]);
      expect(result.invisible_watermark?.detections).toEqual([]);
      expect(result.invisible_watermark?.best).toHaveLength(4);
    }
    expect(longest).toBeLessThan(250);
  });

  it('reads large pixels given in shared memory on a watermark thread, with the result of decoding the image there', async () => {
    // 1.2 MP: above what is read on the calling thread. A caller such as a forensics pool has decoded it already.
    const png = pixelHeavyPng(1200, 1000);
    const { data, info } = await sharp(png).autoOrient().removeAlpha().toColourspace('srgb').raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
    const shared = new Uint8Array(new SharedArrayBuffer(data.length));
    shared.set(data);
    const reads = sharedPixelReads;
    const given = await extractImageMetadata(png, { minDimension: 0, pixels: { data: shared, width: info.width, height: info.height, channels: info.channels } });
    expect(sharedPixelReads).toBe(reads + 1);
    const decoded = await extractImageMetadata(png, { minDimension: 0 });
    expect(given.errors).toEqual([]);
    expect(given.invisible_watermark?.best).toHaveLength(4);
    expect(given).toEqual(decoded);
  });
});

