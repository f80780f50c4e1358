import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeImage, medianResidualMap } from '../src/index.js';
import { studioLuma } from '../src/internal/luma.js';
import type { PixelBuffer } from '../src/types.js';
import { datasetDir } from './datasets.js';
import { float32Bits, firstDifference, MODULES_OFF, randomImage, restoreModulesAfterEach, withModulesOff, withModulesOn } from './wasmPaths.js';

// medianResidualMap against the plain computation: each pixel's 3x3 window (borders replicated) copied, sorted and its
// fifth value taken, the residual |luma - median| as float32, block means added in pixel order, and the display range
// from the whole sorted residual. Both paths (JavaScript and WebAssembly), bit for bit, borders included.

restoreModulesAfterEach();

/** The plain median residual map, block means (block 16) and display quantile of `image`'s studio luma. */
function plainMedianResidual(image: PixelBuffer): { residual: Float32Array; blocks: Float32Array; display: number } {
  const { width, height } = image;
  const luma = studioLuma(image, false);
  const residual = new Float32Array(width * height);
  const window = new Float64Array(9);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
    let k = 0;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      const v = Math.min(height - 1, Math.max(0, y + dy)), u = Math.min(width - 1, Math.max(0, x + dx));
      window[k++] = luma[v * width + u]!;
    }
    window.sort();
    residual[y * width + x] = Math.abs(luma[y * width + x]! - window[4]!);
  }
  const block = 16, bw = Math.ceil(width / block), bh = Math.ceil(height / block);
  const blocks = new Float32Array(bw * bh);
  for (let by = 0; by < bh; by++) for (let bx = 0; bx < bw; bx++) {
    let sum = 0, count = 0;
    for (let y = by * block; y < Math.min(height, (by + 1) * block); y++) for (let x = bx * block; x < Math.min(width, (bx + 1) * block); x++, count++) sum += residual[y * width + x]!;
    blocks[by * bw + bx] = sum / count;
  }
  const sorted = Float64Array.from(residual).sort();
  return { residual, blocks, display: Math.max(1e-6, sorted[Math.round(0.995 * (sorted.length - 1))]!) };
}

function expectPlain(image: PixelBuffer): void {
  const expected = plainMedianResidual(image);
  const paths = [() => withModulesOff(() => medianResidualMap(image))];
  if (!MODULES_OFF) paths.push(() => withModulesOn('medianResidual', () => medianResidualMap(image)));
  for (const path of paths) {
    const result = path();
    expect(firstDifference(float32Bits(result.maps[0]!.data), float32Bits(expected.residual))).toBe(-1);
    expect(firstDifference(float32Bits(result.maps[1]!.data), float32Bits(expected.blocks))).toBe(-1);
    expect(result.maps[0]!.displayRange[1]).toBe(expected.display);
  }
}

describe('medianResidualMap against the plain 3x3 median', () => {
  it('equals it on random 8-bit images of awkward sizes, 1, 3 and 4 channels, few and many levels', () => {
    let seed = 100;
    for (const [width, height] of [[3, 3], [4, 3], [5, 4], [7, 9], [17, 13], [130, 67]] as const) {
      for (const channels of [1, 3, 4]) for (const levels of [3, 256]) expectPlain(randomImage(width, height, channels, seed++, levels));
    }
    // Large enough for the WebAssembly sweep to start its display-quantile threshold from a sample of rows.
    expectPlain(randomImage(640, 480, 3, seed++));
  });

  it('equals it on a crop of a camera photo', async () => {
    const dir = datasetDir('images/c2pa-public-testfiles');
    if (!dir) return;
    const photo = await decodeImage(readFileSync(join(dir, 'nikon-20221019-building.jpeg')));
    const width = 701, height = 503, x0 = 1500, y0 = 1100, c = photo.channels;
    const data = new Uint8Array(width * height * c);
    for (let y = 0; y < height; y++) data.set(photo.data.subarray(((y0 + y) * photo.width + x0) * c, ((y0 + y) * photo.width + x0 + width) * c), y * width * c);
    expectPlain({ data, width, height, channels: c });
  });
});
