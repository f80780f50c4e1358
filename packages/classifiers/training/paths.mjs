import { createReadStream, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * Version of the AI-text model these scripts build (AI_TEXT_VERSION, default 1.0.0):
 * - 1.0.0: the base features of FEATURE_NAMES up to `repeated_trigrams` (deflate features included);
 * - 1.1.0: the same plus the character language-model features (run training/lm/ first, see the package README);
 * - 1.2.0: the base features without `deflate_*` and with `lz_*` (compression profiles, O(1) per sentence window),
 *   reading 1.0.0's language models and dictionaries.
 */
export const MODEL_VERSION = process.env.AI_TEXT_VERSION ?? '1.0.0';
const here = dirname(fileURLToPath(import.meta.url));
/**
 * Folder of a model version: the default's (AI text 2.0.0, AI image 9) in this package's models/, every other
 * version's in packages/models-extra/models/ (@content-analysis/models-extra).
 */
export function modelDir(kind, version) {
  const kept = { 'ai-text': ['2.0.0'], 'ai-image': ['9'] }[kind];
  return resolve(here, '..', '..', kept.includes(version) ? 'classifiers' : 'models-extra', 'models', kind, version);
}
/** Folder of the AI-text model. */
export const MODEL_DIR = modelDir('ai-text', MODEL_VERSION);
/** Folder of the n-gram models and dictionaries the version reads (1.2.0 shares 1.0.0's). */
export const RESOURCE_DIR = MODEL_VERSION === '1.2.0' ? modelDir('ai-text', '1.0.0') : MODEL_DIR;
/** Folder of intermediate files (feature dumps); not committed. */
export const OUT_DIR = resolve(here, 'out');
/** Folder of the feature dump of MODEL_VERSION (out/ for 1.0.0, out/<version>/ for later versions). */
export const FEATURES_DIR = MODEL_VERSION === '1.0.0' ? OUT_DIR : resolve(OUT_DIR, MODEL_VERSION);

/** The base feature names MODEL_VERSION is trained on, from the package's FEATURE_NAMES and DEFLATE_FEATURES. */
export function baseFeatureNames(featureNames, deflateFeatures) {
  if (MODEL_VERSION === '1.2.0') return featureNames.filter((n) => !deflateFeatures.includes(n));
  return featureNames.slice(0, featureNames.indexOf('repeated_trigrams') + 1);
}

/**
 * Input whose model output the model card records; the package's tests check that the committed model still gives
 * it. Written for this project.
 */
export const FIXED_INPUT =
  'The committee met on Tuesday to discuss the budget for next year. Several members argued that the road repairs ' +
  'could wait, while others pointed to the flooding last spring. After two hours, they agreed to fund the bridge ' +
  'first and to revisit the rest in March. Nobody was entirely happy, which the chair said was probably a good sign.';

/**
 * The rows of the AI-text corpus (out/corpus/rows.jsonl, written by training/corpus/build_corpus.py), parsed, one at
 * a time. Checks at the call, before anything is read or written, and exits with a message when the corpus has not
 * been built.
 */
export function corpusRows() {
  const corpus = resolve(OUT_DIR, 'corpus/rows.jsonl');
  if (!existsSync(corpus)) {
    console.error(`${corpus} not found: run training/corpus/build_corpus.py first (skipping)`);
    process.exit(0);
  }
  return (async function* rows() {
    for await (const line of createInterface({ input: createReadStream(corpus), crlfDelay: Infinity })) {
      if (line.trim() !== '') yield JSON.parse(line);
    }
  })();
}
