import { colormapTable } from '../colormaps.js';
import type { ColormapName } from '../colormaps.js';
import { decodeImage } from '../decodeImage.js';
import type { RawMapSidecar } from '../exportRawMap.js';
import { sharp } from '../lazySharp.js';
import { renderHeatmap } from '../renderHeatmap.js';
import type { ForensicMap, PixelBuffer } from '../types.js';
import { expectPixelBuffer, expectPositiveInteger } from '../validate.js';
import { downsampleMap } from './downsampleMap.js';

/** One method's map as a report shows it: give `map` (floats), `raw` (a 16-bit raw map) or `error`. */
export interface ReportMapInput {
  /** Title of the panel, e.g. `Error level analysis`. */
  name: string;
  /** A second line under the title, e.g. the kernel and map ids. @default none */
  detail?: string;
  /** A line under the colour scale. @default none */
  note?: string;
  /** The method's per-image score in [0, 1] (0 = nothing anomalous), listed beside the image. @default none */
  score?: number;
  /** The map as floats. */
  map?: ForensicMap;
  /** The map as a 16-bit grayscale PNG and its sidecar (`exportRawMap`'s output, or the files `forensics --out` writes). */
  raw?: { png: Uint8Array; sidecar: RawMapSidecar };
  /**
   * Values at the two ends of the colour scale; values outside are drawn in the end colours.
   * @default map.displayRange, or [sidecar.min, sidecar.max] for a raw map
   */
  range?: [number, number];
  /**
   * What the values are, printed under the colour scale.
   * @default the map's name
   */
  scaleLabel?: string;
  /**
   * Colour map.
   * @default 'inferno'
   */
  colormap?: ColormapName;
  /** The method failed on this image: the panel shows this message instead of a map. @default none */
  error?: string;
  /**
   * Shown among the further maps (a folded section) rather than in the main grid.
   * @default false
   */
  secondary?: boolean;
}

export interface ReportFiguresInput {
  /** The analysed image: its encoded bytes (decoded without applying the EXIF orientation, as the kernels see it) or its pixels. */
  image: Uint8Array | PixelBuffer;
  /** Each method's map, in the order the report shows them. */
  maps: readonly ReportMapInput[];
  /** The fused or overall map, shown beside the image. @default none */
  overall?: ReportMapInput;
  /**
   * Longest side, in pixels, of the image embedded in the page.
   * @default 960
   */
  maxSide?: number;
  /**
   * Longest side, in cells, of a heat map embedded in the page: larger maps (per-pixel ones) are averaged down.
   * @default 640
   */
  mapMaxSide?: number;
}

/** A colour scale: a CSS gradient and labelled values along it (position 0 = left end, 1 = right end). */
export interface ReportLegend {
  gradient: string;
  ticks: Array<{ position: number; label: string }>;
  label: string;
  /** The colour map's name. */
  colormap: ColormapName;
}

/** One panel, ready to print: images as data: URIs, so the page makes no request. */
export interface ReportFigure {
  name: string;
  detail?: string;
  note?: string;
  score?: number;
  secondary: boolean;
  heatmap?: {
    /** `data:image/png;base64,...`; cells without a value are transparent. */
    src: string;
    width: number;
    height: number;
    /** Whether the page should enlarge it without smoothing (block maps). */
    pixelated: boolean;
    /** Share of cells without a value (NaN). */
    blankShare: number;
  };
  legend?: ReportLegend;
  error?: string;
}

/** Everything a report draws, as plain JSON (it travels from an analysis worker to the node that answers). */
export interface ReportFigures {
  image: { src: string; width: number; height: number };
  overall?: ReportFigure;
  maps: ReportFigure[];
}

