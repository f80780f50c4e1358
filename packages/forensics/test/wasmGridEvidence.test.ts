import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeImage, jpegLuma } from '../src/index.js';
import { gridEvidence, gridEvidenceOfPixels, gridEvidenceOfPixelsJs, wasmEvidenceCalls } from '../src/jpeg/jpegGrid.js';
import type { PixelBuffer } from '../src/types.js';
import { datasetDir } from './datasets.js';
import { firstDifference, float32Bits, MODULES_OFF, onWebAssembly, randomImage, restoreModulesAfterEach, withModulesOff } from './wasmPaths.js';

// jpeg-grid's blocking evidence in WebAssembly (assembly/gridEvidence.ts) and in JavaScript without the luma plane
// must equal gridEvidence of the luma plane bit for bit: every evidence cell a float32 sum in the same order.

restoreModulesAfterEach();

function expectSame(actual: ReturnType<typeof gridEvidence>, expected: ReturnType<typeof gridEvidence>): void {
  expect([actual.cellsX, actual.cellsY]).toEqual([expected.cellsX, expected.cellsY]);
  expect(firstDifference(float32Bits(actual.columns), float32Bits(expected.columns))).toBe(-1);
  expect(firstDifference(float32Bits(actual.rows), float32Bits(expected.rows))).toBe(-1);
}

function compare(image: PixelBuffer): void {
  const expected = gridEvidence(jpegLuma(image), image.width, image.height);
  expectSame(withModulesOff(() => gridEvidenceOfPixels(image)), expected);
  expectSame(gridEvidenceOfPixelsJs(image), expected);
  const large = image.width * image.height >= 65_536;
  expectSame(onWebAssembly('gridEvidence', () => wasmEvidenceCalls, () => gridEvidenceOfPixels(image), large), expected);
}

describe.skipIf(MODULES_OFF)('jpeg-grid evidence in WebAssembly', () => {
  it('equals the evidence of the luma plane on 1 to 4 channels, widths not a multiple of 8 or 4, chunk edges and thin images', () => {
    const sizes: Array<[number, number]> = [[1001, 777], [257, 259], [4, 16_400], [16_400, 4], [640, 129], [643, 130], [300, 3], [3, 300]];
    let seed = 1;
    for (const [width, height] of sizes) for (const channels of [1, 2, 3, 4]) compare(randomImage(width, height, channels, seed++, seed % 3 === 0 ? 8 : 256));
  });

  const photo = datasetDir('images/c2pa-public-testfiles');
  it.skipIf(!photo)('equals it on a 12 MP camera photo', async () => {
    compare(await decodeImage(readFileSync(join(photo!, 'truepic-20230212-camera.jpg'))));
  }, 60_000);
});
