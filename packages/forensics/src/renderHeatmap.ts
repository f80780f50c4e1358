import { sharp } from './lazySharp.js';
import { colormapTable } from './colormaps.js';
import type { ColormapName } from './colormaps.js';
import type { ForensicMap, PixelBuffer } from './types.js';
import { expectNumberInRange, expectPixelBuffer } from './validate.js';

export interface RenderHeatmapOptions {
  /**
   * Colour map.
   * @default 'inferno'
   */
  colormap?: ColormapName;
  /**
   * Values mapped to the two ends of the colour map.
   * @default map.displayRange
   */
  range?: [number, number];
  /**
   * The analysed image, drawn under the heat map (the heat map is scaled to its size, nearest neighbour).
   * @default undefined
   */
  underlay?: PixelBuffer;
  /**
   * Opacity of the heat map over the underlay.
   * @default 0.6
   */
  opacity?: number;
}

/** Renders a map as an RGBA PNG (NaN cells transparent), optionally over the image. */
export async function renderHeatmap(map: ForensicMap, options: RenderHeatmapOptions = {}): Promise<Buffer> {
  const colormap = options.colormap ?? 'inferno';
  const [lo, hi] = options.range ?? map.displayRange;
  const opacity = options.opacity ?? 0.6;
  expectNumberInRange('opacity', opacity, 0, 1);
  if (!(hi > lo)) throw new RangeError(`Expected range [low, high] with high > low but received [${lo}, ${hi}]`);
  if (options.underlay) expectPixelBuffer('underlay', options.underlay);
  const table = colormapTable(colormap);
  const rgba = new Uint8Array(map.width * map.height * 4);
  for (let i = 0; i < map.data.length; i++) {
    const v = map.data[i]!;
    if (!Number.isFinite(v)) continue;
    const k = Math.round(255 * Math.min(1, Math.max(0, (v - lo) / (hi - lo)))) * 3;
    rgba[i * 4] = table[k]!; rgba[i * 4 + 1] = table[k + 1]!; rgba[i * 4 + 2] = table[k + 2]!;
    rgba[i * 4 + 3] = options.underlay ? Math.round(255 * opacity) : 255;
  }
  let heat = sharp(rgba, { raw: { width: map.width, height: map.height, channels: 4 } });
  if (!options.underlay) return heat.png().toBuffer();
  const { width, height, channels, data } = options.underlay;
  const base = data instanceof Uint8Array ? data : Uint8Array.from(data, (v) => Math.max(0, Math.min(255, Math.round(v))));
  const coverW = map.cellSize > 0 ? Math.min(width, map.width * map.cellSize) : width;
  const coverH = map.cellSize > 0 ? Math.min(height, map.height * map.cellSize) : height;
  const overlay = await heat.resize(coverW, coverH, { kernel: 'nearest', fit: 'fill' }).png().toBuffer();
  return sharp(base, { raw: { width, height, channels: channels as 1 | 2 | 3 | 4 } })
    .composite([{ input: overlay, left: 0, top: 0 }]).png().toBuffer();
}
