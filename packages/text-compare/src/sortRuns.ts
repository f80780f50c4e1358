/** Flat run triples `[aStart, bStart, length, ...]` sorted by `aStart`. */
export function sortRuns(flat: ArrayLike<number>): Int32Array {
  const count = flat.length / 3;
  const order = Array.from({ length: count }, (_, r) => r).sort((x, y) => flat[3 * x]! - flat[3 * y]!);
  const runs = new Int32Array(flat.length);
  order.forEach((r, index) => runs.set([flat[3 * r]!, flat[3 * r + 1]!, flat[3 * r + 2]!], 3 * index));
  return runs;
}
