/**
 * Winnowing (Schleimer, Wilkerson and Aiken 2003): of every window of `window` consecutive k-gram hashes, the
 * minimum is selected (the rightmost one on ties), and each selected position is recorded once. Any run shared
 * by two texts that spans at least `window + k - 1` words yields at least one common fingerprint, while only
 * about 2 / (window + 1) of the k-grams are kept.
 *
 * Returns the selected hashes in text order (a hash may repeat when it is selected at distinct positions).
 */
export function winnow(gramHashes: ArrayLike<number>, window: number): number[] {
  const n = gramHashes.length;
  const out: number[] = [];
  if (n === 0) return out;
  if (n <= window) {
    let min = 0;
    for (let i = 1; i < n; i++) if (gramHashes[i]! <= gramHashes[min]!) min = i;
    out.push(gramHashes[min]!);
    return out;
  }
  let lastSelected = -1;
  // Monotone deque of positions with increasing hashes: O(n) overall.
  const deque = new Int32Array(n);
  let head = 0;
  let tail = 0;
  for (let i = 0; i < n; i++) {
    const h = gramHashes[i]!;
    while (tail > head && gramHashes[deque[tail - 1]!]! >= h) tail--;
    deque[tail++] = i;
    if (deque[head]! <= i - window) head++;
    if (i >= window - 1) {
      const min = deque[head]!;
      if (min !== lastSelected) {
        out.push(gramHashes[min]!);
        lastSelected = min;
      }
    }
  }
  return out;
}
