import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { conventionVotes } from '../src/index.js';
import { wasmModule } from '../src/watermark/wasm.js';
import { imageDataset } from './datasets.js';

// The WebAssembly votes against the JavaScript ones (CONTENT_ANALYSIS_IMAGE_METADATA_WASM=0), byte for byte. Skipped
// when the modules are off for the whole run (CONTENT_ANALYSIS_WASM=0): there is nothing to compare then.
const modulesOn = wasmModule('watermark') !== undefined;
const FLAG = 'CONTENT_ANALYSIS_IMAGE_METADATA_WASM';
const saved = process.env[FLAG];

afterEach(() => {
  if (saved === undefined) delete process.env[FLAG];
  else process.env[FLAG] = saved;
});

type Votes = ReturnType<typeof conventionVotes>;

function bothPaths(pixels: Uint8Array, width: number, height: number, channels: number, scale = 36): { wasm: Votes; js: Votes } {
  process.env[FLAG] = '1';
  expect(wasmModule('watermark'), 'the WebAssembly path runs').toBeDefined();
  const wasm = conventionVotes(pixels, width, height, channels, scale);
  process.env[FLAG] = '0';
  try {
    return { wasm, js: conventionVotes(pixels, width, height, channels, scale) };
  } finally {
    process.env[FLAG] = '1';
  }
}

/**
 * Same votes at each step. A step of a few float64 ulps of the block maxima (3.3e-13) makes each vote hang on their
 * last bits, so a difference of one ulp anywhere in a block's arithmetic flips about half the votes; 36 is the
 * decoder's own step.
 */
function expectSameVotes(pixels: Uint8Array, width: number, height: number, channels: number, label: string, scales = [36, 3.3e-13]): void {
  for (const scale of scales) {
    const { wasm, js } = bothPaths(pixels, width, height, channels, scale);
    for (const convention of Object.keys(js) as (keyof Votes)[]) {
      expect(wasm[convention].length, `${label} ${convention}`).toBe(js[convention].length);
      expect(Buffer.from(wasm[convention]).equals(Buffer.from(js[convention])), `${label} ${convention} scale ${scale}`).toBe(true);
    }
  }
}

function randomPixels(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
  return out;
}

describe.skipIf(!modulesOn)('watermark votes in WebAssembly equal the JavaScript ones', () => {
  it('on random pixels of awkward sizes with 1 to 4 channels', () => {
    const sizes = [[8, 8], [9, 8], [8, 11], [12, 12], [15, 17], [31, 33], [64, 64], [203, 150], [101, 67], [16, 800], [1000, 24]] as const;
    let seed = 1;
    for (const [width, height] of sizes) {
      for (let channels = 1; channels <= 4; channels++) {
        const pixels = randomPixels(width * height * channels, seed++);
        expectSameVotes(pixels, width, height, channels, `${width}x${height}x${channels}`, [36, 7.3, 3.3e-13, 5.1e-12]);
      }
    }
  });

  it('with steps of a few ulps, where the votes are as much 1 as 0', () => {
    const { js } = bothPaths(randomPixels(203 * 150 * 3, 3), 203, 150, 3, 3.3e-13);
    for (const votes of Object.values(js)) {
      const ones = votes.reduce((n, v) => n + v, 0);
      expect(ones / votes.length).toBeGreaterThan(0.3);
      expect(ones / votes.length).toBeLessThan(0.7);
    }
  });

  it('on images smaller than a block (no votes) and buffers shorter than the 1- and 2-channel reads', () => {
    expectSameVotes(randomPixels(7 * 30 * 3, 5), 7, 30, 3, '7x30');
    expectSameVotes(randomPixels(30 * 7 * 4, 6), 30, 7, 4, '30x7');
    // 16x16 with one channel: the last blue read is past the end; both take the JavaScript path.
    expectSameVotes(randomPixels(16 * 16, 7), 16, 16, 1, '16x16x1');
  });

  it('on constant, saturated and two-level images', () => {
    for (const channels of [1, 3, 4]) {
      for (const value of [0, 1, 127, 128, 254, 255]) expectSameVotes(new Uint8Array(40 * 24 * channels).fill(value), 40, 24, channels, `constant ${value} x${channels}`);
      // Pure colours saturate the 8-bit U at 0 and 255.
      for (const rgb of [[255, 0, 0], [0, 0, 255], [0, 255, 0], [255, 255, 0], [0, 255, 255]]) {
        const pixels = new Uint8Array(40 * 24 * channels);
        for (let p = 0; p < 40 * 24; p++) for (let c = 0; c < channels; c++) pixels[p * channels + c] = rgb[c] ?? 255;
        expectSameVotes(pixels, 40, 24, channels, `colour ${rgb} x${channels}`);
      }
      const checker = Uint8Array.from({ length: 48 * 48 * channels }, (_, i) => ((Math.floor(i / channels) % 48) ^ Math.floor(i / channels / 48)) & 1 ? 255 : 0);
      expectSameVotes(checker, 48, 48, channels, `checker x${channels}`);
    }
  });

  it('over many chunks of block rows (a tall image)', () => {
    // 1 MB of input rows per call: 2000 x 1000 RGB takes several calls, with a short last one.
    expectSameVotes(randomPixels(2004 * 1003 * 3, 11), 2004, 1003, 3, '2004x1003x3');
  });

  const wmDir = imageDataset('sd-invisible-watermark');
  it.skipIf(!wmDir)('on the invisible-watermark test vectors', async () => {
    const files = Object.keys(JSON.parse(readFileSync(join(wmDir!, 'expected_decode.json'), 'utf8')) as Record<string, unknown>);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const { data, info } = await sharp(join(wmDir!, file)).raw().toBuffer({ resolveWithObject: true });
      expectSameVotes(data, info.width, info.height, info.channels, file);
    }
  });

  const photos = imageDataset('exif-samples');
  it.skipIf(!photos)('on real photos, RGB and RGBA', async () => {
    const dir = join(photos!, 'jpg');
    const files = readdirSync(dir).filter((f) => /\.jpe?g$/i.test(f)).slice(0, 8);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const bytes = readFileSync(join(dir, file));
      const rgb = await sharp(bytes).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
      const rgba = await sharp(bytes).resize(517, 389).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      expectSameVotes(rgb.data, rgb.info.width, rgb.info.height, 3, file);
      expectSameVotes(rgba.data, 517, 389, 4, `${file} RGBA`);
    }
  }, 60_000);
});
