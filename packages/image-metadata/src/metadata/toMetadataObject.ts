import type { Metadata } from 'sharp';

/** The documented `metadata` object (spec "metadata (object)"): required fields always, optional ones when present. */
export interface ImageMetadataObject {
  format: string;
  width: number;
  height: number;
  autoOrient: { width: number; height: number };
  space: string;
  channels: number;
  depth: string;
  isProgressive: boolean;
  isPalette: boolean;
  hasProfile: boolean;
  hasAlpha: boolean;
  orientation?: number;
  size?: number;
  density?: number;
  chromaSubsampling?: string;
  bitsPerSample?: number;
  pages?: number;
  pageHeight?: number;
  loop?: number;
  delay?: number[];
  pagePrimary?: number;
  background?: { r: number; g: number; b: number } | { gray: number };
  levels?: Record<string, unknown>[];
  subifds?: number;
  resolutionUnit?: string;
  formatMagick?: string;
  comments?: { keyword: string; text: string }[];
}

const OPTIONAL_NUMBERS = ['orientation', 'size', 'density', 'bitsPerSample', 'pages', 'pageHeight', 'loop', 'pagePrimary', 'subifds'] as const;
const OPTIONAL_STRINGS = ['chromaSubsampling', 'resolutionUnit', 'formatMagick'] as const;

/** Copies sharp's metadata into the documented shape, leaving out buffers (exif, icc, xmp...) and unknown fields. */
export function toMetadataObject(meta: Metadata): ImageMetadataObject {
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  const out: ImageMetadataObject = {
    format: meta.format ?? 'unknown',
    width,
    height,
    autoOrient: meta.autoOrient ? { width: meta.autoOrient.width, height: meta.autoOrient.height } : orient(width, height, meta.orientation),
    space: meta.space ?? 'unknown',
    channels: meta.channels ?? 0,
    depth: meta.depth ?? 'unknown',
    isProgressive: meta.isProgressive ?? false,
    isPalette: meta.isPalette ?? false,
    hasProfile: meta.hasProfile ?? false,
    hasAlpha: meta.hasAlpha ?? false,
  };
  for (const key of OPTIONAL_NUMBERS) {
    const value = meta[key];
    if (typeof value === 'number' && Number.isFinite(value)) out[key] = value;
  }
  for (const key of OPTIONAL_STRINGS) {
    const value = meta[key];
    if (typeof value === 'string' && value.length > 0) out[key] = value;
  }
  if (Array.isArray(meta.delay) && meta.delay.length > 0) out.delay = meta.delay.map((d) => Math.round(d));
  const background = meta.background as unknown;
  if (background && typeof background === 'object') {
    const bg = background as { r?: number; g?: number; b?: number; gray?: number };
    if (typeof bg.gray === 'number') out.background = { gray: bg.gray };
    else if (typeof bg.r === 'number' && typeof bg.g === 'number' && typeof bg.b === 'number') {
      out.background = { r: Math.round(bg.r), g: Math.round(bg.g), b: Math.round(bg.b) };
    }
  }
  if (Array.isArray(meta.levels) && meta.levels.length > 0) out.levels = meta.levels.map((l) => ({ ...l }));
  if (Array.isArray(meta.comments) && meta.comments.length > 0) {
    out.comments = meta.comments.map((c) => ({ keyword: String(c.keyword), text: String(c.text) }));
  }
  return out;
}

function orient(width: number, height: number, orientation: number | undefined): { width: number; height: number } {
  return orientation !== undefined && orientation >= 5 ? { width: height, height: width } : { width, height };
}
