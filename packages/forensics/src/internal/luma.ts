import type { PixelBuffer } from '../types.js';

/**
 * Luma as MATLAB's `rgb2ycbcr` computes it (ITU-R BT.601 studio swing, Y in 16..235 for 8-bit RGB):
 * Y = 16 + (65.481 R + 128.553 G + 24.966 B) / 255. Grey images map through the same 16 + 219 v / 255 scale.
 * `round` reproduces MATLAB's uint8 result, which the wavelet noise reference (NOI1) is computed on.
 */
export function studioLuma(image: PixelBuffer, round: boolean): Float32Array {
  const { data, width, height, channels } = image;
  const n = width * height;
  const out = new Float32Array(n);
  if (channels >= 3) {
    for (let i = 0, p = 0; i < n; i++, p += channels) {
      const y = 16 + (65.481 * data[p]! + 128.553 * data[p + 1]! + 24.966 * data[p + 2]!) / 255;
      out[i] = round ? Math.round(y) : y;
    }
  } else {
    for (let i = 0, p = 0; i < n; i++, p += channels) {
      const y = 16 + (219 * data[p]!) / 255;
      out[i] = round ? Math.round(y) : y;
    }
  }
  return out;
}

/** One channel as Float32 (channel index clamped to what the image has, so grey images give their only channel). */
export function channelPlane(image: PixelBuffer, channel: number): Float32Array {
  const { data, width, height, channels } = image;
  const c = Math.min(channel, channels - 1);
  const out = new Float32Array(width * height);
  for (let i = 0, p = c; i < out.length; i++, p += channels) out[i] = data[p]!;
  return out;
}
