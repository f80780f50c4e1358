import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { cfaReinterpolation, decodeImage, greenLatticeParity } from '../src/index.js';
import { bayerBandErrors } from '../src/internal/bayerErrors.js';
import { wasmModule } from '../src/internal/wasm.js';
import type { PixelBuffer } from '../src/index.js';
import { datasetDir } from './datasets.js';
import { float64Bits, firstDifference, MODULES_OFF, randomImage, restoreModulesAfterEach, withModulesOff } from './wasmPaths.js';

// The WebAssembly Bayer errors (assembly/bayerErrors.ts) against the JavaScript integer path they replace: the
// same float64 values, bit for bit (NaN where a row of blocks is not measured).
restoreModulesAfterEach();

function expectSameBandErrors(image: PixelBuffer, block: number, start: number, end: number, stride = 1): void {
  const wasm = bayerBandErrors(image, block, start, end, stride);
  const js = withModulesOff(() => bayerBandErrors(image, block, start, end, stride));
  const where = `${image.width}x${image.height}x${image.channels} block ${block} rows [${start}, ${end}) stride ${stride}`;
  // Bits, not values: a NaN's sign bit (which 0 / 0 sets on x86) must match too.
  expect(firstDifference(float64Bits(wasm.stds), float64Bits(js.stds)), `stds of ${where}`).toBe(-1);
  js.errors.forEach((e, k) => expect(firstDifference(float64Bits(wasm.errors[k]!), float64Bits(e)), `errors of layout ${k} of ${where}`).toBe(-1));
}

describe.skipIf(MODULES_OFF)('bayerBandErrors in WebAssembly', () => {
  it('runs in WebAssembly here: the call lays out its layout table in the module\'s memory', () => {
    const module = wasmModule('bayerErrors');
    expect(module).toBeDefined();
    const base = module!.function<() => number>('heapBase')();
    module!.reserve(base + 48 * 4);
    new Int32Array(module!.memory.buffer, base, 48).fill(7);
    const table = () => Array.from(new Int32Array(module!.memory.buffer, base, 48));
    bayerBandErrors(randomImage(20, 20, 3, 0), 4, 0, 5);
    expect(table()).not.toContain(7);
    expect(table()).toContain(-1);
  });

  it('equals the JavaScript integer path on random images of awkward sizes, 1 to 4 channels', () => {
    let seed = 1;
    for (const channels of [1, 2, 3, 4]) {
      for (const [width, height] of [[2, 2], [3, 5], [4, 4], [17, 9], [33, 31], [61, 23], [203, 157]] as const) {
        const image = randomImage(width, height, channels, seed++);
        for (const block of [2, 4, 6, 16]) {
          const rows = Math.ceil(height / block);
          expectSameBandErrors(image, block, 0, rows);
          if (rows > 2) expectSameBandErrors(image, block, 1, rows - 1, 2);
        }
      }
    }
  });

  it('equals the JavaScript path for large blocks (rows streamed in several calls) and bands past the image', () => {
    const image = randomImage(301, 290, 3, 41);
    for (const block of [10, 66, 130, 290]) expectSameBandErrors(image, block, 0, Math.ceil(290 / block));
    expectSameBandErrors(randomImage(1030, 140, 3, 42), 1024, 0, 1);
    // Rows so wide that fewer than 64 fit the module's chunk (56 here): chunks that split a row of blocks unevenly.
    expectSameBandErrors(randomImage(12001, 130, 3, 45), 128, 0, 2);
    expectSameBandErrors(randomImage(40, 40, 3, 43), 16, 2, 5);
  });

  it('equals the JavaScript path on constant, saturated and two-level images', () => {
    for (const [value, channels] of [[0, 3], [255, 3], [128, 1], [255, 4]] as const) {
      expectSameBandErrors({ data: new Uint8Array(37 * 19 * channels).fill(value), width: 37, height: 19, channels }, 6, 0, 4);
    }
    // Extremes next to each other give the largest errors (255^2) the int32 lanes must hold.
    const checker = randomImage(200, 130, 3, 44, 2).data.map((v) => v * 255);
    expectSameBandErrors({ data: checker, width: 200, height: 130, channels: 3 }, 64, 0, 3);
    expectSameBandErrors({ data: checker, width: 200, height: 130, channels: 3 }, 130, 0, 1);
  });

  // A SUN scene photo (Sun-Hays80 super-resolution benchmark, research use; see the dataset's README.txt).
  const real = datasetDir('images/ai-vs-real-train/denoise-sr-benchmarks/real');
  it.skipIf(!real)('equals the JavaScript path on a real photo, as RGB and as RGBA (skipped without the datasets)', async () => {
    const file = `${real}/sun80_yard_sun_bznyfrmgvhdjfnnx.jpg`;
    const image = await decodeImage(await sharp(file).toBuffer());
    expect(image.data).toBeInstanceOf(Uint8Array);
    expectSameBandErrors(image, 16, 0, Math.ceil(image.height / 16));
    const { data, info } = await sharp(file).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expectSameBandErrors({ data: new Uint8Array(data), width: info.width, height: info.height, channels: 4 }, 16, 0, Math.ceil(info.height / 16));
    // The two callers: the re-interpolation kernel, and the layout choice of the variance map on sampled rows.
    const wasm = cfaReinterpolation(image), js = withModulesOff(() => cfaReinterpolation(image));
    expect(wasm.stats).toEqual(js.stats);
    wasm.maps.forEach((map, i) => expect(new Uint32Array(map.data.buffer)).toEqual(new Uint32Array(js.maps[i]!.data.buffer)));
    for (const sampled of [Infinity, 200_000]) expect(greenLatticeParity(image, 16, 5, sampled)).toBe(withModulesOff(() => greenLatticeParity(image, 16, 5, sampled)));
  });
});
