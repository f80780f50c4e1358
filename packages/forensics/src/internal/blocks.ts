/** Mean of each `block` x `block` tile of a plane; partial tiles at the right and bottom edges average what they hold. */
export function blockMean(plane: Float32Array, width: number, height: number, block: number): { data: Float32Array; width: number; height: number } {
  const bw = Math.ceil(width / block);
  const bh = Math.ceil(height / block);
  const sum = new Float64Array(bw * bh);
  // Row by row, each tile's running sum is loaded, extended over its span of the row and stored: the additions
  // happen in the same order as one pixel at a time, so the sums are bit for bit those of a pixel-order loop.
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / block) * bw;
    let i = y * width;
    for (let bx = 0, x0 = 0; x0 < width; bx++, x0 += block) {
      const end = y * width + Math.min(width, x0 + block);
      let s = sum[row + bx]!;
      for (; i < end; i++) s += plane[i]!;
      sum[row + bx] = s;
    }
  }
  return { data: blockMeansFromSums(sum, width, height, block), width: bw, height: bh };
}

/** Block means from block sums (row-major, ceil(width / block) across) of a width x height plane: partial tiles count what they hold. */
export function blockMeansFromSums(sum: Float64Array, width: number, height: number, block: number): Float32Array {
  const bw = Math.ceil(width / block), bh = Math.ceil(height / block);
  const data = new Float32Array(bw * bh);
  for (let by = 0; by < bh; by++) {
    const rows = Math.min(block, height - by * block);
    for (let bx = 0; bx < bw; bx++) data[by * bw + bx] = sum[by * bw + bx]! / (rows * Math.min(block, width - bx * block));
  }
  return data;
}
