import { classifyImage } from '@content-analysis/classifiers';
import type { AiImageClassifier } from '@content-analysis/classifiers';

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
