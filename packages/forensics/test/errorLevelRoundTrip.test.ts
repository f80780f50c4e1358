import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { decodeImage, errorLevelAnalysis, errorLevelRoundTrip, recompressJpeg } from '../src/index.js';
import type { ErrorLevelAnalysisOptions, RecompressJpegOptions } from '../src/index.js';
import * as recycledMemory from '../src/internal/recycledMemory.js';
import type { KernelResult, PixelBuffer } from '../src/types.js';
import { datasetsRoot } from './datasets.js';
import { addNoise, smoothField, toUint8 } from './synthetic.js';
import { firstDifference, float32Bits } from './wasmPaths.js';

// errorLevelRoundTrip must be errorLevelAnalysis of recompressJpeg's result, bit for bit: every map value, every stat,
// the score, on a real camera photo and on synthetic images through both its banded path and its fallback.

function expectSameResult(actual: KernelResult, expected: KernelResult): void {
  expect(actual.maps.map((m) => [m.name, m.width, m.height, m.cellSize, m.displayRange])).toEqual(expected.maps.map((m) => [m.name, m.width, m.height, m.cellSize, m.displayRange]));
  actual.maps.forEach((map, i) => expect({ map: map.name, at: firstDifference(float32Bits(map.data), float32Bits(expected.maps[i]!.data)) }).toEqual({ map: map.name, at: -1 }));
  expect(actual.stats).toEqual(expected.stats);
  expect(Object.is(actual.score, expected.score)).toBe(true);
}

async function compare(image: PixelBuffer, options: ErrorLevelAnalysisOptions = {}, roundTrip: RecompressJpegOptions = {}, recycle = false): Promise<KernelResult> {
  const expected = errorLevelAnalysis(image, await recompressJpeg(image, roundTrip), options);
  const actual = await errorLevelRoundTrip(image, options, roundTrip, recycle);
  expectSameResult(actual, expected);
  // Recycled memory only when asked for (and then only on the banded path): by default every map is a plain buffer.
  if (!recycle) for (const map of actual.maps) expect(map.data.buffer).toBeInstanceOf(ArrayBuffer);
  return actual;
}

describe('errorLevelRoundTrip', () => {
  it('equals errorLevelAnalysis of recompressJpeg on a 12 MP camera photo (Pixel 5, two bands)', async () => {
    const photo = join(datasetsRoot, 'images/c2pa-public-testfiles/truepic-20230212-camera.jpg');
    if (!existsSync(photo)) {
      console.warn(`skipping: ${photo} not found (set CONTENT_ANALYSIS_DATASETS)`);
      return;
    }
    const image = await decodeImage(readFileSync(photo));
    const result = await compare(image);
    expect(result.stats.mean).toBeGreaterThan(0);
    expect(result.maps[0]!.data.length).toBe(image.width * image.height);
  }, 60_000);

  it('equals it through the bands on synthetic images of awkward sizes, qualities, block sizes and options, RGB and grey', async () => {
    for (const [width, height, channels, options, roundTrip] of [
      [301, 203, 3, {}, { bands: 3 }], [256, 250, 3, { blockSize: 8 }, { bands: 4, quality: 75 }], [130, 97, 1, {}, { bands: 2 }],
      [97, 130, 3, { scale: 20 }, { bands: 5 }], [200, 160, 3, { blockSize: 4, outlierZ: 2, regionZ: 1.5 }, { bands: 2 }],
    ] as const) {
      const image = toUint8(addNoise(smoothField(width, height, channels, 5), width, channels, 8, 3), width, height, channels);
      await compare(image, options, roundTrip);
    }
  });

  it('falls back to the two calls for block sizes the bands do not start on, a single band and small images', async () => {
    const image = toUint8(addNoise(smoothField(200, 180, 3, 2), 200, 3, 6, 4), 200, 180, 3);
    await compare(image, { blockSize: 12 }, { bands: 3 });
    await compare(image, {}, { bands: 1 });
    await compare(image);
  });

  it('with recycle, writes a later map into the memory of one nobody holds any more, never into one still held', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const [width, height] = [320, 256];
    const image = (seed: number): PixelBuffer => toUint8(addNoise(smoothField(width, height, 3, seed), width, 3, 10, seed), width, height, 3);
    const held = await compare(image(1), {}, { bands: 4 }, true);
    const heldBits = Array.from(float32Bits(held.maps[0]!.data));
    // Results dropped as soon as they are compared: their memory goes back once the collector has taken them.
    const before = recycledMemory.recycledCount;
    for (let seed = 2; seed < 12 && recycledMemory.recycledCount === before; seed++) {
      await compare(image(seed), {}, { bands: 4 }, true);
      gc();
      // FinalizationRegistry callbacks run in a later task.
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(recycledMemory.recycledCount).toBeGreaterThan(before);
    // The map written over old values is still the two calls' map bit for bit; the held result never changed.
    await compare(image(20), { scale: 7 }, { bands: 3 }, true);
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
    await compare(image(21), {}, { bands: 2, quality: 60 }, true);
    expect(firstDifference(float32Bits(held.maps[0]!.data), Uint32Array.from(heldBits))).toBe(-1);
  });

  it('rejects bad options as the two calls do', async () => {
    const image = toUint8(smoothField(64, 64, 3, 1), 64, 64, 3);
    await expect(errorLevelRoundTrip(image, {}, { quality: 0 })).rejects.toThrow(RangeError);
    await expect(errorLevelRoundTrip(image, { blockSize: 0 })).rejects.toThrow(RangeError);
  });
});
