/**
 * Math.hypot(a, b) as V8 computes it (builtins-math: the arguments scaled by the larger magnitude, squares summed
 * with Kahan compensation, which is zero for the first term, then sqrt times the scale), bit for bit (tested), without
 * the builtin's variadic call, which V8 does not inline and which dominated the kernels' profiles.
 */
export function hypot(a: number, b: number): number {
  const x = a < 0 ? -a : a, y = b < 0 ? -b : b;
  if (x === Infinity || y === Infinity) return Infinity;
  if (x !== x || y !== y) return Number.NaN;
  const max = x > y ? x : y;
  if (max === 0) return 0;
  const p = x / max, q = y / max;
  return Math.sqrt(p * p + q * q) * max;
}
