import { AI_TEXT_MODEL_ID, InvalidCalibrationProfileError, parseCalibrationProfile } from '@content-analysis/classifiers';
import type { CalibrationProfile } from '@content-analysis/classifiers';
import type { AnalysisRunner } from './analysisRunner.js';

/**
 * `runner` with a deployment's AI-text calibration profile added to every AI-text detection (the profile is plain
 * data: it travels to the pool's workers with the options). The profile is checked here, once, so that an engine
 * never starts with one it cannot apply; a request for another detector version than the profile's is refused
 * (`CalibrationMismatchError`, BAD_REQUEST on `version`).
 */
export function withAiTextCalibration(runner: AnalysisRunner, calibration: CalibrationProfile): AnalysisRunner {
  const profile = parseCalibrationProfile(calibration);
  if (profile.detector.model !== AI_TEXT_MODEL_ID) {
    throw new InvalidCalibrationProfileError('given as aiTextCalibration', `it was made for model ${profile.detector.model}, not ${AI_TEXT_MODEL_ID}`);
  }
  // Both runners are plain objects of functions (no `this`): the others are kept as they are.
  return { ...runner, detectAiText: (text, options, signal) => runner.detectAiText(text, { ...options, calibration: profile }, signal) };
}
