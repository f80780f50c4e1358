/** How the decoder reads pixels, mirroring the conventions of the generators' own tools (see the dataset README). */
export type ChromaConvention = 'uint8_bgr' | 'uint8_rgb_as_bgr' | 'float32_bgr' | 'float32_rgb_as_bgr';

/** All four conventions: files written by different pipelines decode under different ones. */
export const CHROMA_CONVENTIONS: readonly ChromaConvention[] = ['uint8_bgr', 'uint8_rgb_as_bgr', 'float32_bgr', 'float32_rgb_as_bgr'];

/**
 * The U plane of OpenCV's BGR->YUV conversion (U = 0.492 (B - Y) + delta) over the top-left crop whose sides are
 * multiples of 4, from interleaved RGB(A) bytes. `rgb_as_bgr` swaps R and B as a pipeline that passed RGB to a
 * BGR API did; `uint8` rounds and saturates as OpenCV's 8-bit fixed-point path does (Y rounded first), `float32` does not.
 * Pure kernel: no I/O.
 */
export function chromaPlane(
  pixels: Uint8Array,
  width: number,
  height: number,
  channels: number,
  convention: ChromaConvention,
): { data: Float32Array; width: number; height: number } {
  const w = width - (width % 4);
  const h = height - (height % 4);
  const data = new Float32Array(w * h);
  const swap = convention.endsWith('rgb_as_bgr');
  const integer = convention.startsWith('uint8');
  // The blue channel as OpenCV sees it: real blue, or red when RGB bytes were handed over as BGR.
  const blueAt = swap ? 0 : 2;
  const redAt = swap ? 2 : 0;
  for (let y = 0; y < h; y++) {
    let p = y * width * channels;
    let q = y * w;
    for (let x = 0; x < w; x++, p += channels, q++) {
      const r = pixels[p + redAt]!;
      const g = pixels[p + 1]!;
      const b = pixels[p + blueAt]!;
      if (integer) {
        // OpenCV's 8-bit path: 14-bit fixed point (0.299, 0.587, 0.114 and 0.492 scaled by 2^14), rounded shifts.
        const luma = (r * 4899 + g * 9617 + b * 1868 + 8192) >> 14;
        const u = ((b - luma) * 8061 + (128 << 14) + 8192) >> 14;
        data[q] = u < 0 ? 0 : u > 255 ? 255 : u;
      } else {
        data[q] = (b - (0.299 * r + 0.587 * g + 0.114 * b)) * 0.492 + 0.5;
      }
    }
  }
  return { data, width: w, height: h };
}
