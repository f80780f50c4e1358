import type { KernelOutcome } from '../analyzeImage.js';
import { boxMean } from '../jpeg/boxMean.js';
import { meanStd, robustCenterScale, selectKth64 } from '../internal/stats.js';
import type { KernelId } from '../registry.js';
import type { ForensicMap } from '../types.js';
import { FUSION_MODEL } from './fusionModel.js';
import type { FusionModel } from './fusionModel.js';

/** Cell size of the fused map, in pixels: the JPEG block. */
export const FUSED_CELL = 8;

/**
 * A kernel's first map on the fused grid (cells of 8 pixels from the origin, each the map's value at the cell's
 * centre pixel) as a robust z-score, (v - median) / (1.4826 MAD, or the standard deviation when the MAD is 0), clamped to [-6, 6]; NaN and constant maps give 0.
 */
export function standardisedMap(map: ForensicMap, width: number, height: number): Float64Array {
  const cw = Math.ceil(width / FUSED_CELL), ch = Math.ceil(height / FUSED_CELL);
  const out = new Float64Array(cw * ch);
  const { median, scale } = robustCenterScale(map.data);
  // Maps with more than half their cells equal (a saturated probability) have no MAD: their standard deviation serves.
  // meanStd skips non-finite values itself: no boxed copy of a full-resolution map (12 M values at 12 MP took seconds).
  const s = scale > 1e-9 ? scale : Math.max(meanStd(map.data).std, 1e-9);
  for (let cy = 0; cy < ch; cy++) {
    const my = Math.min(map.height - 1, Math.floor(Math.min(height - 1, cy * FUSED_CELL + 4) / map.cellSize));
    for (let cx = 0; cx < cw; cx++) {
      const mx = Math.min(map.width - 1, Math.floor(Math.min(width - 1, cx * FUSED_CELL + 4) / map.cellSize));
      const v = map.data[my * map.width + mx]!;
      const z = Number.isFinite(v) && Number.isFinite(median) ? (v - median) / s : 0;
      out[cy * cw + cx] = z > 6 ? 6 : z < -6 ? -6 : z;
    }
  }
  return out;
}

/** The fused map and the image-level score it gives. */
export interface FusedLocalisation {
  /** `fused-tamper-probability`, cells of 8 pixels, in [0, 1]. */
  map: ForensicMap;
  /** Mean of the top `topShare` of the map's cells: the image-level manipulation score. */
  score: number;
  /** The kernels that entered (completed, with a map over the image); missing ones count as z = 0. */
  used: KernelId[];
}

/**
 * Fuses the kernels' maps into one tamper probability per 8x8 cell by the logistic model `model`: each kernel's first
 * map standardised per image (`standardisedMap`), averaged over (2 radius + 1)^2 cells, weighted and summed with the
 * bias, through the logistic function. The default model and how it was fitted are in `fusionModel.ts`.
 */
export function fuseMaps(kernels: readonly KernelOutcome[], width: number, height: number, model: FusionModel = FUSION_MODEL): FusedLocalisation {
  const { inputs, used } = fusionInputs(kernels, model);
  return combineFused(inputs.map(({ weight, map }) => ({ weight, pooled: pooledStandardisedMap(map, width, height, model.radius) })), used, width, height, model);
}

/**
 * The maps `fuseMaps` weighs, in the model's order: each kernel with a nonzero weight that completed with a map over
 * the image; `used` also lists those of weight 0 (they add exactly 0 to every cell: the pooled z-scores are finite).
 */
export function fusionInputs(kernels: readonly KernelOutcome[], model: FusionModel = FUSION_MODEL): { inputs: Array<{ id: KernelId; weight: number; map: ForensicMap }>; used: KernelId[] } {
  const inputs: Array<{ id: KernelId; weight: number; map: ForensicMap }> = [];
  const used: KernelId[] = [];
  for (const [id, weight] of Object.entries(model.weights) as Array<[KernelId, number]>) {
    const outcome = kernels.find((k) => k.id === id);
    const map = outcome?.state === 'completed' ? outcome.result.maps[0] : undefined;
    if (!map || map.cellSize <= 0) continue;
    used.push(id);
    if (weight !== 0) inputs.push({ id, weight, map });
  }
  return { inputs, used };
}

/** A map's `standardisedMap` averaged over (2 radius + 1)^2 cells: what `fuseMaps` weighs (one task each in a pool). */
export function pooledStandardisedMap(map: ForensicMap, width: number, height: number, radius: number): Float64Array {
  const z = standardisedMap(map, width, height);
  return radius > 0 ? boxMean(z, Math.ceil(width / FUSED_CELL), Math.ceil(height / FUSED_CELL), radius) : z;
}

/** The weighted sum of the pooled maps (in `fusionInputs`' order) with the bias, through the logistic, and its score. */
export function combineFused(pooled: ReadonlyArray<{ weight: number; pooled: Float64Array }>, used: KernelId[], width: number, height: number, model: FusionModel = FUSION_MODEL): FusedLocalisation {
  const cw = Math.ceil(width / FUSED_CELL), ch = Math.ceil(height / FUSED_CELL);
  const logit = new Float64Array(cw * ch).fill(model.bias);
  for (const { weight, pooled: p } of pooled) for (let i = 0; i < logit.length; i++) logit[i]! += weight * p[i]!;
  // A loop, not Float32Array.from with a map function (which V8 runs through the iterator protocol, 5x slower).
  const data = new Float32Array(logit.length);
  for (let i = 0; i < logit.length; i++) data[i] = 1 / (1 + Math.exp(-logit[i]!));
  const sorted = Float64Array.from(data);
  const top = Math.max(1, Math.round(sorted.length * model.topShare));
  // Only the top cells need sorting: a selection puts them last (everything after the selected rank is at least it),
  // then they are sorted and summed in the same ascending order as after a full sort (NaN cells, which sort last
  // and a selection cannot place, take the full sort).
  if (sorted.length > top && !sorted.some(Number.isNaN)) {
    selectKth64(sorted, sorted.length, sorted.length - top);
    sorted.subarray(sorted.length - top).sort();
  } else sorted.sort();
  let sum = 0;
  for (let i = sorted.length - top; i < sorted.length; i++) sum += sorted[i]!;
  return { map: { name: 'fused-tamper-probability', data, width: cw, height: ch, cellSize: FUSED_CELL, displayRange: [0, 1] }, score: sum / top, used };
}
