import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ARTEFACT_FEATURE_NAMES, artefactFeatures } from '../src/aiImage/artefactFeatures.js';
import { prepareArtefactView } from '../src/aiImage/artefactView.js';
import type { LumaView } from '../src/aiImage/artefactView.js';
import { InvalidInputError } from '../src/index.js';

/** Deterministic numbers in [0, 1): a 32-bit LCG (Numerical Recipes constants) in exact integer arithmetic. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

function lumaView(size: number, value: (i: number, j: number) => number): LumaView {
  const y = new Float32Array(size * size);
  for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) y[i * size + j] = value(i, j);
  return { size, y };
}

/** The 63 classes of one histogram block, e.g. block('npr', 'rich'). */
function block(features: Float32Array, prefix: string, group: 'poor' | 'rich'): number[] {
  const start = ARTEFACT_FEATURE_NAMES.indexOf(`${prefix}_${group}_0`);
  return Array.from(features.subarray(start, start + 63));
}

function feature(features: Float32Array, name: string): number {
  const index = ARTEFACT_FEATURE_NAMES.indexOf(name);
  if (index < 0) throw new Error(`no feature ${name}`);
  return features[index]!;
}

/** Probability 1 on class `k`, 0 elsewhere. */
const oneHot = (k: number): number[] => Array.from({ length: 63 }, (_, i) => (i === k ? 1 : 0));

const BLOCKS = ['cooc1', 'cooc2', 'npr'] as const;
const GROUPS = ['poor', 'rich'] as const;

// Class k merges the triple with bin index 62 + k and its negation, bin 62 - k (bin = 25 (d1+2) + 5 (d2+2) + d3+2).
const ALL_ZERO = 0;
const ONES = 93 - 62; // (1, 1, 1) / (-1, -1, -1)
const ONE_ZERO_ONE = 88 - 62; // (1, 0, 1) / (-1, 0, -1)

describe('artefactFeatures', () => {
  it('has one name per column, 406 in all, each distinct', () => {
    const features = artefactFeatures(lumaView(256, (i, j) => (i * 7 + j * 13) % 50));
    expect(features.length).toBe(406);
    expect(ARTEFACT_FEATURE_NAMES.length).toBe(406);
    expect(new Set(ARTEFACT_FEATURE_NAMES).size).toBe(406);
    expect(ARTEFACT_FEATURE_NAMES.slice(0, 2)).toEqual(['cooc1_poor_0', 'cooc1_poor_1']);
    expect(ARTEFACT_FEATURE_NAMES.slice(-3)).toEqual(['richness_poor', 'richness_rich', 'zero_fraction_r1']);
  });

  it('puts all the mass of a constant image on the all-zero class, with no richness and a floor spectrum', () => {
    const features = artefactFeatures(lumaView(256, () => 117));
    for (const prefix of BLOCKS) for (const group of GROUPS) expect(block(features, prefix, group)).toEqual(oneHot(ALL_ZERO));
    expect(feature(features, 'richness_poor')).toBeCloseTo(Math.log(1e-3), 5);
    expect(feature(features, 'richness_rich')).toBeCloseTo(Math.log(1e-3), 5);
    expect(feature(features, 'zero_fraction_r1')).toBe(1);
    expect(feature(features, 'spec_band_0')).toBeCloseTo(-6, 5);
    expect(feature(features, 'spec_peak_32_32')).toBe(0);
  });

  it('counts a horizontal ramp as (1,1,1) horizontally and (0,0,0) vertically, in exact proportions', () => {
    const n = 256;
    const features = artefactFeatures(lumaView(n, (_, j) => j));
    // r2 is zero everywhere, so all 16 tiles tie and the index decides: tile rows 0-1 (i < 128) are poor, 2-3 rich.
    // Horizontal triples have their middle at columns 1..n-3 of every row; vertical ones at rows 1..n-3.
    const horizontal = 128 * (n - 3);
    const verticalPoor = 127 * n; // middle rows 1..127
    const verticalRich = 126 * n; // middle rows 128..253
    const poor = block(features, 'cooc1', 'poor');
    const rich = block(features, 'cooc1', 'rich');
    expect(poor[ONES]).toBeCloseTo(horizontal / (horizontal + verticalPoor), 6);
    expect(poor[ALL_ZERO]).toBeCloseTo(verticalPoor / (horizontal + verticalPoor), 6);
    expect(rich[ONES]).toBeCloseTo(horizontal / (horizontal + verticalRich), 6);
    expect(rich[ALL_ZERO]).toBeCloseTo(verticalRich / (horizontal + verticalRich), 6);
    expect(poor.reduce((a, v) => a + v, 0)).toBeCloseTo(1, 6);
    expect(rich.reduce((a, v) => a + v, 0)).toBeCloseTo(1, 6);
    for (const group of GROUPS) {
      expect(block(features, 'cooc2', group)).toEqual(oneHot(ALL_ZERO));
      // a = 1, b = 0, c = 1 in every 2 x 2 block
      expect(block(features, 'npr', group)).toEqual(oneHot(ONE_ZERO_ONE));
    }
    // r1h is never zero, r1v always: n(n-1) zeros of 2n(n-1).
    expect(feature(features, 'zero_fraction_r1')).toBe(0.5);
  });

  it('sees nearest-neighbour 2x up-sampling as NPR triples that are all zero', () => {
    const next = random(42);
    const noise = new Float32Array(128 * 128).map(() => Math.round(next() * 255));
    const upsampled = artefactFeatures(lumaView(256, (i, j) => noise[(i >> 1) * 128 + (j >> 1)]!));
    const next2 = random(43);
    const raw = artefactFeatures(lumaView(256, () => Math.round(next2() * 255)));
    for (const group of GROUPS) {
      expect(block(upsampled, 'npr', group)[ALL_ZERO]).toBe(1);
      expect(block(raw, 'npr', group)[ALL_ZERO]).toBeLessThan(0.01);
    }
  });

  it('finds the half-sampling peak of a period-2 checkerboard at (32, 32)', () => {
    const checkerboard = artefactFeatures(lumaView(256, (i, j) => 128 + 100 * (-1) ** (i + j)));
    const next = random(7);
    const noise = artefactFeatures(lumaView(256, () => next() * 255));
    // A pure tone under a periodic Hann window leaks 1/4 of its amplitude into the 4 edge neighbours and 1/16 into the
    // 4 corner ones: log10 16 - (log10 64 + log10 256) / 2 = 1.5 log10 4.
    expect(feature(checkerboard, 'spec_peak_32_32')).toBeCloseTo(1.5 * Math.log10(4), 2);
    expect(Math.abs(feature(noise, 'spec_peak_32_32'))).toBeLessThan(0.3);
    // The tone leaves the other periodic frequencies alone (their neighbourhoods hold no power at all).
    expect(feature(checkerboard, 'spec_peak_16_16')).toBe(0);
  });

  it('gives the same features for the negated image (rounding is symmetric, ties included)', () => {
    const next = random(3);
    // Integer luma in a narrow range: many r2 residuals of exactly +-1, which quantise (q = 2) on a rounding tie.
    const view = lumaView(256, () => 100 + Math.floor(next() * 4));
    const negated = { size: view.size, y: view.y.map((v) => 255 - v) };
    expect(Array.from(artefactFeatures(negated))).toEqual(Array.from(artefactFeatures(view)));
  });

  it('rejects a side that is not a multiple of 64, or a plane of the wrong length', () => {
    expect(() => artefactFeatures({ size: 100, y: new Float32Array(100 * 100) })).toThrow(RangeError);
    expect(() => artefactFeatures({ size: 256, y: new Float32Array(100) })).toThrow(RangeError);
  });
});

