export const STEPS = 2048;
/** 2^(-j / 2048), j = 0..2047. */
export const FRACTION = Float64Array.from({ length: STEPS }, (_, j) => 2 ** (-j / STEPS));
/** 2^(-i), i = 0..1075 (the last ones subnormal, 2^-1075 rounds to 0). */
export const WHOLE = Float64Array.from({ length: 1076 }, (_, i) => 2 ** -i);
export const TO_STEPS = STEPS / Math.LN2;
export const FROM_STEPS = Math.LN2 / STEPS;

/**
 * exp(-d) for d >= 0 within a few ulp of Math.exp (tested), about three times faster: d is split into whole and
 * 1/2048 steps of ln 2, read from two tables, and the remainder (below ln 2 / 2048) by a cubic Taylor polynomial,
 * whose error r^4 / 24 is under 6e-16. For the EM fit, which evaluates it millions of times.
 */
export function expNegative(d: number): number {
  const u = d * TO_STEPS;
  if (!(u < 1075 * STEPS)) return u === u ? 0 : Number.NaN;
  const k = Math.floor(u);
  const r = (u - k) * FROM_STEPS;
  return WHOLE[k >> 11]! * FRACTION[k & 2047]! * (1 - r * (1 - r * (0.5 - r * (1 / 6))));
}
