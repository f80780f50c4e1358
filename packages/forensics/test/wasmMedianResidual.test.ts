import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeImage, medianResidualMap } from '../src/index.js';
import { lumaBytes, studioLuma } from '../src/internal/luma.js';
import { float32Largest, float32LargestNonNegative } from '../src/internal/stats.js';
import { medianResidualSweep, type ResidualSweep } from '../src/internal/medianResidualSweep.js';
import { SAMPLE_STEP, wasmSweepCalls } from '../src/internal/medianResidualWasm.js';
import { wasmModule } from '../src/internal/wasm.js';
import type { PixelBuffer } from '../src/types.js';
import { datasetDir } from './datasets.js';
import { rng } from './synthetic.js';
import { firstDifference, float32Bits, float64Bits, MODULES_OFF, onWebAssembly, randomImage, restoreModulesAfterEach, withModulesOff } from './wasmPaths.js';

// The WebAssembly median residual sweep must return the JavaScript sweep's values bit for bit: residuals, block sums,
// histogram and the finite flag, from 8-bit pixels of every channel count and from luma planes, on awkward sizes; with
// `keep`, candidates that give the same largest values and a histogram that is the full one from `highFrom` up.

restoreModulesAfterEach();

/** `run()` on the WebAssembly path, checking that the module ran. */
const webAssembly = <T>(run: () => T): T => onWebAssembly('medianResidual', () => wasmSweepCalls, run);

function expectSameSweep(actual: ResidualSweep | undefined, expected: ResidualSweep | undefined): void {
  expect(actual === undefined).toBe(expected === undefined);
  if (!actual || !expected) return;
  expect(actual.finite).toBe(expected.finite);
  expect(firstDifference(float32Bits(actual.residual), float32Bits(expected.residual))).toBe(-1);
  expect(firstDifference(float64Bits(actual.sums), float64Bits(expected.sums))).toBe(-1);
  expect(firstDifference(actual.high, expected.high)).toBe(-1);
}

/** Both sweeps of rows [y0, y1), with and without an `out` array, compared. */
function compareSweeps(source: Float32Array | PixelBuffer, width: number, height: number, block: number, y0 = 0, y1 = height): ResidualSweep | undefined {
  const expected = withModulesOff(() => medianResidualSweep(source, width, height, block, y0, y1));
  const actual = webAssembly(() => medianResidualSweep(source, width, height, block, y0, y1));
  expectSameSweep(actual, expected);
  const out = new Float32Array(width * (y1 - y0));
  const intoOut = webAssembly(() => medianResidualSweep(source, width, height, block, y0, y1, out));
  expectSameSweep(intoOut, expected);
  if (intoOut) expect(intoOut.residual).toBe(out);
  return actual;
}

