import { describe, expect, it } from 'vitest';
import { INV_255, studioLuma, studioLumaPlanes, studioLumaRow } from '../src/internal/luma.js';
import { rng } from './synthetic.js';

// The 8-bit luma multiplies by 1/255 instead of dividing by 255: that must give the division's float32 luma and its
// rounded luma for every colour, which only an exhaustive check over the 2^24 colours (and 256 grey levels) proves.
describe('8-bit luma by a multiplication', () => {
  it('equals the division for every RGB colour and grey level, unrounded (float32) and rounded', () => {
    const f = new Float32Array(2);
    let mismatches = 0;
    for (let r = 0; r < 256; r++) {
      for (let g = 0; g < 256; g++) {
        for (let b = 0; b < 256; b++) {
          const x = 65.481 * r + 128.553 * g + 24.966 * b;
          const divided = 16 + x / 255, multiplied = 16 + x * INV_255;
          f[0] = divided; f[1] = multiplied;
          if (f[0] !== f[1] || Math.floor(divided + 0.5) !== Math.floor(multiplied + 0.5)) mismatches++;
        }
      }
    }
    for (let v = 0; v < 256; v++) {
      const divided = 16 + (219 * v) / 255, multiplied = 16 + 219 * v * INV_255;
      f[0] = divided; f[1] = multiplied;
      if (f[0] !== f[1] || Math.floor(divided + 0.5) !== Math.floor(multiplied + 0.5)) mismatches++;
    }
    expect(mismatches).toBe(0);
  });

  it('studioLuma, studioLumaRow and studioLumaPlanes agree with the division formula on an image', () => {
    const random = rng(11);
    for (const channels of [1, 3, 4]) {
      const width = 37, height = 5;
      const data = Uint8Array.from({ length: width * height * channels }, () => Math.floor(random() * 256));
      const image = { data, width, height, channels };
      const plain = new Float32Array(width * height), plainRounded = new Float32Array(width * height);
      for (let i = 0; i < width * height; i++) {
        const p = i * channels;
        const y = channels >= 3 ? 16 + (65.481 * data[p]! + 128.553 * data[p + 1]! + 24.966 * data[p + 2]!) / 255 : 16 + (219 * data[p]!) / 255;
        plain[i] = y;
        plainRounded[i] = Math.round(y);
      }
      expect(Array.from(studioLuma(image, false))).toEqual(Array.from(plain));
      expect(Array.from(studioLuma(image, true))).toEqual(Array.from(plainRounded));
      const planes = studioLumaPlanes(image)!;
      expect(Array.from(planes.luma)).toEqual(Array.from(plain));
      expect(Array.from(planes.rounded)).toEqual(Array.from(plainRounded));
      const row = new Float32Array(width);
      studioLumaRow(image, 3, false, row);
      expect(Array.from(row)).toEqual(Array.from(plain.subarray(3 * width, 4 * width)));
    }
  });
});
