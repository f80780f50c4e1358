import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { recompressJpeg } from '../src/index.js';
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
