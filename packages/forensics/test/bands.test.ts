import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { KERNEL_IDS, greenLatticeParity, kernelRegistry } from '../src/index.js';
import { BAYER_PATTERNS, bayerBlockErrors } from '../src/internal/bayerErrors.js';
import { float32Largest, quantile, selectKth } from '../src/internal/stats.js';
import { studioLuma, studioLumaPlanes } from '../src/internal/luma.js';
import { BAND_MIN_PIXELS } from '../src/registry.js';
import type { KernelInput } from '../src/registry.js';
import { addNoise, rng, smoothField, toUint8 } from './synthetic.js';

// A 2 MP image (the small one tiled, with a distinct patch so rows differ), odd height so the last band is partial.
const small = toUint8(addNoise(smoothField(200, 160, 3, 51), 200, 3, 4, 52), 200, 160, 3);
const w = 1600, h = 1283;
const data = new Uint8Array(w * h * 3);
for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let c = 0; c < 3; c++) data[(y * w + x) * 3 + c] = small.data[((y % 160) * 200 + (x % 200)) * 3 + c]! ^ (y > 900 && x < 300 ? 7 : 0);
const image = { data, width: w, height: h, channels: 3 };
// ELA's second input: the image with every sample moved by a small pseudo-random step (a stand-in for the JPEG round trip).
const recompressed = { ...image, data: Uint8Array.from(data, (v, i) => Math.max(0, Math.min(255, v + ((i * 2654435761) >>> 29) - 4))) };
const banded = KERNEL_IDS.filter((id) => kernelRegistry[id].bands);

/** Deep equality with typed arrays compared byte for byte (vitest's toEqual walks 2 M elements one by one). */
function expectIdentical(actual: unknown, expected: unknown): void {
  expect(isDeepStrictEqual(actual, expected)).toBe(true);
}

describe('kernels split into row bands', () => {
  it('every kernel that reads luma gets the same result from the shared planes as without them', () => {
    const luma = studioLumaPlanes(image)!;
    expectIdentical(luma.luma, studioLuma(image, false));
    expectIdentical(Float32Array.from(luma.rounded), studioLuma(image, true));
    for (const id of KERNEL_IDS.filter((k) => kernelRegistry[k].usesLuma)) {
      expectIdentical(kernelRegistry[id].run({ image, luma }), kernelRegistry[id].run({ image }));
    }
  });

  it('has bands for every pixel-domain kernel', () => {
    expect(banded).toEqual(['ela', 'wavelet-noise', 'median-residual', 'cfa-variance', 'cfa-reinterpolation', 'edge-anomaly', 'spectral']);
    expect(w * h).toBeGreaterThanOrEqual(BAND_MIN_PIXELS);
  });

  for (const id of banded) {
    it(`${id}: 2, 3 and 7 bands merge to exactly the unsplit result, with and without shared luma`, () => {
      const bands = kernelRegistry[id].bands!;
      const whole = kernelRegistry[id].run({ image, recompressed });
      for (const [n, input] of [[2, { image, recompressed }], [3, { image, recompressed, luma: studioLumaPlanes(image) }], [7, { image, recompressed, luma: studioLumaPlanes(image, true) }]] as Array<[number, KernelInput]>) {
        const plan = bands.plan(input, undefined, n)!;
        // Spectral splits into one band per tile (four by default) whatever the thread count; the others into n.
        expect(plan.rows.length).toBe(id === 'spectral' ? 4 : n);
        const parts = plan.rows.map((rows) => bands.runBand(input, plan.shared, rows));
        expectIdentical(bands.merge(input, plan.shared, parts), whole);
      }
    });
  }

  it('ELA on float pixels (generic path) splits into bands with the same result', () => {
    const a = { ...image, data: Float32Array.from(image.data) }, b = { ...recompressed, data: Float32Array.from(recompressed.data) };
    const bands = kernelRegistry.ela.bands!;
    const plan = bands.plan({ image: a, recompressed: b }, { scale: 20 / 3 }, 3)!;
    const parts = plan.rows.map((rows) => bands.runBand({ image: a, recompressed: b }, plan.shared, rows));
    expect(Object.keys(parts[0]!)).toEqual(['map']);
    expectIdentical(bands.merge({ image: a, recompressed: b }, plan.shared, parts), kernelRegistry.ela.run({ image: a, recompressed: b }, { scale: 20 / 3 }));
  });

  it('does not split images under BAND_MIN_PIXELS', () => {
    for (const id of banded) expect(kernelRegistry[id].bands!.plan({ image: small, recompressed: small }, undefined, 2)).toBeUndefined();
  });
});

describe('greenLatticeParity on a subsample of block rows', () => {
  it('measures only the sampled rows and picks the layout of the strided whole-image errors', () => {
    for (const [img, sampled] of [[image, 2e5], [image, 5e5], [small, 8e3], [{ ...image, data: Float32Array.from(image.data) }, 3e5]] as const) {
      const stride = Math.max(1, Math.floor((img.width * img.height) / sampled));
      expect(stride).toBeGreaterThan(1);
      expect(greenLatticeParity(img, 16, 5, sampled)).toBe(BAYER_PATTERNS[bayerBlockErrors(img, 16, 5, stride).best]!.greenParity);
    }
  });
});

describe('float32Largest', () => {
  it('keeps the m largest values, so the m-th largest of the union of parts is the whole array\'s quantile', () => {
    const random = rng(9);
    // Many ties and a wide range: quantised values, negatives, zeros (and -0).
    const values = Float32Array.from({ length: 200_000 }, (_, i) => (i % 11 === 0 ? 0 : i % 13 === 0 ? -0 : Math.round((random() - 0.2) * 500) / 8));
    const sorted = Float64Array.from(values).sort();
    for (const m of [1, 7, 1000, 199_999]) {
      const top = float32Largest(values, m)!;
      expect(top.length).toBe(m);
      expect(Float64Array.from(top).sort()).toEqual(sorted.slice(values.length - m));
      const parts = [values.subarray(0, 50_000), values.subarray(50_000, 50_001), values.subarray(50_001)].map((p) => float32Largest(p, m)!);
      const union = Float64Array.from(parts.flatMap((p) => Array.from(p)));
      expect(selectKth(union, union.length, union.length - m)).toBe(quantile(values, (values.length - m) / (values.length - 1)));
    }
    expect(float32Largest(Float32Array.of(1, Number.NaN), 1)).toBeUndefined();
    expect(Array.from(float32Largest(Float32Array.of(3, 1), 5)!)).toEqual([3, 1]);
  });
});
