/**
 * Exact shortest edit script of `a[a0, a1)` and `b[b0, b1)` (Myers 1986, "An O(ND) difference algorithm and
 * its variations"), giving up once more than `maxEdits` insertions and deletions would be needed.
 *
 * Returns the common runs as flat triples `[aStart, bStart, length, ...]` in increasing order, or `null` when the
 * budget is exceeded. Time O((N + M) · D), memory O(D²) for the trace that recovers the path.
 */
export function myersDiff(
  a: Int32Array, a0: number, a1: number,
  b: Int32Array, b0: number, b1: number,
  maxEdits: number,
): number[] | null {
  const n = a1 - a0;
  const m = b1 - b0;
  const max = Math.min(maxEdits, n + m);
  if (Math.abs(n - m) > max) return null;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace holds, after step d, the furthest x of diagonals k = -d, -d + 2, ..., d at trace[d(d+1)/2 + (k+d)/2].
  let trace = new Int32Array(Math.min(1024, ((max + 1) * (max + 2)) / 2));
  for (let d = 0; d <= max; d++) {
    const base = (d * (d + 1)) >> 1;
    if (base + d + 1 > trace.length) {
      const grown = new Int32Array(Math.min(((max + 1) * (max + 2)) / 2, 2 * trace.length + d + 1));
      grown.set(trace);
      trace = grown;
    }
    for (let k = -d; k <= d; k += 2) {
      let x: number;
      if (k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)) x = v[offset + k + 1]!;
      else x = v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[a0 + x] === b[b0 + y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      trace[base + ((k + d) >> 1)] = x;
      if (x >= n && y >= m) return backtrack(trace, d, k, a0, b0);
    }
  }
  return null;
}

function backtrack(trace: Int32Array, dEnd: number, kEnd: number, a0: number, b0: number): number[] {
  const reversed: number[] = [];
  let k = kEnd;
  for (let d = dEnd; d >= 0; d--) {
    const x = trace[((d * (d + 1)) >> 1) + ((k + d) >> 1)]!;
    let snakeStart: number;
    let prevK = k;
    if (d === 0) {
      snakeStart = 0;
    } else {
      const prevBase = ((d - 1) * d) >> 1;
      const down = k === -d || (k !== d && trace[prevBase + ((k - 1 + d - 1) >> 1)]! < trace[prevBase + ((k + 1 + d - 1) >> 1)]!);
      prevK = down ? k + 1 : k - 1;
      const prevX = trace[prevBase + ((prevK + d - 1) >> 1)]!;
      snakeStart = down ? prevX : prevX + 1;
    }
    if (x > snakeStart) reversed.push(x - snakeStart, b0 + snakeStart - k, a0 + snakeStart);
    k = prevK;
  }
  return reversed.reverse();
}
