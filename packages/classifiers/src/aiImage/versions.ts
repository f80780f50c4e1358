import { join } from 'node:path';
import { InvalidInputError } from '../errors.js';
import { EXTRA_MODEL_VERSIONS, extraModelFolder } from '../runtime/extraModels.js';
import { BUNDLED_MODELS_DIR } from '../runtime/modelRegistry.js';

/**
 * The AI-image model versions the API accepts (`version` in /v2/image-detection), oldest model first; `latest` is
 * accepted too. Each answers with the model in the folder {@link aiImageModelFolder} names.
 *
 * What the spec's numbers mean here (packages/classifiers/CHANGELOG.md, 2026-11-27): `5`, the spec's default, is
 * the model trained as version 9 (a threshold that flags at most 5% of the real photos of every source left out of
 * its training, as published, as shared and as a screenshot; version 8, the default before it, held the bound as
 * published and as shared only); the model that answered as 5 before version 8 is `legacy-5`. 1 to 4, 6 to 8 are
 * the models of those numbers, unchanged.
 */
export const AI_IMAGE_VERSIONS = ['1', '2', '3', '4', 'legacy-5', '5', '6', '7', '8', '9'] as const;
export type AiImageVersion = (typeof AI_IMAGE_VERSIONS)[number];

/** Version used when the request names none (spec: default 5). */
export const DEFAULT_AI_IMAGE_VERSION: AiImageVersion = '5';

/**
 * Version `latest` selects: the newest model, 9 (see the package README and CHANGELOG). It is the model the default
 * answers with; asked for as `9` or `latest`, the result says version 9.
 */
export const LATEST_AI_IMAGE_VERSION: AiImageVersion = '9';

/** Versions served by a model folder of another name (models/ai-image/<folder>/); every other version's folder is its name. */
const MODEL_FOLDERS: Partial<Record<AiImageVersion, string>> = { '5': '9', 'legacy-5': '5' };

/** The folder under models/ai-image/ whose card and probe answer for `version`. */
export function aiImageModelFolder(version: AiImageVersion): string {
  return MODEL_FOLDERS[version] ?? version;
}

/**
 * The full path of the model folder that answers for `version`: this package's `models/ai-image/<folder>` for the
 * default and `latest`, `@content-analysis/models-extra`'s for the others (ModelNotInstalledError naming the package
 * when it is not installed; never another model).
 */
export function aiImageModelDir(version: AiImageVersion): string {
  const folder = aiImageModelFolder(version);
  return EXTRA_MODEL_VERSIONS['ai-image'].includes(folder)
    ? extraModelFolder('ai-image', folder, version)
    : join(BUNDLED_MODELS_DIR, 'ai-image', folder);
}

/**
 * The model version a request's `version` field selects: absent gives the default, `latest` the newest, and
 * anything else that is not one of {@link AI_IMAGE_VERSIONS} is a caller error on `version`.
 */
export function resolveAiImageVersion(version: string | number | undefined): AiImageVersion {
  if (version === undefined) return DEFAULT_AI_IMAGE_VERSION;
  const text = String(version).trim();
  if (text === 'latest') return LATEST_AI_IMAGE_VERSION;
  const found = AI_IMAGE_VERSIONS.find((v) => v === text);
  if (found === undefined) throw new InvalidInputError('version', `one of ${AI_IMAGE_VERSIONS.join(', ')} or latest`, version);
  return found;
}
