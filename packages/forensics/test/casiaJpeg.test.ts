import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { analyzeImage, fuseMaps, localisationScores } from '../src/index.js';
import type { KernelId } from '../src/index.js';
import { datasetDir } from './datasets.js';

// CASIA v1.0 samples (research use; masks by Pham et al. 2019). The fused model and the kernels' radii were chosen on
// the 9 copy-move images (Sp_S); this test scores the 9 splicing images (Sp_D), which chose nothing.
const dir = datasetDir('images/forgery-casia1-samples');
const KERNELS: KernelId[] = ['ela', 'wavelet-noise', 'median-residual', 'cfa-variance', 'cfa-reinterpolation', 'edge-anomaly', 'dq-aligned', 'dq-nonaligned', 'jpeg-grid', 'jpeg-ghost'];

describe.skipIf(!dir)('localisation on the held-out splicing half of forgery-casia1-samples', () => {
  it('the fused map reaches 0.80 mean pixel AUC and dq-aligned is the best single kernel', async () => {
    const names = readdirSync(join(dir!, 'tampered')).filter((n) => n.startsWith('Sp_D') && n.endsWith('.png'));
    const aucs = new Map<string, number[]>();
    for (const name of names) {
      const { data, info } = await sharp(readFileSync(join(dir!, 'mask', name))).greyscale().raw().toBuffer({ resolveWithObject: true });
      const mask = Uint8Array.from(data, (v) => (v > 127 ? 1 : 0));
      const analysis = await analyzeImage(readFileSync(join(dir!, 'tampered', name)), { kernels: KERNELS });
      const add = (id: string, auc: number) => aucs.set(id, [...(aucs.get(id) ?? []), auc]);
      for (const k of analysis.kernels) if (k.state === 'completed') add(k.id, localisationScores(k.result.maps[0]!, mask, info.width, info.height).auc);
      add('fused', localisationScores(fuseMaps(analysis.kernels, analysis.width, analysis.height).map, mask, info.width, info.height).auc);
    }
    const mean = new Map([...aucs].map(([id, a]) => [id, a.reduce((s, v) => s + v, 0) / a.length]));
    console.log(`casia Sp_D pixel AUC: ${[...mean].map(([id, v]) => `${id} ${v.toFixed(3)}`).join(', ')}`);
    expect(names.length).toBe(9);
    expect(mean.get('fused')).toBeGreaterThan(0.8); // measured 0.830
    const single = [...mean].filter(([id]) => id !== 'fused').sort((a, b) => b[1] - a[1]);
    expect(single[0]![0]).toBe('dq-aligned'); // measured 0.758, next ela 0.660
  }, 120_000);
});
