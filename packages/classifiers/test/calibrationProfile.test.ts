import { describe, expect, it } from 'vitest';
import {
  CalibrationMismatchError, createAiTextScorer, createCalibrationProfile, detectAiText, humanScore,
  InsufficientHumanTextError, InvalidCalibrationProfileError, parseCalibrationProfile,
} from '../src/index.js';
import type { CalibrationProfile, CalibrationScorer } from '../src/index.js';
import { longText, PROSE } from './helpers.js';

/** A profile for ai-text 2.0.0 with thresholds set by hand around a known raw output. */
function profileAround(threshold: number, version = '2.0.0'): CalibrationProfile {
  const bucket = (min_chars: number) => ({
    min_chars, n_human: 400, threshold, scale: 50_000, exceedances: 0, fpr_bound: 0.0075, meets_target: true,
  });
  return {
    kind: 'content-analysis/calibration-profile',
    format: 1,
    detector: { model: 'ai-text', version },
    created: '2026-11-27T12:00:00.000Z',
    target_fpr: 0.01,
    confidence: 0.95,
    method: 'set by hand for a test',
    human_texts: 400,
    buckets: [bucket(0), bucket(300), bucket(600), bucket(1200), bucket(2400)],
  };
}

describe('calibration profiles', () => {
  it('accepts a valid profile and names the first problem of a bad one', () => {
    const good = profileAround(0);
    expect(parseCalibrationProfile(JSON.parse(JSON.stringify(good)))).toEqual(good);
    const bad = (change: (p: Record<string, any>) => void) => {
      const p = JSON.parse(JSON.stringify(good));
      change(p);
      return () => parseCalibrationProfile(p, 'profile.json');
    };
    expect(() => parseCalibrationProfile([], 'profile.json')).toThrow('Invalid calibration profile profile.json: expected a JSON object but received []');
    expect(bad((p) => { p.kind = 'x'; })).toThrow('kind must be "content-analysis/calibration-profile" but is "x"');
    expect(bad((p) => { p.format = 2; })).toThrow('format 2 is not readable by this version (reads 1)');
    expect(bad((p) => { p.detector.version = 'latest'; })).toThrow('detector.version must be an exact version, not latest');
    expect(bad((p) => { p.target_fpr = 1.5; })).toThrow('target_fpr must be a number in (0, 1) but is 1.5');
    expect(bad((p) => { p.buckets[0].min_chars = 10; })).toThrow('buckets[0].min_chars must be 0');
    expect(bad((p) => { p.buckets[2].min_chars = 300; })).toThrow('buckets[2].min_chars must be greater than the previous bucket\'s');
    expect(bad((p) => { p.buckets[1].threshold = null; })).toThrow('buckets[1].threshold must be a finite number');
    expect(bad((p) => { p.buckets[1].fpr_bound = 0.2; })).toThrow('buckets[1].meets_target contradicts its fpr_bound 0.2 and target_fpr 0.01');
    const error = (() => { try { bad((p) => { delete p.method; })(); } catch (e) { return e; } return undefined; })();
    expect(error).toBeInstanceOf(InvalidCalibrationProfileError);
    expect(error).toMatchObject({ code: 'BAD_CALIBRATION_PROFILE' });
  });

  it('scores with the profile\'s thresholds instead of the model card\'s', async () => {
    const text = longText(1500);
    const scorer = await createAiTextScorer();
    const [whole] = await scorer.score(text);
    const profile = profileAround(whole!.logit + 40_000);
    const calibrated = await detectAiText(text, { calibration: profile, sentences: false });
    expect(calibrated.score).toBeCloseTo(humanScore(whole!.logit, whole!.chars, profile.buckets), 9);
    expect(calibrated.score).toBeCloseTo(100 / (1 + Math.exp(-(2 * 40_000) / 50_000)), 9);
    const flagged = await detectAiText(text, { calibration: profileAround(whole!.logit - 40_000), sentences: false });
    expect(flagged.score).toBeLessThan(50);
    const shipped = await detectAiText(text, { sentences: false });
    expect(shipped.score).not.toBeCloseTo(calibrated.score, 3);
  });

  it('uses the profile\'s version for latest and no version, and refuses another version or model', async () => {
    const profile = profileAround(0);
    expect((await detectAiText(PROSE, { calibration: profile, version: 'latest' })).version).toBe('2.0.0');
    const other = await detectAiText(PROSE, { calibration: profile, version: '1.0.0' }).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(CalibrationMismatchError);
    expect(other).toMatchObject({ code: 'BAD_REQUEST', field: 'version' });
    expect((other as Error).message).toBe(
      'The calibration profile in use was made for ai-text 2.0.0; it cannot calibrate ai-text 1.0.0 (omit version, or ask for 2.0.0)',
    );
    const custom = { ...profile, detector: { model: 'custom:essays', version: '1' } };
    await expect(detectAiText(PROSE, { calibration: custom })).rejects.toThrow(
      'The calibration profile in use was made for custom:essays 1; it cannot calibrate ai-text 1',
    );
  });

  it('builds a profile through any scorer, counting duplicates once, and refuses too few texts', async () => {
    const scorer: CalibrationScorer = {
      detector: { model: 'custom:test', version: '1', fingerprint: 'abc' },
      async score(text) {
        if (text.startsWith('skip')) return { skip: 'length' };
        return { ranges: [{ chars: 400, raw: Number(text) }] };
      },
    };
    const texts = [...Array.from({ length: 320 }, (_, i) => String(i)), '5', '6', 'skip me'];
    const { profile, read, used, skipped } = await createCalibrationProfile(texts, scorer, {
      targetFpr: 0.01, now: new Date('2026-11-27T00:00:00Z'), source: 'test', bucketChars: [0],
    });
    expect({ read, used, skipped }).toEqual({ read: 323, used: 320, skipped: { duplicate: 2, length: 1 } });
    expect(profile).toMatchObject({
      detector: { model: 'custom:test', version: '1', fingerprint: 'abc' },
      created: '2026-11-27T00:00:00.000Z', human_texts: 320, source: 'test',
      buckets: [{ min_chars: 0, n_human: 320, threshold: 319, exceedances: 0, meets_target: true }],
    });
    expect(parseCalibrationProfile(profile)).toBe(profile);
    const few = await createCalibrationProfile(texts.slice(0, 100), scorer, { targetFpr: 0.01 }).catch((e: unknown) => e);
    expect(few).toBeInstanceOf(InsufficientHumanTextError);
    expect((few as Error).message).toBe(
      '100 usable human texts cannot promise a false-positive rate of 0.01 at 0.95 confidence: a length bucket needs at ' +
        'least 299 (raise --target-fpr, lower --confidence, or add texts)',
    );
  });
});
