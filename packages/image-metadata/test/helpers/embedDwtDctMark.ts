/**
 * A test-only embedder of the `dwtDct` mark as the decoder defines it (the float32 BGR convention, as the SDXL and
 * FLUX reference pipelines feed their encoder), written from the decoder's definition so that a mark can be put into
 * a photo of any size: the reference vectors are all 512 x 512. For each 8x8 pixel block (one 4x4 block of the Haar
 * approximation band of the U plane), the approximation coefficient of largest magnitude other than the first is
 * moved to the quarter (bit 0) or three quarters (bit 1) of its quantisation step, by shifting the blue channel of
 * its 2x2 pixels (U rises by 0.492 x (1 - 0.114) per unit of blue). Pixels are rounded and saturated to 8 bits, so
 * a few blocks lose their bit, as with the real encoders. Returns a new buffer.
 */
export function embedDwtDctMark(
  pixels: Uint8Array,
  width: number,
  height: number,
  channels: number,
  bits: Uint8Array,
  scale = 36,
): Uint8Array {
  const out = Uint8Array.from(pixels);
  const blocksWide = (width - (width % 4)) >> 3;
  const blocksHigh = (height - (height % 4)) >> 3;
  const rowStride = width * channels;
  const uPerBlue = 0.492 * (1 - 0.114);
  const u = (o: number) => (out[o + 2]! - (0.299 * out[o]! + 0.587 * out[o + 1]! + 0.114 * out[o + 2]!)) * 0.492 + 0.5;
  for (let by = 0; by < blocksHigh; by++) {
    for (let bx = 0; bx < blocksWide; bx++) {
      let bestAt = -1;
      let bestValue = 0;
      for (let k = 1; k < 16; k++) {
        const at = (by * 8 + (k >> 2) * 2) * rowStride + (bx * 8 + (k & 3) * 2) * channels;
        const value = (u(at) + u(at + channels) + u(at + rowStride) + u(at + rowStride + channels)) / 2;
        if (Math.abs(value) > Math.abs(bestValue) || bestAt < 0) {
          bestAt = at;
          bestValue = value;
        }
      }
      const bit = bits[(by * blocksWide + bx) % bits.length]!;
      const magnitude = Math.abs(bestValue);
      const target = (Math.floor(magnitude / scale) + 0.25 + 0.5 * bit) * scale;
      // The coefficient is half the sum of its four U values: each moves by half the change.
      const blueShift = ((Math.sign(bestValue) || 1) * (target - magnitude)) / 2 / uPerBlue;
      for (const o of [bestAt, bestAt + channels, bestAt + rowStride, bestAt + rowStride + channels]) {
        out[o + 2] = Math.max(0, Math.min(255, Math.round(out[o + 2]! + blueShift)));
      }
    }
  }
  return out;
}
