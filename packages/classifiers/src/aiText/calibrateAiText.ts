import { createCalibrationProfile } from '../calibration/createCalibrationProfile.js';
import type { CalibrationOutcome, CalibrationScorer, CreateCalibrationProfileOptions } from '../calibration/createCalibrationProfile.js';
import { AI_TEXT_MAX_CHARS, AI_TEXT_MIN_CHARS, AI_TEXT_MODEL_ID, createAiTextScorer } from './detectAiText.js';
import type { AiTextDetectorOptions } from './detectAiText.js';
import { detectLanguage } from './detectLanguage.js';
import { normalizeText } from './normalizeText.js';

/**
 * The AI-text detector as a calibration scorer: the runtime's own features and model (`createAiTextScorer`), on the
 * texts the detector would score. Texts outside 300..150,000 characters are left out as `length`, texts not in English
 * as `language <code>` (the other languages have models of their own, which a profile of this one does not describe):
 * a deployment's profile describes what its requests can be.
 */
export async function aiTextCalibrationScorer(options: AiTextDetectorOptions = {}): Promise<CalibrationScorer> {
  const scorer = await createAiTextScorer(options);
  return {
    detector: { model: AI_TEXT_MODEL_ID, version: scorer.version },
    async score(text, windowChars) {
      if (text.length < AI_TEXT_MIN_CHARS || text.length > AI_TEXT_MAX_CHARS) return { skip: 'length' };
      const language = detectLanguage(normalizeText(text).text);
      if (language !== 'en') return { skip: `language ${language}` };
      const ranges = await scorer.score(text, windowChars);
      return { ranges: ranges.map(({ chars, logit }) => ({ chars, raw: logit })) };
    },
  };
}

/** Options of `calibrateAiText`: the detector's (`version`, `threads`, `registry`) and the calibration's. */
export type CalibrateAiTextOptions = AiTextDetectorOptions & CreateCalibrationProfileOptions;

/**
 * A deployment's calibration profile for the AI-text detector, made from its own human texts: apply it with
 * `detectAiText(text, { calibration })`, the engine's `aiTextCalibration` or the CLI's `--calibration`.
 */
export async function calibrateAiText(
  texts: Iterable<string> | AsyncIterable<string>,
  options: CalibrateAiTextOptions,
): Promise<CalibrationOutcome> {
  const { version, threads, registry, ...calibration } = options;
  const scorer = await aiTextCalibrationScorer({
    ...(version === undefined ? {} : { version }),
    ...(threads === undefined ? {} : { threads }),
    ...(registry === undefined ? {} : { registry }),
  });
  return createCalibrationProfile(texts, scorer, calibration);
}
