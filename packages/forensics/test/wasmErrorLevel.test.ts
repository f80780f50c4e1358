import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeImage, errorLevelAnalysis, recompressJpeg } from '../src/index.js';
import { errorLevelBand, errorLevelOptions, wasmErrorLevelCalls, type ErrorLevelAnalysisOptions, type ErrorLevelBand } from '../src/kernels/errorLevelAnalysis.js';
import type { KernelResult, PixelBuffer } from '../src/types.js';
import { datasetDir } from './datasets.js';
import { rng } from './synthetic.js';
import { firstDifference, float32Bits, MODULES_OFF, onWebAssembly, randomImage, restoreModulesAfterEach, withModulesOff } from './wasmPaths.js';

// ELA's 8-bit path in WebAssembly must return the JavaScript path's values bit for bit: the map, the histogram of the
// channel sums and the block sums of every band, and so the whole result, on awkward sizes and every channel count.

restoreModulesAfterEach();

/** `run()` on the WebAssembly path, checking that the module ran. */
const webAssembly = <T>(run: () => T): T => onWebAssembly('errorLevel', () => wasmErrorLevelCalls, run);

function expectSameBand(actual: ErrorLevelBand, expected: ErrorLevelBand): void {
  expect(firstDifference(float32Bits(actual.map), float32Bits(expected.map))).toBe(-1);
  expect(actual.count).toBeDefined();
  expect(firstDifference(actual.count!, expected.count!)).toBe(-1);
  expect(firstDifference(actual.sums!, expected.sums!)).toBe(-1);
}

function expectSameResult(actual: KernelResult, expected: KernelResult): void {
  expect(actual.score).toBe(expected.score);
  expect(actual.stats).toEqual(expected.stats);
  for (let i = 0; i < expected.maps.length; i++) {
    expect(actual.maps[i]!.displayRange).toEqual(expected.maps[i]!.displayRange);
    expect(firstDifference(float32Bits(actual.maps[i]!.data), float32Bits(expected.maps[i]!.data))).toBe(-1);
  }
}

/** Bands [start, end) of block rows in both paths, with and without an `out` array, and the whole analysis. */
function compare(a: PixelBuffer, b: PixelBuffer, options: ErrorLevelAnalysisOptions = {}): void {
  const o = errorLevelOptions(a, b, options);
  const blockRows = Math.ceil(a.height / o.blockSize);
  const bands: Array<[number, number]> = [[0, blockRows]];
  if (blockRows >= 3) bands.push([1, 2], [2, blockRows]);
  for (const [start, end] of bands) {
    const expected = withModulesOff(() => errorLevelBand(a, b, o, start, end));
    expectSameBand(webAssembly(() => errorLevelBand(a, b, o, start, end)), expected);
    const out = new Float32Array(expected.map.length);
    const intoOut = webAssembly(() => errorLevelBand(a, b, o, start, end, out));
    expect(intoOut.map).toBe(out);
    expectSameBand(intoOut, expected);
  }
  expectSameResult(webAssembly(() => errorLevelAnalysis(a, b, options)), withModulesOff(() => errorLevelAnalysis(a, b, options)));
}

/**
 * `image` plus small errors (-spread..spread, clamped), like a JPEG round trip: runs of small sums (counted by the
 * module in quadruples when all of 16 are below 8, in pairs when below 32).
 */
function nearby(image: PixelBuffer, seed: number, spread = 2): PixelBuffer {
  const random = rng(seed);
  const data = image.data.map((v) => Math.max(0, Math.min(255, v + Math.floor(random() * (2 * spread + 1)) - spread)));
  return { ...image, data };
}

describe.skipIf(MODULES_OFF)('ELA 8-bit path in WebAssembly', () => {
  it('equals the JavaScript path on random images of awkward sizes, 1 to 4 channels, whole and in bands', () => {
    let seed = 1;
    for (const [width, height] of [[1, 1], [3, 2], [15, 4], [16, 16], [17, 13], [33, 31], [130, 67]] as const) {
      for (const channels of [1, 2, 3, 4]) {
        const a = randomImage(width, height, channels, seed++);
        const far = randomImage(width, height, channels, seed++), near = nearby(a, seed++);
        for (const blockSize of [1, 3, 16]) {
          compare(a, far, { blockSize });
          compare(a, near, { blockSize });
          compare(a, nearby(a, seed, 5), { blockSize });
        }
      }
    }
  });

  it('equals it for other scales whose levels are exact, including 0', () => {
    const a = randomImage(45, 37, 3, 7), b = nearby(a, 8);
    for (const scale of [0, 3, 1.5, 300, 3e5]) compare(a, b, { scale, blockSize: 8 });
    const grey = randomImage(45, 37, 1, 9);
    for (const scale of [0.25, 7]) compare(grey, nearby(grey, 10), { scale, blockSize: 5 });
  });

  it('equals it across chunks of rows: blocks that straddle chunks, rows wider than a chunk, unaligned buffers', () => {
    // 5000 wide: 6 rows per chunk, so blocks of 16 span three chunks.
    const a = randomImage(5000, 41, 3, 11);
    compare(a, nearby(a, 12), { blockSize: 16 });
    // Wider than a chunk: one row per call.
    const wide = randomImage(40_001, 3, 4, 13);
    compare(wide, nearby(wide, 14), { blockSize: 2 });
    // Pixels at odd byte offsets of their buffers.
    const bytes = new Uint8Array(1 + 29 * 23 * 3), other = new Uint8Array(3 + 29 * 23 * 3);
    const random = rng(15);
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
    for (let i = 0; i < other.length; i++) other[i] = Math.floor(random() * 256);
    compare({ data: bytes.subarray(1), width: 29, height: 23, channels: 3 }, { data: other.subarray(3), width: 29, height: 23, channels: 3 }, { blockSize: 4 });
  });

  it('equals it on constant and saturated images', () => {
    for (const [va, vb] of [[0, 0], [255, 255], [0, 255], [255, 0], [128, 7]] as const) {
      for (const channels of [1, 3, 4]) {
        const a = { data: new Uint8Array(37 * 19 * channels).fill(va), width: 37, height: 19, channels };
        const b = { data: new Uint8Array(37 * 19 * channels).fill(vb), width: 37, height: 19, channels };
        compare(a, b, { blockSize: 6 });
      }
    }
    const random = rng(5);
    const saturated = (): Uint8Array => Uint8Array.from({ length: 41 * 18 * 3 }, () => (random() < 0.5 ? 0 : 255));
    compare({ data: saturated(), width: 41, height: 18, channels: 3 }, { data: saturated(), width: 41, height: 18, channels: 3 });
  });

  it('gives errorLevelAnalysis the same result on a camera photo and its JPEG round trip', async () => {
    const dir = datasetDir('images/exif-samples/jpg');
    if (!dir) return;
    const image = await decodeImage(readFileSync(join(dir, 'Canon_40D.jpg')));
    const recompressed = await recompressJpeg(image);
    compare(image, recompressed);
  });
});
