import { sharp } from '../runtime/lazySharp.js';

/** How an image becomes `pixel_values`, read from a Hugging Face `preprocessor_config.json`. */
export interface ImagePreprocessing {
  /** The resize: none, to exact dimensions, shortest edge to a length (aspect kept), or ConvNeXt's crop_pct rule. */
  resize:
    | { kind: 'none' }
    | { kind: 'exact'; width: number; height: number }
    | { kind: 'shortest-edge'; edge: number }
    | { kind: 'crop-pct'; edge: number; cropPct: number };
  /** Centre crop after the resize. */
  crop: { width: number; height: number } | undefined;
  kernel: 'nearest' | 'linear' | 'cubic' | 'lanczos3';
  /** Multiplies the 0..255 values (`rescale_factor`), 1 when `do_rescale` is false. */
  rescale: number;
  /** Per-channel mean and standard deviation (0 and 1 when `do_normalize` is false). */
  mean: [number, number, number];
  std: [number, number, number];
  /** Width and height of every output, when fixed by the configuration. */
  output: { width: number; height: number } | undefined;
}

/** PIL resampling filters, as the configurations number them, and the sharp kernel each is read with. */
const KERNELS: Record<number, ImagePreprocessing['kernel']> = { 0: 'nearest', 1: 'lanczos3', 2: 'linear', 3: 'cubic' };

/** ConvNeXt keeps the crop_pct rule below this shortest edge and resizes to a square at or above it. */
const CROP_PCT_LIMIT = 384;

/**
 * Reads a `preprocessor_config.json` as the Hugging Face image processors apply it (resize by `size` as exact
 * height/width, as `shortest_edge`, or ConvNeXt's `crop_pct` rule; centre crop by `crop_size`; rescale by
 * `rescale_factor`; normalise by `image_mean`/`image_std`). Anything it cannot apply faithfully is refused with the
 * reason (`refuse`), rather than approximated silently.
 */
export function readPreprocessing(config: Record<string, unknown>, refuse: (reason: string) => never): ImagePreprocessing {
  const flag = (key: string, fallback: boolean): boolean => {
    const v = config[key];
    if (v === undefined) return fallback;
    if (typeof v !== 'boolean') refuse(`preprocessor_config.json: ${key} must be true or false`);
    return v as boolean;
  };
  const type = String(config.image_processor_type ?? config.feature_extractor_type ?? '');
  const resample = config.resample ?? 2;
  const kernel = KERNELS[resample as number];
  if (kernel === undefined) refuse(`preprocessor_config.json: resample ${JSON.stringify(resample)} is not one of 0 (nearest), 1 (lanczos), 2 (bilinear), 3 (bicubic)`);

  let resize: ImagePreprocessing['resize'] = { kind: 'none' };
  if (flag('do_resize', true)) {
    const size = dimensions(config.size, 'size', refuse);
    if ('width' in size) resize = { kind: 'exact', width: size.width, height: size.height };
    else if (/ConvNext/i.test(type) && config.crop_pct !== undefined) {
      const cropPct = config.crop_pct;
      if (typeof cropPct !== 'number' || !(cropPct > 0 && cropPct <= 1)) refuse('preprocessor_config.json: crop_pct must be in (0, 1]');
      resize = size.edge >= CROP_PCT_LIMIT ? { kind: 'exact', width: size.edge, height: size.edge } : { kind: 'crop-pct', edge: size.edge, cropPct: cropPct as number };
    } else resize = { kind: 'shortest-edge', edge: size.edge };
  }
  let crop: ImagePreprocessing['crop'];
  if (resize.kind === 'crop-pct') crop = { width: resize.edge, height: resize.edge };
  if (flag('do_center_crop', false)) {
    const size = dimensions(config.crop_size, 'crop_size', refuse);
    crop = 'width' in size ? size : { width: size.edge, height: size.edge };
  }
  const rescale = flag('do_rescale', true) ? Number(config.rescale_factor ?? 1 / 255) : 1;
  if (!(rescale > 0)) refuse('preprocessor_config.json: rescale_factor must be a positive number');
  let mean: [number, number, number] = [0, 0, 0];
  let std: [number, number, number] = [1, 1, 1];
  if (flag('do_normalize', true)) {
    mean = triple(config.image_mean, 'image_mean', refuse);
    std = triple(config.image_std, 'image_std', refuse);
    if (std.some((s) => s <= 0)) refuse('preprocessor_config.json: image_std must be positive');
  }
  const output = crop ?? (resize.kind === 'exact' ? { width: resize.width, height: resize.height } : undefined);
  return { resize, crop, kernel: kernel!, rescale, mean, std, output };
}

