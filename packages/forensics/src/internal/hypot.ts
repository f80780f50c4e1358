/**
 * Math.hypot(a, b) as V8 computes it (builtins-math: the arguments scaled by the larger magnitude, squares summed
 * with Kahan compensation, which is zero for the first term, then sqrt times the scale), bit for bit (tested), without
 * the builtin's variadic call, which V8 does not inline and which dominated the kernels' profiles; one division
 * instead of two.
 */
export function hypot(a: number, b: number): number {
  const x = a < 0 ? -a : a, y = b < 0 ? -b : b;
  if (x === Infinity || y === Infinity) return Infinity;
  if (x !== x || y !== y) return Number.NaN;
  const max = x > y ? x : y;
  if (max === 0) return 0;
  // The larger argument over max is exactly 1 (and 1 * 1 = 1), so only the smaller one needs a division.
  const r = (x > y ? y : x) / max;
  return Math.sqrt(1 + r * r) * max;
}

/**
 * `hypot` for finite arguments only (no infinity or NaN tests), with Math.abs, Math.max and Math.min, which V8
 * compiles without branches; `hypot`'s conditionals mispredict on gradients of random sign. Same value: for equal
 * magnitudes either one is the maximum, and 0 / 0 (both zero) is replaced by 0.
 */
export function finiteHypot(a: number, b: number): number {
  const x = Math.abs(a), y = Math.abs(b);
  const max = Math.max(x, y);
  const r = Math.min(x, y) / max;
  return max === 0 ? 0 : Math.sqrt(1 + r * r) * max;
}
