import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Version of the AI-text model these scripts build: 1.0.0 (default) or, with AI_TEXT_VERSION=1.1.0, the version
 * with character language-model features (run training/lm/ first, see the package README).
 */
export const MODEL_VERSION = process.env.AI_TEXT_VERSION ?? '1.0.0';
/** Folder of the AI-text model and its resources. */
export const MODEL_DIR = resolve(dirname(fileURLToPath(import.meta.url)), `../models/ai-text/${MODEL_VERSION}`);
/** Folder of intermediate files (feature dumps); not committed. */
export const OUT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), 'out');
/** Folder of the feature dump of MODEL_VERSION (out/ for 1.0.0, out/<version>/ for later versions). */
export const FEATURES_DIR = MODEL_VERSION === '1.0.0' ? OUT_DIR : resolve(OUT_DIR, MODEL_VERSION);

/**
 * Input whose model output the model card records; the package's tests check that the committed model still gives
 * it. Written for this project.
 */
export const FIXED_INPUT =
  'The committee met on Tuesday to discuss the budget for next year. Several members argued that the road repairs ' +
  'could wait, while others pointed to the flooding last spring. After two hours, they agreed to fund the bridge ' +
  'first and to revisit the rest in March. Nobody was entirely happy, which the chair said was probably a good sign.';