function dimensions(value: unknown, key: string, refuse: (reason: string) => never): { width: number; height: number } | { edge: number } {
  const positive = (v: unknown) => Number.isSafeInteger(v) && (v as number) > 0;
  if (positive(value)) return { width: value as number, height: value as number };
  const v = value as Record<string, unknown> | null | undefined;
  if (v && positive(v.height) && positive(v.width)) return { width: v.width as number, height: v.height as number };
  if (v && positive(v.shortest_edge) && v.longest_edge === undefined) return { edge: v.shortest_edge as number };
  return refuse(`preprocessor_config.json: ${key} ${JSON.stringify(value)} is not read (expected a number, {height, width} or {shortest_edge})`);
}

function triple(value: unknown, key: string, refuse: (reason: string) => never): [number, number, number] {
  if (typeof value === 'number') return [value, value, value];
  if (Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === 'number')) return value as [number, number, number];
  return refuse(`preprocessor_config.json: ${key} must be three numbers (RGB)`);
}

/** The resized size of an image `width` x `height` (before the crop). */
export function resizedSize(p: ImagePreprocessing, width: number, height: number): { width: number; height: number } {
  const r = p.resize;
  if (r.kind === 'none') return { width, height };
  if (r.kind === 'exact') return { width: r.width, height: r.height };
  // The shortest edge becomes `edge` (crop-pct: edge / crop_pct), the other keeps the aspect, rounded down.
  const edge = r.kind === 'crop-pct' ? Math.floor(r.edge / r.cropPct) : r.edge;
  return width <= height
    ? { width: edge, height: Math.floor((edge * height) / width) }
    : { width: Math.floor((edge * width) / height), height: edge };
}

/**
 * `pixel_values` of one encoded image, channels first (RGB), as the configuration says: oriented by its EXIF
 * orientation, alpha dropped, resized, centre-cropped (zero padding where the crop is larger), rescaled and
 * normalised.
 */
export async function preprocessImage(bytes: Uint8Array, p: ImagePreprocessing): Promise<{ data: Float32Array; width: number; height: number }> {
  const oriented = sharp(bytes, { failOn: 'none' }).rotate();
  const meta = await sharp(bytes, { failOn: 'none' }).metadata();
  const size = resizedSize(p, meta.autoOrient.width, meta.autoOrient.height);
  let pipeline = oriented.removeAlpha().toColourspace('srgb');
  if (p.resize.kind !== 'none') pipeline = pipeline.resize(size.width, size.height, { fit: 'fill', kernel: p.kernel });
  const raw = await pipeline.raw().toBuffer({ resolveWithObject: true });
  if (raw.info.channels !== 3) throw new Error(`expected 3 channels after conversion to sRGB, got ${raw.info.channels}`);
  const { width, height } = raw.info;
  const out = p.crop ?? { width, height };
  // Centre crop (HF: top = (height - crop height) // 2); negative offsets pad with zeros.
  const top = Math.floor((height - out.height) / 2);
  const left = Math.floor((width - out.width) / 2);
  const plane = out.width * out.height;
  const data = new Float32Array(3 * plane);
  for (let c = 0; c < 3; c++) {
    const zero = (0 - p.mean[c]!) / p.std[c]!;
    for (let y = 0; y < out.height; y++) {
      const sy = y + top;
      for (let x = 0; x < out.width; x++) {
        const sx = x + left;
        data[c * plane + y * out.width + x] = sy < 0 || sx < 0 || sy >= height || sx >= width
          ? zero
          : (raw.data[(sy * width + sx) * 3 + c]! * p.rescale - p.mean[c]!) / p.std[c]!;
      }
    }
  }
  return { data, width: out.width, height: out.height };
}
