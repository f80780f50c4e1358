import { describe, expect, it } from 'vitest';
import {
  alignedDoubleQuantisation, analyzeImage, blockArtefactGridMap, decodeImage, jpegGhostMap, localisationScores,
  nonAlignedDoubleQuantisation,
} from '../src/index.js';
import type { ForensicMap } from '../src/index.js';
import { jpegLuma, jpegLumaBlocks } from '../src/jpeg/blockDct.js';
import { gridEvidence } from '../src/jpeg/jpegGrid.js';
import { composite, decodeRgb, H, jpeg, rectMask, shifted, texturedImage, W } from './jpegForgeries.js';

const mask = rectMask();
const auc = (map: ForensicMap) => localisationScores(map, mask, W, H).auc;
const base = texturedImage();

describe('JPEG-domain kernels on synthetic forgeries (a textured image, an 8-aligned 128x128 region)', () => {
  it('dq-aligned: a region compressed once at 90 inside a background compressed at 60 then 90', async () => {
    const background = await decodeRgb(await jpeg(base, 60));
    const bytes = await jpeg(composite(background, base), 90);
    // From the file's own coefficients and table, and from the decoded pixels (steps estimated).
    const [fromFile] = (await analyzeImage(bytes, { kernels: ['dq-aligned'] })).kernels;
    if (fromFile?.state !== 'completed') throw new Error('dq-aligned failed');
    expect(fromFile.result.stats.fromFile).toBe(1);
    expect(auc(fromFile.result.maps[0]!)).toBeGreaterThan(0.98);
    const fromPixels = alignedDoubleQuantisation(await decodeImage(bytes));
    expect(fromPixels.stats.fromFile).toBe(0);
    expect(fromPixels.stats.frequenciesUsed).toBeGreaterThanOrEqual(8);
    expect(auc(fromPixels.maps[0]!)).toBeGreaterThan(0.98);
  });

  it('jpeg-ghost: a region once saved at quality 60 shows its ghost at 60', async () => {
    const region = await decodeRgb(await jpeg(base, 60));
    const result = jpegGhostMap(await decodeImage(await jpeg(composite(base, region), 90)));
    expect(result.stats.strongestGhostQuality).toBe(60);
    expect(auc(result.maps[0]!)).toBeGreaterThan(0.98);
  });

  it('jpeg-grid: a region whose JPEG grid is shifted by (3, 5) pixels', async () => {
    const compressed = await decodeRgb(await jpeg(base, 70));
    const result = blockArtefactGridMap(await decodeImage(await jpeg(composite(compressed, shifted(compressed, 3, 5)), 95)));
    expect(result.stats).toMatchObject({ offsetX: 0, offsetY: 0 });
    expect(auc(result.maps[0]!)).toBeGreaterThan(0.95);
  });

  it('dq-nonaligned: finds the first grid of a JPEG cropped by (3, 5) and recompressed, and a region without it', async () => {
    const first = await decodeRgb(await jpeg(base, 60));
    // Cropping by (3, 5) moves the first grid to (5, 3); the region comes from the never-compressed image.
    const image = await decodeImage(await jpeg(composite(shifted(first, 3, 5), shifted(base, 3, 5)), 90));
    const result = nonAlignedDoubleQuantisation(image);
    expect(result.stats).toMatchObject({ found: 1, shiftX: 5, shiftY: 3, lastOffsetX: 0, lastOffsetY: 0 });
    expect(auc(result.maps[0]!)).toBeGreaterThan(0.9);
  });

  it('dq-nonaligned reports no first grid on a singly compressed JPEG', async () => {
    const result = nonAlignedDoubleQuantisation(await decodeImage(await jpeg(base, 90)));
    expect(result.stats.found).toBe(0);
    expect(result.score).toBe(0);
  });

  it('rejects bad options with the package message', async () => {
    const image = await decodeImage(await jpeg(base, 90));
    expect(() => alignedDoubleQuantisation(image, { frequencies: 0 })).toThrow('Expected integer between 1 and 63 for frequencies but received 0 of type number');
    expect(() => jpegGhostMap(image, { minQuality: 90, maxQuality: 80 })).toThrow(RangeError);
    expect(() => blockArtefactGridMap(image, { radius: -1 })).toThrow(RangeError);
  });

  it('jpegLumaBlocks gives the full plane\'s values of the listed blocks; gridEvidence sums each capped step excess per phase', () => {
    const image = { data: base, width: W, height: H, channels: 3 };
    const luma = jpegLuma(image);
    const blocksX = Math.floor((W - 4) / 8);
    const blocks = jpegLumaBlocks(image, 4, 4, blocksX, Int32Array.from([0, 5, blocksX + 3]));
    const [bx, by] = [3, 1];
    for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) expect(blocks[128 + y * 8 + x]).toBe(luma[(4 + by * 8 + y) * W + 4 + bx * 8 + x]);
    // Straightforward sums over every boundary, each step computed where it is used.
    const ev = gridEvidence(luma, W, H);
    const cellsX = Math.ceil(W / 8), columns = new Float32Array(ev.columns.length), rows = new Float32Array(ev.rows.length);
    const Y = (x: number, y: number) => luma[y * W + x]!;
    for (let y = 0; y < H; y++) for (let x = 1; x + 2 < W; x++) {
      const e = Math.abs(Y(x + 1, y) - Y(x, y)) - (Math.abs(Y(x, y) - Y(x - 1, y)) + Math.abs(Y(x + 2, y) - Y(x + 1, y))) / 2;
      if (e > 0) columns[((y >> 3) * cellsX + (x >> 3)) * 8 + ((x + 1) & 7)]! += Math.min(e, 6);
    }
    for (let y = 1; y + 2 < H; y++) for (let x = 0; x < W; x++) {
      const e = Math.abs(Y(x, y + 1) - Y(x, y)) - (Math.abs(Y(x, y) - Y(x, y - 1)) + Math.abs(Y(x, y + 2) - Y(x, y + 1))) / 2;
      if (e > 0) rows[((y >> 3) * cellsX + (x >> 3)) * 8 + ((y + 1) & 7)]! += Math.min(e, 6);
    }
    expect(Array.from(ev.columns)).toEqual(Array.from(columns));
    expect(Array.from(ev.rows)).toEqual(Array.from(rows));
  });
});
