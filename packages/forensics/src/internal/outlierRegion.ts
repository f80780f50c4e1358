import { robustCenterScale } from './stats.js';

/**
 * Area of the largest 4-connected region of cells whose robust z-score, (x - median) / (1.4826 MAD), exceeds
 * `threshold` (`twoSided`: |z|), as a fraction of the finite cells: how much the most anomalous connected region
 * stands out from the rest of the map, rather than how many isolated cells do. The scale has the floor of
 * `outlierFraction` (1e-6 of the median's magnitude plus `minScale`). 0 for a map without finite cells. `centre`:
 * `robustCenterScale(values)` when the caller already has it (not computed again).
 */
export function largestOutlierRegion(values: ArrayLike<number>, width: number, height: number, threshold: number, twoSided: boolean, minScale = 1e-9, centre: { median: number; scale: number } = robustCenterScale(values)): number {
  const { median, scale } = centre;
  if (!Number.isFinite(median)) return 0;
  const s = Math.max(scale, Math.abs(median) * 1e-6, minScale);
  const n = width * height;
  // 1 = outlier not yet visited; visited cells are cleared.
  const mask = new Uint8Array(n);
  let finite = 0;
  for (let i = 0; i < n; i++) {
    const x = values[i]!;
    if (!Number.isFinite(x)) continue;
    finite++;
    const z = (x - median) / s;
    if (z > threshold || (twoSided && z < -threshold)) mask[i] = 1;
  }
  const stack = new Int32Array(n);
  let largest = 0;
  for (let start = 0; start < n; start++) {
    if (mask[start] === 0) continue;
    mask[start] = 0;
    let top = 0, size = 0;
    stack[top++] = start;
    while (top > 0) {
      const j = stack[--top]!;
      size++;
      const x = j % width;
      if (x > 0 && mask[j - 1] === 1) { mask[j - 1] = 0; stack[top++] = j - 1; }
      if (x < width - 1 && mask[j + 1] === 1) { mask[j + 1] = 0; stack[top++] = j + 1; }
      if (j >= width && mask[j - width] === 1) { mask[j - width] = 0; stack[top++] = j - width; }
      if (j + width < n && mask[j + width] === 1) { mask[j + width] = 0; stack[top++] = j + width; }
    }
    if (size > largest) largest = size;
  }
  return finite === 0 ? 0 : largest / finite;
}
