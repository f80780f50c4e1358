import type { ForensicMap } from '../types.js';

/**
 * A map averaged down by an integer factor until its longer side is at most `maxSide` (each output cell the mean of
 * the finite values of its box, NaN when it has none); the map itself when it fits. `cellSize` grows by the factor.
 */
export function downsampleMap(map: ForensicMap, maxSide: number): ForensicMap {
  const factor = Math.ceil(Math.max(map.width, map.height) / maxSide);
  if (factor <= 1) return map;
  const width = Math.ceil(map.width / factor);
  const height = Math.ceil(map.height / factor);
  const sums = new Float64Array(width * height);
  const counts = new Uint32Array(width * height);
  for (let y = 0; y < map.height; y++) {
    const row = Math.floor(y / factor) * width;
    for (let x = 0; x < map.width; x++) {
      const v = map.data[y * map.width + x]!;
      if (!Number.isFinite(v)) continue;
      const k = row + Math.floor(x / factor);
      sums[k] = sums[k]! + v;
      counts[k] = counts[k]! + 1;
    }
  }
  const data = new Float32Array(width * height);
  for (let k = 0; k < data.length; k++) data[k] = counts[k]! > 0 ? sums[k]! / counts[k]! : NaN;
  return { ...map, data, width, height, cellSize: map.cellSize * factor };
}
