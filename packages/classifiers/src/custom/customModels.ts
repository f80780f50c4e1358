import { checkThreads } from '../runtime/loadModel.js';
import { CustomModelError, InvalidInputError, UnknownCustomModelError } from '../errors.js';
import { loadImageModel } from './customImageModel.js';
import type { CustomImageModel, ImageCalibration } from './customImageModel.js';
import { loadTextModel } from './customTextModel.js';
import type { CustomTextModel, TextCalibration } from './customTextModel.js';
import { DEFAULT_MAX_MODEL_BYTES, readModelFolder } from './readModelFolder.js';
import type { CustomModelTask } from './readModelFolder.js';

/** What requests put before a plugged model's name in `version`. */
export const CUSTOM_VERSION_PREFIX = 'custom:';
/** A model name: letters, digits, `.`, `_` and `-`, at most 64 characters, starting with a letter or digit. */
export const CUSTOM_MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export type CustomModel = CustomTextModel | CustomImageModel;

/** Options of {@link CustomModels.load}. */
export interface CustomModelsOptions {
  /**
   * Largest ONNX file (external data included) a folder may hold; a larger one is refused at load.
   * @default DEFAULT_MAX_MODEL_BYTES (2 GiB)
   */
  maxModelBytes?: number;
  /**
   * onnxruntime threads inside one call of a plugged model.
   * @default 1
   */
  threads?: number;
  /**
   * Text windows per onnxruntime call.
   * @default 8
   */
  batchSize?: number;
  /**
   * Calibrations by model name: a text model's maps its AI log-odds and the text's characters to the human logit
   * (`profileTextCalibration(profile.buckets)`), an image model's its P(aiLabel) to the AI probability. A model without
   * one scores 100 x (1 - P(aiLabel)).
   * @default {}
   */
  calibrations?: Record<string, TextCalibration | ImageCalibration>;
}

/** Whether a request's `version` names a plugged model. */
export function isCustomVersion(version: unknown): version is `custom:${string}` {
  return typeof version === 'string' && version.startsWith(CUSTOM_VERSION_PREFIX);
}

/** Reads `NAME=DIR` (the `--model` flag of the command line). */
export function parseModelSpec(spec: string): [name: string, folder: string] {
  const at = spec.indexOf('=');
  const name = at < 0 ? '' : spec.slice(0, at);
  const folder = at < 0 ? '' : spec.slice(at + 1);
  if (!CUSTOM_MODEL_NAME.test(name) || folder.length === 0) {
    throw new InvalidInputError('model', 'NAME=DIR with a name of letters, digits, ".", "_" or "-" (at most 64) and a folder', spec);
  }
  return [name, folder];
}

/**
 * The models a deployment plugged in, by name, each loaded and checked once (`load` refuses a bad folder with
 * {@link CustomModelError}, before anything is served). Requests select one with `version: "custom:<name>"`.
 */
export class CustomModels {
  readonly #models: Map<string, CustomModel>;
  /** Seconds each model took to load, and the resident memory it added (bytes, as measured around its load). */
  readonly loadStats: ReadonlyMap<string, { seconds: number; rssBytes: number }>;

  private constructor(models: Map<string, CustomModel>, stats: Map<string, { seconds: number; rssBytes: number }>) {
    this.#models = models;
    this.loadStats = stats;
  }

  /** No plugged model. */
  static empty(): CustomModels {
    return new CustomModels(new Map(), new Map());
  }

  /** Loads every folder (name -> folder); the first refused one releases the others and throws. */
  static async load(folders: Record<string, string> | Iterable<readonly [string, string]>, options: CustomModelsOptions = {}): Promise<CustomModels> {
    const threads = options.threads ?? 1;
    checkThreads(threads);
    const batchSize = options.batchSize ?? 8;
    if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new InvalidInputError('batchSize', 'a positive integer', batchSize);
    const maxBytes = options.maxModelBytes ?? DEFAULT_MAX_MODEL_BYTES;
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) throw new InvalidInputError('maxModelBytes', 'a positive integer', maxBytes);
    const entries = Symbol.iterator in folders ? [...folders as Iterable<readonly [string, string]>] : Object.entries(folders);
    const models = new Map<string, CustomModel>();
    const stats = new Map<string, { seconds: number; rssBytes: number }>();
    try {
      for (const [name, folder] of entries) {
        if (!CUSTOM_MODEL_NAME.test(name)) throw new CustomModelError(name, folder, 'a name is letters, digits, ".", "_" or "-" (at most 64)');
        if (models.has(name)) throw new CustomModelError(name, folder, `the name "${name}" is given twice`);
        const started = performance.now();
        const rss = process.memoryUsage().rss;
        const read = readModelFolder(name, folder, maxBytes);
        const calibration = options.calibrations?.[name];
        const model: CustomModel = read.declaration.task === 'ai-text'
          ? await loadTextModel(read, { threads, batchSize, calibration: calibration as TextCalibration | undefined })
          : await loadImageModel(read, { threads, calibration: calibration as ImageCalibration | undefined });
        models.set(name, model);
        stats.set(name, { seconds: (performance.now() - started) / 1000, rssBytes: Math.max(0, process.memoryUsage().rss - rss) });
      }
    } catch (error) {
      await Promise.all([...models.values()].map((m) => m.release()));
      throw error;
    }
    return new CustomModels(models, stats);
  }

  get size(): number {
    return this.#models.size;
  }

  /** `custom:<name>` of every model of a task (every model when none is given). */
  versions(task?: CustomModelTask): string[] {
    return [...this.#models.values()].filter((m) => task === undefined || m.task === task).map((m) => m.version);
  }

  /** The text model a request's `version` names; a caller error (BAD_REQUEST on `version`) when there is none. */
  text(version: string): CustomTextModel {
    const model = this.#models.get(version.slice(CUSTOM_VERSION_PREFIX.length));
    if (!isCustomVersion(version) || model?.task !== 'ai-text') throw new UnknownCustomModelError(version, 'ai-text', this.versions('ai-text'), model?.task);
    return model;
  }

  /** The image model a request's `version` names; a caller error (BAD_REQUEST on `version`) when there is none. */
  image(version: string): CustomImageModel {
    const model = this.#models.get(version.slice(CUSTOM_VERSION_PREFIX.length));
    if (!isCustomVersion(version) || model?.task !== 'ai-image') throw new UnknownCustomModelError(version, 'ai-image', this.versions('ai-image'), model?.task);
    return model;
  }

  /** Releases every session. */
  async release(): Promise<void> {
    await Promise.all([...this.#models.values()].map((m) => m.release()));
    this.#models.clear();
  }
}
