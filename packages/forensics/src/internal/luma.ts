import type { PixelBuffer } from '../types.js';

/**
 * Luma as MATLAB's `rgb2ycbcr` computes it (ITU-R BT.601 studio swing, Y in 16..235 for 8-bit RGB):
 * Y = 16 + (65.481 R + 128.553 G + 24.966 B) / 255. Grey images map through the same 16 + 219 v / 255 scale.
 * `round` reproduces MATLAB's uint8 result, which the wavelet noise reference (NOI1) is computed on.
 * Rounding is floor(y + 0.5) for y >= 0.5, which equals Math.round there (y + 0.5 is exact from 0.5 up) and is
 * several times faster in V8.
 */
export function studioLuma(image: PixelBuffer, round: boolean): Float32Array {
  const { data, width, height, channels } = image;
  const n = width * height;
  const out = new Float32Array(n);
  if (channels >= 3) {
    for (let i = 0, p = 0; i < n; i++, p += channels) {
      const y = 16 + (65.481 * data[p]! + 128.553 * data[p + 1]! + 24.966 * data[p + 2]!) / 255;
      out[i] = round ? (y >= 0.5 ? Math.floor(y + 0.5) : Math.round(y)) : y;
    }
  } else {
    for (let i = 0, p = 0; i < n; i++, p += channels) {
      const y = 16 + (219 * data[p]!) / 255;
      out[i] = round ? (y >= 0.5 ? Math.floor(y + 0.5) : Math.round(y)) : y;
    }
  }
  return out;
}

/** Row `y` of `studioLuma(image, round)` into `out` (width samples), for kernels that stream rows. */
export function studioLumaRow(image: PixelBuffer, y: number, round: boolean, out: Float32Array): void {
  const { data, width, channels } = image;
  let p = y * width * channels;
  if (channels >= 3) {
    for (let x = 0; x < width; x++, p += channels) {
      const v = 16 + (65.481 * data[p]! + 128.553 * data[p + 1]! + 24.966 * data[p + 2]!) / 255;
      out[x] = round ? (v >= 0.5 ? Math.floor(v + 0.5) : Math.round(v)) : v;
    }
  } else {
    for (let x = 0; x < width; x++, p += channels) {
      const v = 16 + (219 * data[p]!) / 255;
      out[x] = round ? (v >= 0.5 ? Math.floor(v + 0.5) : Math.round(v)) : v;
    }
  }
}

/** One channel as Float32 (channel index clamped to what the image has, so grey images give their only channel). */
export function channelPlane(image: PixelBuffer, channel: number): Float32Array {
  const { data, width, height, channels } = image;
  const c = Math.min(channel, channels - 1);
  const out = new Float32Array(width * height);
  for (let i = 0, p = c; i < out.length; i++, p += channels) out[i] = data[p]!;
  return out;
}

/** The luma planes kernels share: `studioLuma(image, false)` and, as bytes, `studioLuma(image, true)`. */
export interface LumaPlanes {
  luma: Float32Array;
  /** Rounded luma, 16..235 for 8-bit pixels. */
  rounded: Uint8Array;
}

/**
 * Both luma planes of an 8-bit image in one pass (one division per pixel instead of one per kernel), in shared
 * memory when `shared` (for the worker pool). Undefined for float pixels, whose rounded luma need not fit a byte.
 */
export function studioLumaPlanes(image: PixelBuffer, shared = false): LumaPlanes | undefined {
  const planes = allocateLumaPlanes(image, shared);
  if (planes) studioLumaPlanesRows(image, planes, 0, image.height);
  return planes;
}

/** Empty luma planes for `image` (undefined for float pixels), in shared memory when `shared`. */
export function allocateLumaPlanes(image: PixelBuffer, shared: boolean): LumaPlanes | undefined {
  if (!(image.data instanceof Uint8Array)) return undefined;
  const n = image.width * image.height;
  return {
    luma: new Float32Array(shared ? new SharedArrayBuffer(4 * n) : new ArrayBuffer(4 * n)),
    rounded: new Uint8Array(shared ? new SharedArrayBuffer(n) : new ArrayBuffer(n)),
  };
}

/** Rows [y0, y1) of both luma planes of an 8-bit image, written into `planes` (a band of `studioLumaPlanes`). */
export function studioLumaPlanesRows(image: PixelBuffer, planes: LumaPlanes, y0: number, y1: number): void {
  const { data, width, channels } = image;
  const { luma, rounded } = planes;
  const end = y1 * width;
  if (channels >= 3) {
    for (let i = y0 * width, p = i * channels; i < end; i++, p += channels) {
      const y = 16 + (65.481 * data[p]! + 128.553 * data[p + 1]! + 24.966 * data[p + 2]!) / 255;
      luma[i] = y;
      rounded[i] = Math.floor(y + 0.5);
    }
  } else {
    for (let i = y0 * width, p = i * channels; i < end; i++, p += channels) {
      const y = 16 + (219 * data[p]!) / 255;
      luma[i] = y;
      rounded[i] = Math.floor(y + 0.5);
    }
  }
}
