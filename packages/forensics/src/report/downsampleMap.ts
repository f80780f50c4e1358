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
  const src = map.data;
  for (let y = 0; y < map.height; y++) {
    const row = Math.floor(y / factor) * width;
    const from = y * map.width;
    // One box of the output row at a time: no division per pixel.
    for (let bx = 0; bx < width; bx++) {
      const start = from + bx * factor;
      const end = from + Math.min(map.width, (bx + 1) * factor);
      let sum = 0, count = 0;
      for (let i = start; i < end; i++) {
        const v = src[i]!;
        if (v - v === 0) { sum += v; count++; } // finite: NaN and infinities give NaN
      }
      sums[row + bx] = sums[row + bx]! + sum;
      counts[row + bx] = counts[row + bx]! + count;
    }
  }
  const data = new Float32Array(width * height);
  for (let k = 0; k < data.length; k++) data[k] = counts[k]! > 0 ? sums[k]! / counts[k]! : NaN;
  return { ...map, data, width, height, cellSize: map.cellSize * factor };
}