const dataUri = (mime: string, bytes: Uint8Array): string => `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;

function asBytes(data: PixelBuffer['data']): Uint8Array {
  return data instanceof Uint8Array ? data : Uint8Array.from(data, (v) => Math.max(0, Math.min(255, Math.round(v))));
}

async function imageFigure(image: Uint8Array | PixelBuffer, maxSide: number): Promise<ReportFigures['image']> {
  const pixels = image instanceof Uint8Array ? await decodeImage(image) : image;
  expectPixelBuffer('image', pixels);
  const { width, height, channels } = pixels;
  const jpeg = await sharp(asBytes(pixels.data), { raw: { width, height, channels: channels as 1 | 2 | 3 | 4 } })
    .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
    .removeAlpha().jpeg({ quality: 85 }).toBuffer();
  return { src: dataUri('image/jpeg', jpeg), width, height };
}

/** The float map of a 16-bit raw map: value = offset + sample * scale, the NaN sample back to NaN. */
async function mapOfRaw(raw: NonNullable<ReportMapInput['raw']>, name: string): Promise<ForensicMap> {
  const { sidecar } = raw;
  const { data, info } = await sharp(raw.png).toColourspace('grey16').raw({ depth: 'ushort' }).toBuffer({ resolveWithObject: true });
  if (info.width !== sidecar.width || info.height !== sidecar.height || info.channels !== 1) {
    throw new RangeError(`Expected a ${sidecar.width}x${sidecar.height} grayscale PNG for the raw map of ${name} but received ${info.width}x${info.height}x${info.channels}`);
  }
  const samples = new Uint16Array(data.buffer, data.byteOffset, data.length / 2);
  const values = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i]!;
    values[i] = s === sidecar.nanSample ? NaN : sidecar.offset + s * sidecar.scale;
  }
  const hi = sidecar.max > sidecar.min ? sidecar.max : sidecar.min + 1;
  return { name: sidecar.name, data: values, width: sidecar.width, height: sidecar.height, cellSize: sidecar.cellSize, displayRange: [sidecar.min, hi] };
}

/** Short labels for evenly spaced values: as many decimals as the span needs, trailing zeros dropped. */
export function legendTicks(lo: number, hi: number, count = 5): Array<{ position: number; label: string }> {
  const span = hi - lo;
  const decimals = Math.max(0, Math.min(4, 2 - Math.floor(Math.log10(span))));
  return Array.from({ length: count }, (_, i) => {
    const position = i / (count - 1);
    const value = lo + position * span;
    const label = Math.abs(value) >= 1e5 ? value.toExponential(1) : String(Number(value.toFixed(decimals)));
    return { position, label: label === '-0' ? '0' : label };
  });
}

/** The colour map as a CSS gradient of 17 stops (within 2/255 of the table between stops for viridis and inferno). */
export function legendGradient(colormap: ColormapName): string {
  const table = colormapTable(colormap);
  const stops: string[] = [];
  for (let i = 0; i <= 16; i++) {
    const k = Math.min(255, i * 16) * 3;
    stops.push(`rgb(${table[k]},${table[k + 1]},${table[k + 2]}) ${(i * 100) / 16}%`);
  }
  return `linear-gradient(to right, ${stops.join(', ')})`;
}

async function mapFigure(input: ReportMapInput, maxSide: number): Promise<ReportFigure> {
  if (typeof input?.name !== 'string' || input.name.length === 0) {
    throw new TypeError(`Expected non-empty string for map name but received ${String(input?.name)} of type ${typeof input?.name}`);
  }
  const base = {
    name: input.name,
    ...(input.detail !== undefined ? { detail: input.detail } : {}),
    ...(input.note !== undefined ? { note: input.note } : {}),
    ...(typeof input.score === 'number' && Number.isFinite(input.score) ? { score: Math.min(1, Math.max(0, input.score)) } : {}),
    secondary: input.secondary ?? false,
  };
  const given = [input.map, input.raw, input.error].filter((x) => x !== undefined).length;
  if (given !== 1) throw new TypeError(`Expected exactly one of map, raw or error for map "${input.name}" but received ${given}`);
  if (input.error !== undefined) return { ...base, error: input.error };
  const map = input.map ?? (await mapOfRaw(input.raw!, input.name));
  // A range the caller gives must be valid; a map's own display range that is empty (a constant map) is widened.
  const [lo, hi] = input.range ?? (map.displayRange[1] > map.displayRange[0] ? map.displayRange : [map.displayRange[0], map.displayRange[0] + 1]);
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || !(hi > lo)) {
    throw new RangeError(`Expected range [low, high] with finite high > low for map "${input.name}" but received [${lo}, ${hi}]`);
  }
  const colormap = input.colormap ?? 'inferno';
  const shown = downsampleMap(map, maxSide);
  let blank = 0;
  const values = map.data;
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i]!)) blank++;
  const png = await renderHeatmap(shown, { colormap, range: [lo, hi] });
  return {
    ...base,
    heatmap: {
      src: dataUri('image/png', png),
      width: shown.width,
      height: shown.height,
      pixelated: shown.cellSize >= 4,
      blankShare: map.data.length ? blank / map.data.length : 0,
    },
    legend: { gradient: legendGradient(colormap), ticks: legendTicks(lo, hi), label: input.scaleLabel ?? map.name, colormap },
  };
}

/**
 * Draws what a forensic report shows: the image (JPEG, at most `maxSide` pixels a side) and each map as a heat map PNG
 * with its colour scale. Any list of maps works, floats or 16-bit raw, so new methods and fused maps need no change
 * here. Bad input (no map, an empty range) is a `TypeError` or `RangeError` naming the map.
 */
export async function reportFigures(input: ReportFiguresInput): Promise<ReportFigures> {
  const maxSide = input.maxSide ?? 960;
  const mapMaxSide = input.mapMaxSide ?? 640;
  expectPositiveInteger('maxSide', maxSide);
  expectPositiveInteger('mapMaxSide', mapMaxSide);
  if (!Array.isArray(input.maps)) throw new TypeError(`Expected array for maps but received ${String(input.maps)} of type ${typeof input.maps}`);
  const [image, overall, maps] = await Promise.all([
    imageFigure(input.image, maxSide),
    input.overall ? mapFigure(input.overall, mapMaxSide) : Promise.resolve(undefined),
    Promise.all(input.maps.map((m) => mapFigure(m, mapMaxSide))),
  ]);
  return { image, ...(overall ? { overall } : {}), maps };
}
