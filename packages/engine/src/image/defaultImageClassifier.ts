import { classifyImage } from '@content-analysis/classifiers';
import type { AiImageClassifier } from '@content-analysis/classifiers';
import type { AnalysisRunner } from '../pool/analysisRunner.js';

/**
 * The classifier package's process-wide classifier (`classifyImage`, default options), whose model sessions are
 * created on first use. Its sessions are read-only, so every engine of the process (and the CLI's commands)
 * shares one set instead of loading its own.
 */
const SHARED: AiImageClassifier = Object.freeze({ classify: classifyImage });

/** The AI-image classifier image detection uses when none is injected (`EngineServicesOptions.imageClassifier`). */
export function defaultImageClassifier(): AiImageClassifier {
  return SHARED;
}

/**
 * The classifier a feature's analysis uses: an injected one as it is; the default one through the engine's
 * analysis runner (`analysis.classifyImage`), so that in a pooled engine its decode and JavaScript features run
 * in a worker thread, not on the event loop (issue 26: the credit race's 40 images). The numbers are the same
 * classifier's either way. `signal`: the caller went away; a pooled classification not started yet is dropped.
 */
export function runnerImageClassifier(chosen: AiImageClassifier, analysis: Pick<AnalysisRunner, 'classifyImage'>, signal?: AbortSignal): AiImageClassifier {
  if (chosen !== SHARED) return chosen;
  return { classify: (image, options = {}) => analysis.classifyImage(image, options, signal) };
}
