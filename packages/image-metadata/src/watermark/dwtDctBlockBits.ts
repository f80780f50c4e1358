/**
 * The per-block bit votes of the `dwtDct` watermark: one level of the Haar DWT of the plane (approximation band
 * cA = (a + b + c + d) / 2 over each 2x2 cell), then, for each 4x4 block of cA in raster order, the entry of
 * largest magnitude other than the block's first one votes 1 when |c| mod scale > scale / 2, else 0. (Despite
 * its name, invisible-watermark's `dwtDct` decoder quantises the wavelet coefficients themselves, not a DCT of
 * them; only the U plane carries the mark.) Block i votes for payload bit i mod n. Pure kernel.
 */
export function dwtDctBlockBits(plane: { data: Float32Array; width: number; height: number }, scale: number): Uint8Array {
  const cw = plane.width >> 1;
  const ch = plane.height >> 1;
  const bw = cw >> 2;
  const bh = ch >> 2;
  const votes = new Uint8Array(bw * bh);
  const src = plane.data;
  const stride = plane.width;
  const block = new Float64Array(16);
  const half = scale / 2;
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      for (let i = 0; i < 4; i++) {
        const row = (by * 4 + i) * 2;
        for (let j = 0; j < 4; j++) {
          const col = (bx * 4 + j) * 2;
          const o = row * stride + col;
          block[i * 4 + j] = (src[o]! + src[o + 1]! + src[o + stride]! + src[o + stride + 1]!) / 2;
        }
      }
      let best = -1;
      for (let k = 1; k < 16; k++) {
        const magnitude = Math.abs(block[k]!);
        // Strictly greater: the first maximum wins, as numpy's argmax.
        if (magnitude > best) best = magnitude;
      }
      votes[by * bw + bx] = best % scale > half ? 1 : 0;
    }
  }
  return votes;
}

/**
 * Folds block votes into an n-bit payload: bit i is 1 when the mean vote of blocks i, i + n, i + 2n... exceeds
 * 127/255 (invisible-watermark's rule).
 */
export function foldVotes(votes: Uint8Array, length: number): Uint8Array {
  const sums = new Float64Array(length);
  const counts = new Float64Array(length);
  for (let i = 0; i < votes.length; i++) {
    sums[i % length] = sums[i % length]! + votes[i]!;
    counts[i % length] = counts[i % length]! + 1;
  }
  const bits = new Uint8Array(length);
  for (let i = 0; i < length; i++) bits[i] = counts[i]! > 0 && (sums[i]! / counts[i]!) * 255 > 127 ? 1 : 0;
  return bits;
}
