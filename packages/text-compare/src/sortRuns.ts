/** Flat run triples `[aStart, bStart, length, ...]` sorted by `aStart`. */
export function sortRuns(flat: ArrayLike<number>): Int32Array {
  const count = flat.length / 3;
  const order = Array.from({ length: count }, (_, r) => r).sort((x, y) => flat[3 * x]! - flat[3 * y]!);
  const runs = new Int32Array(flat.length);
  // Copied value by value: a three-element array per run, as `set` needs, cost more than the sort.
  for (let i = 0; i < count; i++) {
    const r = order[i]!;
    runs[3 * i] = flat[3 * r]!;
    runs[3 * i + 1] = flat[3 * r + 1]!;
    runs[3 * i + 2] = flat[3 * r + 2]!;
  }
  return runs;
}
