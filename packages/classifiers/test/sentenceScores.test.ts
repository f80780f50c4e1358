import { describe, expect, it } from 'vitest';
import { anchoredSentenceLogits, createAiTextScorer, detectAiText, HUMAN_SCORE_THRESHOLD, InvalidInputError } from '../src/index.js';
import type { CalibrationProfile } from '../src/index.js';
import { longText } from './helpers.js';

describe('anchoredSentenceLogits', () => {
  it('moves each sentence from the document logit by its distance from the length-weighted mean', () => {
    // Mean of 1 (weight 3) and -3 (weight 1) is 0: the sentences keep their distances around the document's -2.
    expect(anchoredSentenceLogits(-2, [1, -3], [3, 1])).toEqual([-1, -5]);
    expect(anchoredSentenceLogits(4, [7, 7], [1, 5])).toEqual([4, 4]);
    expect(() => anchoredSentenceLogits(0, [1], [])).toThrow('Expected one weight per sentence logit');
  });
});

describe('sentence scores against the document score', () => {
  const text = longText(2400);
  /** A profile that flags this text: its threshold sits below the text's raw output in every bucket. */
  async function flaggingProfile(): Promise<CalibrationProfile> {
    const [whole] = await (await createAiTextScorer()).score(text);
    const bucket = (min_chars: number) => ({
      min_chars, n_human: 400, threshold: whole!.logit - 20_000, scale: 60_000, exceedances: 0, fpr_bound: 0.0075, meets_target: true,
    });
    return {
      kind: 'content-analysis/calibration-profile', format: 1, detector: { model: 'ai-text', version: '2.0.0' },
      created: '2026-11-27T12:00:00Z', target_fpr: 0.01, confidence: 0.95, method: 'test', human_texts: 400,
      buckets: [bucket(0), bucket(300), bucket(600), bucket(1200)],
    };
  }

  it('marks sentences of a flagged document, in the order of their own scores', async () => {
    const calibration = await flaggingProfile();
    const anchored = await detectAiText(text, { calibration });
    const independent = await detectAiText(text, { calibration, sentenceScores: 'independent' });
    expect(anchored.score).toBeLessThan(HUMAN_SCORE_THRESHOLD);
    expect(anchored.score).toBe(independent.score);
    const marked = anchored.sentences!.filter((s) => s.score < HUMAN_SCORE_THRESHOLD).length;
    expect(marked).toBeGreaterThan(0);
    // Anchoring keeps the order of the sentences within the document (ties aside).
    const order = (r: typeof anchored) => r.sentences!.map((s, i) => [s.score, i] as const).sort((a, b) => a[0] - b[0]).map(([, i]) => i);
    const own = independent.sentences!.map((s) => s.score);
    const ranked = order(anchored).map((i) => own[i]!);
    for (let k = 1; k < ranked.length; k++) expect(ranked[k]!).toBeGreaterThanOrEqual(ranked[k - 1]! - 1e-9);
  });

  it('refuses an unknown way of scoring sentences', async () => {
    await expect(detectAiText(text, { sentenceScores: 'other' as 'anchored' })).rejects.toThrow(InvalidInputError);
  });
});
