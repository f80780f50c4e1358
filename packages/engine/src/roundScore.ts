/** Decimals of the 0..100 scores in the results, as text compare and plagiarism report theirs. */
export const SCORE_DECIMALS = 2;

const SCALE = 10 ** SCORE_DECIMALS;

/**
 * A 0..100 score at the precision the results report: a model's 1.13e-7 reads 0 and 99.99567 reads 100, in the
 * JSON result and in the tool server's summary line alike.
 */
export function roundScore(score: number): number {
  return Math.round(score * SCALE) / SCALE;
}
