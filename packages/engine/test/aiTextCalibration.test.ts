import { describe, expect, it } from 'vitest';
import { createAiTextScorer, detectAiText } from '@content-analysis/classifiers';
import type { CalibrationProfile } from '@content-analysis/classifiers';
import { Engine, InvalidCalibrationProfileError } from '../src/index.js';
import { meteredEngine, rejection } from './helpers.js';

const ESSAY =
  'My grandmother kept bees behind the shed for almost forty years, and every August the whole house smelled of ' +
  'wax. She never wore gloves. When I asked her why, she said the bees knew her hands better than she did, which ' +
  'made no sense to me at nine and makes only a little more sense now. The honey was dark, almost bitter some ' +
  'years, and she sold it from a card table at the end of the lane with a coffee tin for the money.';

/** A profile whose threshold sits `offset` above the essay's own raw output, in every length bucket. */
async function profileAround(offset: number): Promise<CalibrationProfile> {
  const [whole] = await (await createAiTextScorer()).score(ESSAY);
  const bucket = (min_chars: number) => ({
    min_chars, n_human: 500, threshold: whole!.logit + offset, scale: 40_000, exceedances: 1, fpr_bound: 0.0094, meets_target: true,
  });
  return {
    kind: 'content-analysis/calibration-profile', format: 1, detector: { model: 'ai-text', version: '2.0.0' },
    created: '2026-11-27T12:00:00Z', target_fpr: 0.01, confidence: 0.95, method: 'test', human_texts: 500,
    buckets: [bucket(0), bucket(300), bucket(600)],
  };
}

describe('ai-content-detection with a deployment calibration profile', () => {
  for (const mode of ['thread', 'pool'] as const) {
    it(`scores every text and sentence against the profile (${mode})`, async () => {
      const profile = await profileAround(-30_000);
      const { engine, token } = await meteredEngine({ aiTextCalibration: profile, analysis: { mode } });
      const { result } = await engine.execute('ai-content-detection', { text: ESSAY }, { token });
      const expected = await detectAiText(ESSAY, { calibration: profile });
      expect(result.score).toBe(Math.round(expected.score * 100) / 100);
      // 30,000 above the threshold at a scale of 40,000: 100 * sigmoid(-1.5) = 18.24, flagged.
      expect(result.score).toBeCloseTo(100 / (1 + Math.exp(1.5)), 1);
      const sentences = result.sentences as Array<{ score: number }>;
      expect(sentences.map((s) => s.score)).toEqual(expected.sentences!.map((s) => Math.round(s.score * 100) / 100));
      expect(result.version).toBe('2.0.0');
    });
  }

  it('refuses another detector version with 400 and charges nothing; latest is the profile\'s', async () => {
    const { engine, ledger, accountId, token } = await meteredEngine({ aiTextCalibration: await profileAround(0), analysis: { mode: 'thread' } });
    const error = await rejection(engine.execute('ai-content-detection', { text: ESSAY, version: '2.1.0' }, { token }));
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.description).toBe(
      'The calibration profile in use was made for ai-text 2.0.0; it cannot calibrate ai-text 2.1.0 (omit version, or ask for 2.0.0)',
    );
    expect(await ledger.balance(accountId)).toBe(2000);
    const { result } = await engine.execute('ai-content-detection', { text: ESSAY, version: 'latest', sentences: false }, { token });
    expect(result.score).toBeCloseTo(50, 1);
  });

  it('will not start with a profile it cannot apply', async () => {
    const profile = await profileAround(0);
    expect(() => new Engine({ aiTextCalibration: { ...profile, buckets: [] } })).toThrow(InvalidCalibrationProfileError);
    expect(() => new Engine({ aiTextCalibration: { ...profile, detector: { model: 'custom:essays', version: '1' } } })).toThrow(
      'Invalid calibration profile given as aiTextCalibration: it was made for model custom:essays, not ai-text',
    );
  });
});