describe('prepareArtefactView', () => {
  async function png(width: number, height: number): Promise<Buffer> {
    const next = random(width * 31 + height);
    const rgb = Buffer.alloc(width * height * 3);
    for (let i = 0; i < rgb.length; i++) rgb[i] = Math.min(255, ((Math.floor(i / 3) % width) * 200) / width + next() * 40);
    return sharp(rgb, { raw: { width, height, channels: 3 } }).png().toBuffer();
  }

  it('cuts the centre 512 px of a large image at its own resolution, through the JPEG q90 round trip', async () => {
    const image = await png(1000, 700);
    const view = await prepareArtefactView(image);
    expect(view.size).toBe(512);
    expect(view.y.length).toBe(512 * 512);
    const centre = await sharp(image).extract({ left: 244, top: 94, width: 512, height: 512 }).jpeg({ quality: 90, chromaSubsampling: '4:2:0' }).toBuffer();
    const rgb = await sharp(centre).raw().toBuffer();
    const expected = Float32Array.from({ length: 512 * 512 }, (_, i) => 0.299 * rgb[3 * i]! + 0.587 * rgb[3 * i + 1]! + 0.114 * rgb[3 * i + 2]!);
    expect(view.y).toEqual(expected);
  });

  it('applies the EXIF orientation before cutting: the same pixels as the upright picture stored without it', async () => {
    const upright = await png(700, 1000);
    const raw = await sharp(upright).raw().toBuffer({ resolveWithObject: true });
    // Stored lying on its side with orientation 6 (turn 90 degrees clockwise to display).
    const lying = await sharp(raw.data, { raw: raw.info }).rotate(-90).jpeg({ quality: 95 }).withMetadata({ orientation: 6 }).toBuffer();
    const displayed = await sharp(lying).rotate().png().toBuffer();
    expect((await sharp(displayed).metadata()).width).toBe(700);
    expect((await prepareArtefactView(lying)).y).toEqual((await prepareArtefactView(displayed)).y);
  });

  it('can still reduce first (the view compared against when version 6 was built)', async () => {
    const view = await prepareArtefactView(await png(1600, 1200), { maxSide: 512, crop: 512, jpegQuality: 90 });
    expect(view.size).toBe(512);
  });

  it('cuts 256 px from smaller images, enlarging those below 256', async () => {
    expect((await prepareArtefactView(await png(300, 300))).size).toBe(256);
    const enlarged = await prepareArtefactView(await png(200, 120));
    expect(enlarged.size).toBe(256);
    expect(enlarged.y.length).toBe(256 * 256);
  });

  it('rejects bytes that are not an image with InvalidInputError on image', async () => {
    const rejection = prepareArtefactView(Buffer.from('GIF89a but not really an image'));
    await expect(rejection).rejects.toBeInstanceOf(InvalidInputError);
    await expect(rejection).rejects.toMatchObject({ code: 'BAD_REQUEST', field: 'image' });
  });
});
