import type { ForensicMap } from '../types.js';

/** Pixel-level scores of one map against a ground-truth mask. */
export interface LocalisationScores {
  /** Probability that a random tampered pixel scores above a random authentic one (ties half); NaN without both. */
  auc: number;
  /** Best F1 over every threshold of the map (the oracle threshold per image, as photoholmes and most papers report). */
  bestF1: number;
  /** Matthews correlation coefficient at the threshold of the best F1. */
  mcc: number;
  /** That threshold (pixels with a value >= it are called tampered). */
  threshold: number;
}

/**
 * Scores a map against a mask of width x height pixels (nonzero = tampered). A map cell covers `cellSize` pixels
 * each way (the last row and column of cells may be partial); every pixel takes its cell's value; NaN cells count as
 * the lowest value. Cells with equal values form one threshold step.
 */
export function localisationScores(map: ForensicMap, mask: Uint8Array, width: number, height: number): LocalisationScores {
  if (map.cellSize <= 0) throw new RangeError(`Expected a map over the image plane for map ${map.name} but received cellSize ${map.cellSize}`);
  if (mask.length !== width * height) throw new RangeError(`Expected a mask of ${width * height} pixels but received ${mask.length}`);
  const cells = map.width * map.height;
  const pos = new Float64Array(cells), neg = new Float64Array(cells);
  const s = map.cellSize;
  for (let y = 0; y < height; y++) {
    const cy = Math.min(map.height - 1, Math.floor(y / s)) * map.width;
    for (let x = 0; x < width; x++) {
      const c = cy + Math.min(map.width - 1, Math.floor(x / s));
      if (mask[y * width + x]! !== 0) pos[c]!++; else neg[c]!++;
    }
  }
  const value = (i: number): number => { const v = map.data[i]!; return Number.isNaN(v) ? -Infinity : v; };
  const order = Int32Array.from({ length: cells }, (_, i) => i).sort((a, b) => value(b) - value(a));
  let P = 0, N = 0;
  for (let i = 0; i < cells; i++) { P += pos[i]!; N += neg[i]!; }
  if (P === 0 || N === 0) return { auc: Number.NaN, bestF1: P === 0 ? 0 : 1, mcc: 0, threshold: Number.NaN };
  let tp = 0, fp = 0, aucSum = 0, bestF1 = 0, mcc = 0, threshold = Infinity;
  for (let i = 0; i < cells;) {
    const v = value(order[i]!);
    let dp = 0, dn = 0;
    for (; i < cells && value(order[i]!) === v; i++) { dp += pos[order[i]!]!; dn += neg[order[i]!]!; }
    // Pairs (tampered in this step, authentic below it) plus half the ties within the step.
    aucSum += dp * (N - fp - dn) + (dp * dn) / 2;
    tp += dp; fp += dn;
    const fn = P - tp, tn = N - fp;
    const f1 = (2 * tp) / (2 * tp + fp + fn);
    if (f1 > bestF1) {
      bestF1 = f1;
      threshold = v;
      const den = Math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn));
      mcc = den > 0 ? (tp * tn - fp * fn) / den : 0;
    }
  }
  return { auc: aucSum / (P * N), bestF1, mcc, threshold };
}

/** Area under the ROC curve of scores of positives against negatives (ties half); NaN when either is empty. */
export function rocAuc(positives: readonly number[], negatives: readonly number[]): number {
  if (positives.length === 0 || negatives.length === 0) return Number.NaN;
  let s = 0;
  for (const p of positives) for (const n of negatives) s += p > n ? 1 : p === n ? 0.5 : 0;
  return s / (positives.length * negatives.length);
}
