import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ModelNotInstalledError } from '../errors.js';

/** The package that holds the model versions that are neither a default nor `latest` (an optional peer). */
export const MODELS_EXTRA_PACKAGE = '@content-analysis/models-extra';

/**
 * The versions of each model that live in {@link MODELS_EXTRA_PACKAGE}, not in this package: every version a
 * request may name that is neither the default nor `latest` (the AI-image entries are model folders, see versions.ts).
 */
export const EXTRA_MODEL_VERSIONS: Readonly<Record<'ai-image' | 'ai-text', readonly string[]>> = {
  'ai-image': ['1', '2', '3', '4', '5', '6', '7', '8'],
  'ai-text': ['1.0.0', '1.1.0', '1.2.0', '2.1.0', '3.0.0', '3.1.0'],
};

let resolved: string | null | undefined;

/**
 * The `models/` folder of {@link MODELS_EXTRA_PACKAGE} when it is installed where this package can resolve it, else
 * `undefined`. Looked up on first use only, so a team without it pays nothing.
 */
export function extraModelsDir(): string | undefined {
  if (resolved === undefined) {
    try {
      const manifest = createRequire(import.meta.url).resolve(`${MODELS_EXTRA_PACKAGE}/package.json`);
      resolved = join(dirname(manifest), 'models');
    } catch {
      resolved = null;
    }
  }
  return resolved ?? undefined;
}

/**
 * The folder of a model version kept in {@link MODELS_EXTRA_PACKAGE} (`models/<id>/<folder>`), or
 * {@link ModelNotInstalledError} naming the package to install when it is not installed.
 * @param shownVersion the version as the caller named it, for the message (AI image `legacy-5` is folder 5)
 */
export function extraModelFolder(id: 'ai-image' | 'ai-text', folder: string, shownVersion = folder): string {
  const dir = extraModelsDir();
  if (dir === undefined) throw new ModelNotInstalledError(id, shownVersion, MODELS_EXTRA_PACKAGE);
  return join(dir, id, folder);
}
