import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../src/index.js';
import { lumaBytes, studioLuma, studioLumaPlanes, studioLumaPlanesRows, studioLumaRow, wasmLumaCalls, allocateLumaPlanes, type LumaPlanes } from '../src/internal/luma.js';
import type { PixelBuffer } from '../src/types.js';
import { datasetDir } from './datasets.js';
import { rng } from './synthetic.js';
import { firstDifference, float32Bits, MODULES_OFF, onWebAssembly, randomImage, restoreModulesAfterEach, withModulesOff } from './wasmPaths.js';

// The 8-bit luma in WebAssembly must equal the JavaScript luma bit for bit: float32 luma, rounded luma as float32
// and as bytes, for every colour and grey level, on awkward lengths and offsets, across chunks.

restoreModulesAfterEach();

/** `run()` on the WebAssembly path, checking that the module ran. */
const webAssembly = <T>(run: () => T): T => onWebAssembly('luma', () => wasmLumaCalls, run);

function expectSamePlanes(actual: LumaPlanes, expected: LumaPlanes): void {
  expect(firstDifference(float32Bits(actual.luma), float32Bits(expected.luma))).toBe(-1);
  expect(firstDifference(actual.rounded, expected.rounded)).toBe(-1);
}

/**
 * studioLuma (both roundings) and studioLumaPlanes of `image` in both paths, compared (images of fewer than 256 pixels
 * stay in JavaScript with the modules on).
 */
function compareImage(image: PixelBuffer): void {
  const modules = image.width * image.height >= 256 ? webAssembly : <T>(run: () => T): T => run();
  for (const round of [false, true]) {
    const expected = withModulesOff(() => studioLuma(image, round));
    expect(firstDifference(float32Bits(modules(() => studioLuma(image, round))), float32Bits(expected))).toBe(-1);
  }
  expectSamePlanes(modules(() => studioLumaPlanes(image)!), withModulesOff(() => studioLumaPlanes(image)!));
}

describe.skipIf(MODULES_OFF)('8-bit luma in WebAssembly', () => {
  it('equals the JavaScript luma for every RGB colour (3 and 4 channels) and every grey level (1 and 2 channels)', () => {
    // All 2^24 colours as a 4096 x 4096 image.
    const n = 1 << 24;
    const rgb = new Uint8Array(3 * n);
    for (let i = 0, p = 0; i < n; i++, p += 3) { rgb[p] = i >> 16; rgb[p + 1] = (i >> 8) & 255; rgb[p + 2] = i & 255; }
    compareImage({ data: rgb, width: 4096, height: 4096, channels: 3 });
    // With alpha (not used), on a quarter of the colours: every red and green, blue in steps of 4 plus the extremes.
    const m = 1 << 22;
    const rgba = new Uint8Array(4 * m);
    for (let i = 0, p = 0; i < m; i++, p += 4) { rgba[p] = i >> 14; rgba[p + 1] = (i >> 6) & 255; rgba[p + 2] = (i & 63) * 4 + ((i & 63) === 63 ? 3 : 0); rgba[p + 3] = i & 255; }
    compareImage({ data: rgba, width: 2048, height: 2048, channels: 4 });
    for (const channels of [1, 2]) {
      const grey = Uint8Array.from({ length: 256 * 3 * channels }, (_, j) => (Math.floor(j / channels) * 7) & 255);
      compareImage({ data: grey, width: 256, height: 3, channels });
    }
  }, 120_000);

  it('equals it on random images of awkward sizes, 1 to 4 channels, and in row bands', () => {
    let seed = 1;
    for (const [width, height] of [[16, 16], [17, 15], [255, 1], [257, 1], [301, 7], [1000, 33], [33, 1000]] as const) {
      for (const channels of [1, 2, 3, 4]) {
        const image = randomImage(width, height, channels, seed++);
        compareImage(image);
        // Bands of rows into one pair of planes, as the worker pool computes them (the last band may be short enough
        // to stay in JavaScript).
        const band = Math.ceil(256 / width) + 2;
        if (height > band) {
          const expected = withModulesOff(() => studioLumaPlanes(image)!);
          const planes = allocateLumaPlanes(image, true)!;
          webAssembly(() => {
            for (let y = 0; y < height; y += band) studioLumaPlanesRows(image, planes, y, Math.min(height, y + band));
          });
          expectSamePlanes(planes, expected);
        }
      }
    }
  });

  it('equals it for runs at any offset, of every length around the threshold and across chunks', () => {
    const image = randomImage(70_001, 1, 3, 9);
    const data = image.data as Uint8Array;
    for (const [from, count] of [[0, 255], [5, 256], [7, 257], [1, 1000], [3, 32_767], [11, 32_768], [13, 32_769], [0, 70_001], [17, 65_537]] as const) {
      const expected = new Float32Array(count + 9), actual = new Float32Array(count + 9);
      withModulesOff(() => lumaBytes(data, 3, expected, from, 9, count));
      if (count >= 256) webAssembly(() => lumaBytes(data, 3, actual, from, 9, count));
      else lumaBytes(data, 3, actual, from, 9, count);
      expect(firstDifference(float32Bits(actual), float32Bits(expected))).toBe(-1);
    }
    // Pixels at an odd byte offset of their buffer, read row by row.
    const buffer = new Uint8Array(1 + 300 * 5 * 3);
    buffer.set(data.subarray(0, buffer.length - 1), 1);
    const odd = { data: buffer.subarray(1), width: 300, height: 5, channels: 3 };
    compareImage(odd);
    for (const round of [false, true]) {
      const expected = new Float32Array(300), actual = new Float32Array(300);
      withModulesOff(() => studioLumaRow(odd, 4, round, expected));
      webAssembly(() => studioLumaRow(odd, 4, round, actual));
      expect(firstDifference(float32Bits(actual), float32Bits(expected))).toBe(-1);
    }
  });

  it('equals it on constant and saturated images', () => {
    for (const value of [0, 1, 128, 254, 255]) {
      for (const channels of [1, 3, 4]) compareImage({ data: new Uint8Array(61 * 9 * channels).fill(value), width: 61, height: 9, channels });
    }
    const random = rng(5);
    compareImage({ data: Uint8Array.from({ length: 67 * 11 * 3 }, () => (random() < 0.5 ? 0 : 255)), width: 67, height: 11, channels: 3 });
  });

  it('gives the same luma planes for a camera photo', async () => {
    const dir = datasetDir('images/exif-samples/jpg');
    if (!dir) return;
    compareImage(await decodeImage(readFileSync(join(dir, 'Canon_40D.jpg'))));
  });
});
