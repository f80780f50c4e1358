import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { analyzeImage } from '../src/index.js';
import type { ForensicMap } from '../src/index.js';
import { datasetDir } from './datasets.js';

// CASIA v1.0 samples (research use; masks by Pham et al. 2019), see the dataset's README.txt. The full per-kernel
// table is printed by scripts/forensics/casia-localisation.mjs; this test keeps the kernels that separate here.
const dir = datasetDir('images/forgery-casia1-samples');

/** Probability that a random tampered pixel has a higher map value than a random authentic one (ties count half). */
function auc(map: ForensicMap, mask: Uint8Array, width: number, height: number): number {
  const bins = 512;
  const [lo, hi] = [Math.min(...map.data), Math.max(...map.data)];
  const pos = new Float64Array(bins), neg = new Float64Array(bins);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = map.data[Math.min(map.height - 1, Math.floor(y / map.cellSize)) * map.width + Math.min(map.width - 1, Math.floor(x / map.cellSize))]!;
      const b = hi > lo ? Math.min(bins - 1, Math.floor(((v - lo) / (hi - lo)) * bins)) : 0;
      if (mask[y * width + x]! > 127) pos[b]!++; else neg[b]!++;
    }
  }
  let below = 0, s = 0, p = 0, n = 0;
  for (let b = 0; b < bins; b++) { s += pos[b]! * (below + neg[b]! / 2); below += neg[b]!; p += pos[b]!; n += neg[b]!; }
  return s / (p * n);
}

describe.skipIf(!dir)('localisation on forgery-casia1-samples', () => {
  it('ELA and edge-anomaly maps localise above chance; ELA, edge-anomaly and spectral score tampered images higher', async () => {
    const names = readdirSync(join(dir!, 'tampered')).filter((n) => n.endsWith('.png'));
    const kernels = ['ela', 'edge-anomaly', 'spectral'] as const;
    const aucs = { ela: [] as number[], 'edge-anomaly': [] as number[] };
    const score = { tampered: { ela: 0, 'edge-anomaly': 0, spectral: 0 }, original: { ela: 0, 'edge-anomaly': 0, spectral: 0 } };
    for (const name of names) {
      const { data: mask, info } = await sharp(readFileSync(join(dir!, 'mask', name))).greyscale().raw().toBuffer({ resolveWithObject: true });
      for (const which of ['tampered', 'original'] as const) {
        const analysis = await analyzeImage(readFileSync(join(dir!, which, name)), { kernels });
        for (const k of analysis.kernels) {
          if (k.state !== 'completed') throw new Error(`${k.id} failed on ${name}`);
          score[which][k.id as 'ela' | 'edge-anomaly' | 'spectral'] += k.result.score / names.length;
          if (which === 'tampered' && k.id !== 'spectral') aucs[k.id as 'ela' | 'edge-anomaly'].push(auc(k.result.maps[0]!, mask, info.width, info.height));
        }
      }
    }
    const mean = (a: number[]) => a.reduce((s, v) => s + v, 0) / a.length;
    console.log(`casia: pixel AUC ela ${mean(aucs.ela).toFixed(3)}, edge-anomaly ${mean(aucs['edge-anomaly']).toFixed(3)}; mean score tampered/original ela ${score.tampered.ela.toFixed(4)}/${score.original.ela.toFixed(4)}, edge-anomaly ${score.tampered['edge-anomaly'].toFixed(4)}/${score.original['edge-anomaly'].toFixed(4)}, spectral ${score.tampered.spectral.toFixed(4)}/${score.original.spectral.toFixed(4)}`);
    expect(names.length).toBe(18);
    expect(mean(aucs.ela)).toBeGreaterThan(0.55);
    expect(mean(aucs['edge-anomaly'])).toBeGreaterThan(0.55);
    expect(score.tampered['edge-anomaly']).toBeGreaterThan(score.original['edge-anomaly']);
    expect(score.tampered.ela).toBeGreaterThan(score.original.ela);
    expect(score.tampered.spectral).toBeGreaterThan(score.original.spectral);
  }, 60_000);
});
