import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeImage, greenLatticeParity } from '../src/index.js';
import { cfaBlockFeatures } from '../src/internal/cfaBlockFeatures.js';
import { evenSubsample, finiteValues } from '../src/internal/stats.js';
import { BINNED_MIN_SAMPLES, fitZeroMeanMixture, fitZeroMeanMixtureBinned, logNormal } from '../src/internal/zeroMeanMixture.js';
import type { ZeroMeanMixture } from '../src/internal/zeroMeanMixture.js';
import { datasetDir } from './datasets.js';
import { gaussian, rng } from './synthetic.js';

// The binned EM fit of cfa-variance against the fit over single samples it replaces (fitZeroMeanMixture).

/** Largest relative difference of the four parameters. */
function largestRelativeDifference(a: ZeroMeanMixture, b: ZeroMeanMixture): number {
  return Math.max(...(['sigma0', 'mu1', 'sigma1', 'weight1'] as const).map((k) => Math.abs(a[k] / b[k] - 1)));
}

describe('fitZeroMeanMixtureBinned', () => {
  it('is fitZeroMeanMixture itself under BINNED_MIN_SAMPLES samples', () => {
    const normal = gaussian(rng(41)), random = rng(42);
    const x = Float64Array.from({ length: BINNED_MIN_SAMPLES - 1 }, () => (random() < 0.3 ? 6 + 5 * normal() : 2 * normal()));
    expect(fitZeroMeanMixtureBinned(x)).toEqual(fitZeroMeanMixture(x));
  });

  it('follows the single-sample fit within 1e-4 through 100 unconverged iterations, and stops with it when it converges', () => {
    const normal = gaussian(rng(43)), random = rng(44);
    // Two broad overlapping components, as on the photo below (EM crawls: both fits stop at the cap) ...
    const broad = Float64Array.from({ length: 32768 }, () => (random() < 0.2 ? 3 + 11.5 * normal() : 7.7 * normal()));
    const a = fitZeroMeanMixtureBinned(broad), b = fitZeroMeanMixture(broad);
    expect([a.iterations, b.iterations]).toEqual([100, 100]);
    expect(largestRelativeDifference(a, b)).toBeLessThan(1e-4);
    // ... and a tenth of exact zeros (blocks with no variance): the zero-mean component collapses onto them.
    const zeros = Float64Array.from({ length: 30000 }, (_, i) => (i % 10 === 0 ? 0 : i % 10 === 1 ? 1e-3 * normal() : 5 * normal()));
    const c = fitZeroMeanMixtureBinned(zeros), d = fitZeroMeanMixture(zeros);
    expect(c.sigma0).toBe(d.sigma0);
    expect(c.iterations).toBe(d.iterations);
    expect(largestRelativeDifference(c, d)).toBeLessThan(1e-6);
  });

  it('fits the features of a 12 MP camera photo as the single-sample fit: parameters within 1e-4, blocks on the other side of 0.5 under 1 in 10^4', async () => {
    const dir = datasetDir('images/c2pa-public-testfiles');
    if (!dir) return;
    const image = await decodeImage(readFileSync(join(dir, 'truepic-20230212-camera.jpg')));
    const feature = cfaBlockFeatures(image, 8, greenLatticeParity(image, 16, 5, 1.5e6), 1.5);
    const sample = evenSubsample(finiteValues(feature), 32768);
    const binned = fitZeroMeanMixtureBinned(sample), single = fitZeroMeanMixture(sample);
    expect(binned.iterations).toBe(single.iterations);
    expect(largestRelativeDifference(binned, single)).toBeLessThan(1e-4);
    let flips = 0;
    for (const f of feature) {
      const x = Number.isFinite(f) ? f : -736.8;
      const a = logNormal(x, 0, binned.sigma0) - logNormal(x, binned.mu1, binned.sigma1);
      const b = logNormal(x, 0, single.sigma0) - logNormal(x, single.mu1, single.sigma1);
      if (a > 0 !== b > 0) flips++;
    }
    // A block whose log-likelihood ratio is within ~1e-5 of 0 can change sides (1 of 190512 here).
    expect(flips / feature.length).toBeLessThan(1e-4);
  }, 60_000);
});