describe.skipIf(MODULES_OFF)('median residual sweep in WebAssembly', () => {
  it('equals the JavaScript sweep on random 8-bit images of awkward sizes, 1 to 4 channels, whole and in bands', () => {
    let seed = 1;
    for (const [width, height] of [[3, 3], [4, 3], [5, 4], [7, 9], [17, 13], [33, 31], [130, 67]] as const) {
      for (const channels of [1, 2, 3, 4]) {
        const image = randomImage(width, height, channels, seed++);
        for (const block of [2, 3, 16]) {
          compareSweeps(image, width, height, block);
          // A band in the middle and the last band (y0 a multiple of the block, as the callers split).
          if (height > 2 * block) {
            compareSweeps(image, width, height, block, block, 2 * block);
            compareSweeps(image, width, height, block, 2 * block, height);
          }
        }
      }
    }
  });

  it('equals it across chunks of rows: blocks that straddle chunks, and rows wider than a chunk', () => {
    // 5000 wide: 52 rows per chunk, so blocks of 16 and 3 straddle chunk boundaries.
    compareSweeps(randomImage(5000, 131, 3, 21), 5000, 131, 16);
    compareSweeps(randomImage(5000, 131, 1, 22), 5000, 131, 3, 3, 129);
    // Wider than a chunk: one row per call.
    compareSweeps(randomImage(270_001, 5, 4, 23), 270_001, 5, 2);
  });

  it('equals it on constant and saturated images', () => {
    for (const value of [0, 1, 128, 255]) {
      for (const channels of [1, 3]) {
        const image = { data: new Uint8Array(23 * 11 * channels).fill(value), width: 23, height: 11, channels };
        const sweep = compareSweeps(image, 23, 11, 4);
        expect(sweep!.high[0]).toBe(23 * 11);
      }
    }
    // Saturated: black and white pixels only.
    const random = rng(5);
    const data = Uint8Array.from({ length: 29 * 19 * 3 }, () => (random() < 0.5 ? 0 : 255));
    compareSweeps({ data, width: 29, height: 19, channels: 3 }, 29, 19, 5);
  });

  it('equals it on luma planes, including planes with negative, -0, NaN and infinite samples', () => {
    for (const [width, height] of [[3, 3], [9, 7], [61, 45]] as const) {
      const image = randomImage(width, height, 3, width);
      const plane = studioLuma(image, false);
      expect(compareSweeps(plane, width, height, 4)).toBeDefined();
      const random = rng(height);
      const wide = Float32Array.from({ length: width * height }, () => random() * 1e6);
      expect(compareSweeps(wide, width, height, 3)).toBeDefined();
      for (const special of [-1, -0, Number.NaN, Number.POSITIVE_INFINITY]) {
        const spoiled = Float32Array.from(plane);
        spoiled[Math.floor(spoiled.length / 2)] = special;
        const sweep = compareSweeps(spoiled, width, height, 4);
        expect(sweep === undefined).toBe(special === -1 || Object.is(special, -0));
        if (sweep) expect(sweep.finite).toBe(false);
        // A band that does not read the spoiled sample is unaffected.
        if (height >= 9) compareSweeps(spoiled, width, height, 2, 0, 2);
      }
    }
  });

  it('equals it on a plane whose samples leave [16, 256) in one chunk (sums in pixel order from there on)', () => {
    // 1000 wide: 262 rows per chunk (0-261, 262-523, 524-599). Rows 480-522 hold tiny samples, whose residuals are not
    // multiples of 2^-19: the second chunk adds in pixel order, and the third (in range again) continues from its sums
    // in pixel order too, since the block rows it finishes began with such residuals.
    const image = randomImage(1000, 600, 3, 31);
    const plane = studioLuma(image, false);
    const random = rng(32);
    for (let i = 480 * 1000; i < 523 * 1000; i++) plane[i] = random() * 1e-14;
    for (const block of [16, 7]) {
      expect(compareSweeps(plane, 1000, 600, block)).toBeDefined();
      compareSweeps(plane, 1000, 600, block, 2 * block * 5, 600);
    }
  });

  it('computes the luma of every 8-bit colour and grey level as lumaBytes does', () => {
    const module = wasmModule('medianResidual')!;
    const luma = module.function<(src: number, channels: number, count: number, dst: number) => void>('luma');
    const base = module.heapBase();
    const n = 1 << 16;
    module.reserve(base + 4 * n + 4 * n + 64);
    const pixels = new Uint8Array(module.memory.buffer, base, 4 * n + 16), result = new Float32Array(module.memory.buffer, base + 4 * n + 16, n);
    const expected = new Float32Array(n);
    let mismatches = 0;
    for (const channels of [3, 4]) {
      for (let r = 0; r < 256; r++) {
        // The 2^16 colours with red r.
        for (let i = 0, p = 0; i < n; i++, p += channels) { pixels[p] = r; pixels[p + 1] = i >> 8; pixels[p + 2] = i & 255; if (channels === 4) pixels[p + 3] = i; }
        luma(base, channels, n, base + 4 * n + 16);
        lumaBytes(pixels, channels, expected, 0, 0, n);
        for (let i = 0; i < n; i++) if (!Object.is(result[i], expected[i])) mismatches++;
      }
    }
    for (const channels of [1, 2]) {
      for (let i = 0; i < 256 * channels; i++) pixels[i] = channels === 1 ? i : i >> 1;
      luma(base, channels, 256, base + 4 * n + 16);
      lumaBytes(pixels, channels, expected, 0, 0, 256);
      for (let i = 0; i < 256; i++) if (!Object.is(result[i], expected[i])) mismatches++;
    }
    expect(mismatches).toBe(0);
  }, 60_000);

  it('collects candidates that give the same largest values as a scan of the whole map', () => {
    // 1200 x 700: four chunks of rows, so the threshold rises from chunk to chunk; few levels give many ties.
    for (const [width, height, levels] of [[1200, 700, 256], [1200, 700, 7], [61, 45, 256]] as const) {
      const image = randomImage(width, height, 3, width + levels, levels);
      const n = width * height;
      for (const keep of [1, 17, Math.round(0.005 * n), Math.round(0.3 * n), n, n + 5]) {
        for (const [y0, y1] of [[0, height], [16, height - (height % 16)]] as const) {
          const sweep = webAssembly(() => medianResidualSweep(image, width, height, 16, y0, y1, undefined, keep))!;
          // The keep largest by two passes over the whole map, and the histogram of the JavaScript sweep.
          const expected = float32Largest(sweep.residual, keep)!;
          const full = withModulesOff(() => medianResidualSweep(image, width, height, 16, y0, y1))!.high;
          expect(firstDifference(sweep.high.subarray(sweep.highFrom), full.subarray(sweep.highFrom))).toBe(-1);
          expect(sweep.candidates).toBeDefined();
          expect(sweep.candidates!.length).toBeLessThanOrEqual(sweep.residual.length);
          // The same multiset (the order may differ: only a selection reads it).
          const actual = float32LargestNonNegative(sweep.candidates!, sweep.high, keep).sort();
          expect(firstDifference(float32Bits(actual), float32Bits(expected.sort()))).toBe(-1);
        }
      }
    }
    // At the display quantile of a large image, far fewer candidates than values: from the sampled rows' threshold on,
    // about twice the largest values kept (4200), where a threshold rising from 0 collects about 4200 (1 + ln 200).
    const big = randomImage(1200, 700, 3, 9);
    const sweep = webAssembly(() => medianResidualSweep(big, 1200, 700, 16, 0, 700, undefined, 4200))!;
    expect(sweep.candidates!.length).toBeLessThan(3 * 4200);
    expect(sweep.highFrom).toBeGreaterThan(0);
  });

  it('counts the whole residual when the sampled rows overstate the band\'s largest values', () => {
    // Grey 100 but for noise on the rows the threshold's sample reads (every SAMPLE_STEP-th, from SAMPLE_STEP / 2):
    // only those rows have residuals (a window holds at most three noisy samples), so the sample's share of the
    // largest starts the threshold above the band's 3200th largest value.
    const width = 200, height = 20 * SAMPLE_STEP, keep = 3200;
    const random = rng(41);
    const data = new Uint8Array(width * height).fill(100);
    for (let y = SAMPLE_STEP >> 1; y < height; y += SAMPLE_STEP) for (let x = 0; x < width; x++) data[y * width + x] = Math.floor(random() * 256);
    const image = { data, width, height, channels: 1 };
    const sweep = webAssembly(() => medianResidualSweep(image, width, height, 16, 0, height, undefined, keep))!;
    const reference = withModulesOff(() => medianResidualSweep(image, width, height, 16, 0, height))!;
    expect(sweep.candidates).toBeUndefined();
    expect(sweep.highFrom).toBe(0);
    expectSameSweep(sweep, reference);
    const largest = float32LargestNonNegative(sweep.residual, sweep.high, keep);
    expect(firstDifference(float32Bits(largest.sort()), float32Bits(float32Largest(reference.residual, keep)!.sort()))).toBe(-1);
    // The whole map the same as on the JavaScript path (display range from the largest values included).
    const expected = withModulesOff(() => medianResidualMap(image));
    const actual = webAssembly(() => medianResidualMap(image));
    expect(actual.stats).toEqual(expected.stats);
    expect(actual.maps.map((m) => m.displayRange)).toEqual(expected.maps.map((m) => m.displayRange));
    expect(firstDifference(float32Bits(actual.maps[0]!.data), float32Bits(expected.maps[0]!.data))).toBe(-1);
  });

  it('gives medianResidualMap the same result on a camera photo', async () => {
    const dir = datasetDir('images/exif-samples/jpg');
    if (!dir) return;
    const image = await decodeImage(readFileSync(join(dir, 'Canon_40D.jpg')));
    const expected = withModulesOff(() => medianResidualMap(image));
    const actual = webAssembly(() => medianResidualMap(image));
    expect(actual.score).toBe(expected.score);
    expect(actual.stats).toEqual(expected.stats);
    for (let i = 0; i < expected.maps.length; i++) {
      expect(actual.maps[i]!.displayRange).toEqual(expected.maps[i]!.displayRange);
      expect(firstDifference(float32Bits(actual.maps[i]!.data), float32Bits(expected.maps[i]!.data))).toBe(-1);
    }
  });
});
