import { isCustomVersion, UnknownCustomModelError } from '@content-analysis/classifiers';
import type { CustomImageModel, CustomModels, CustomTextModel } from '@content-analysis/classifiers';

/**
 * The plugged model a request's `version` names (`custom:NAME`), or undefined for any other version (the bundled
 * detector's). A name the deployment does not serve for the task is `UnknownCustomModelError` (BAD_REQUEST).
 */
export function pluggedModel(models: CustomModels | undefined, version: string | undefined, task: 'ai-text'): CustomTextModel | undefined;
export function pluggedModel(models: CustomModels | undefined, version: string | undefined, task: 'ai-image'): CustomImageModel | undefined;
export function pluggedModel(
  models: CustomModels | undefined, version: string | undefined, task: 'ai-text' | 'ai-image',
): CustomTextModel | CustomImageModel | undefined {
  if (!isCustomVersion(version)) return undefined;
  if (models === undefined) throw new UnknownCustomModelError(version, task, []);
  return task === 'ai-text' ? models.text(version) : models.image(version);
}
