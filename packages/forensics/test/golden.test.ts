import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cfaReinterpolation, cfaVarianceMap, decodeImage, errorLevelAnalysis, pearson, readNpy, recompressJpeg, waveletNoiseMap } from '../src/index.js';
import { datasetDir } from './datasets.js';

// Golden outputs of the MATLAB image-forensics toolbox (Zampoglou et al. 2017) for 168_image.jpg, as shipped with
// pyIFD (Apache-2.0); see the dataset's README.txt. Tolerances are the correlations measured here, rounded down.
const dir = datasetDir('images/pyifd-matlab-reference');

describe.skipIf(!dir)('golden maps against the MATLAB toolbox (pyifd-matlab-reference)', async () => {
  const image = dir ? await decodeImage(readFileSync(join(dir, '168_image.jpg'))) : undefined;
  const reference = (name: string) => readNpy(readFileSync(join(dir!, 'npy', `168_${name}__OutputMap.npy.gz`)));

  it('ELA: the uint8 map equals the toolbox map on at least 99.9% of pixels', async () => {
    const ref = reference('ELA');
    const map = errorLevelAnalysis(image!, await recompressJpeg(image!, { quality: 90 })).maps[0]!;
    expect(ref.shape).toEqual([map.height, map.width]);
    let equal = 0;
    for (let i = 0; i < ref.data.length; i++) if (Math.min(255, Math.round(map.data[i]!)) === ref.data[i]) equal++;
    const r = pearson(map.data, ref.data);
    console.log(`golden ELA: ${(100 * equal / ref.data.length).toFixed(3)}% pixels equal, correlation ${r.toFixed(6)}`);
    expect(equal / ref.data.length).toBeGreaterThan(0.999);
  });

  it('NOI1: wavelet noise map agrees to 1e-4', () => {
    const ref = reference('NOI1');
    const map = waveletNoiseMap(image!).maps[0]!;
    expect(ref.shape).toEqual([map.height, map.width]);
    let maxError = 0;
    for (let i = 0; i < ref.data.length; i++) maxError = Math.max(maxError, Math.abs(map.data[i]! - ref.data[i]!));
    const r = pearson(map.data, ref.data);
    console.log(`golden NOI1: correlation ${r.toFixed(9)}, max abs error ${maxError.toExponential(2)}`);
    expect(maxError).toBeLessThan(1e-4);
  });

  it('CFA1: Ferrara map correlates above 0.97', () => {
    const ref = reference('CFA1');
    const map = cfaVarianceMap(image!).maps[0]!;
    expect(ref.shape).toEqual([map.height, map.width]);
    const r = pearson(map.data, ref.data);
    console.log(`golden CFA1: correlation ${r.toFixed(4)}`);
    expect(r).toBeGreaterThan(0.97);
  });

  it('CFA2: Dirik-Memon green-share map correlates above 0.94', () => {
    const ref = reference('CFA2');
    const map = cfaReinterpolation(image!).maps.find((m) => m.name === 'cfa-green-error-share')!;
    expect(ref.shape).toEqual([map.height, map.width]);
    const r = pearson(map.data, ref.data);
    console.log(`golden CFA2: correlation ${r.toFixed(4)} over blocks finite in both`);
    expect(r).toBeGreaterThan(0.94);
  });
});
