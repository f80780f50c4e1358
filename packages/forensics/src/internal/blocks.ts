/** Mean of each `block` x `block` tile of a plane; partial tiles at the right and bottom edges average what they hold. */
export function blockMean(plane: Float32Array, width: number, height: number, block: number): { data: Float32Array; width: number; height: number } {
  const bw = Math.ceil(width / block);
  const bh = Math.ceil(height / block);
  const sum = new Float64Array(bw * bh);
  const count = new Float64Array(bw * bh);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / block) * bw;
    for (let x = 0; x < width; x++) {
      const b = row + Math.floor(x / block);
      sum[b]! += plane[y * width + x]!;
      count[b]! += 1;
    }
  }
  const data = new Float32Array(bw * bh);
  for (let i = 0; i < data.length; i++) data[i] = sum[i]! / count[i]!;
  return { data, width: bw, height: bh };
}
