import { encodeGrey16Png } from './internal/png16.js';
import type { ForensicMap } from './types.js';

/** How to read the 16-bit PNG back: value = offset + sample * scale; sample 65535 marks NaN. */
export interface RawMapSidecar {
  name: string;
  width: number;
  height: number;
  cellSize: number;
  offset: number;
  scale: number;
  nanSample: 65535;
  min: number;
  max: number;
}

/**
 * Quantises a map linearly to 16-bit grey (0..65534 from its min to max; 65535 for NaN) and encodes it as a PNG, with
 * a JSON sidecar giving the scale, so maps can be scored with other tools. Relative error at most 1/65534 of the range.
 */
export function exportRawMap(map: ForensicMap): { png: Buffer; sidecar: RawMapSidecar } {
  let min = Infinity, max = -Infinity;
  for (const v of map.data) if (Number.isFinite(v)) { if (v < min) min = v; if (v > max) max = v; }
  if (min === Infinity) { min = 0; max = 0; }
  const scale = max > min ? (max - min) / 65534 : 1;
  const samples = new Uint16Array(map.data.length);
  for (let i = 0; i < samples.length; i++) {
    const v = map.data[i]!;
    samples[i] = Number.isFinite(v) ? Math.round((v - min) / scale) : 65535;
  }
  const png = encodeGrey16Png(samples, map.width, map.height);
  return { png, sidecar: { name: map.name, width: map.width, height: map.height, cellSize: map.cellSize, offset: min, scale, nanSample: 65535, min, max } };
}
