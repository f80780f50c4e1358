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
