import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeImage, pearson, readNpy } from '../src/index.js';
import { datasetDir } from './datasets.js';

// The MATLAB image-forensics toolbox (Zampoglou et al. 2017) output maps for 168_image.jpg, as kept by pyIFD
// (Apache-2.0, see the dataset's README.txt): ADQ2 is Bianchi and Piva's aligned double-quantisation map, BLK Li,
// Yuan and Yu's block artefact grid. Our kernels follow the same papers in our own formulation (README), so the test
// asserts agreement (correlation over the 135x135 blocks), not equality.
const dir = datasetDir('images/pyifd-matlab-reference');

describe.skipIf(!dir)('JPEG-domain kernels against the MATLAB toolbox maps of 168_image.jpg', () => {
  it('dq-aligned follows ADQ2 and jpeg-grid follows BLK; no non-aligned first grid is found', async () => {
    const analysis = await analyzeImage(readFileSync(join(dir!, '168_image.jpg')), { kernels: ['dq-aligned', 'jpeg-grid', 'dq-nonaligned'] });
    const result = (id: string) => {
      const k = analysis.kernels.find((o) => o.id === id);
      if (k?.state !== 'completed') throw new Error(`${id} failed`);
      return k.result;
    };
    const correlation = (id: string, algo: string) => {
      const ours = result(id).maps[0]!;
      const ref = readNpy(readFileSync(join(dir!, 'npy', `168_${algo}__OutputMap.npy.gz`)));
      expect([ours.height, ours.width]).toEqual(ref.shape);
      return pearson(Array.from(ours.data), Array.from(ref.data as ArrayLike<number>, Number));
    };
    const adq = correlation('dq-aligned', 'ADQ2'), blk = correlation('jpeg-grid', 'BLK');
    console.log(`168_image.jpg: r(dq-aligned, ADQ2) ${adq.toFixed(3)}, r(jpeg-grid, BLK) ${blk.toFixed(3)}`);
    expect(result('dq-aligned').stats.fromFile).toBe(1);
    expect(adq).toBeGreaterThan(0.45); // measured 0.532
    expect(blk).toBeGreaterThan(0.45); // measured 0.514
    expect(result('dq-nonaligned').stats.found).toBe(0);
  }, 60_000);
});
