import { join } from 'node:path';
import type * as ort from 'onnxruntime-common';
import { onnxRuntime } from '@content-analysis/onnx';
import { InvalidInputError, ModelLoadError } from '../errors.js';
import type { ModelCard } from './modelCard.js';
import { cachedPromise } from './promiseCache.js';
import { bundledRegistry } from './modelRegistry.js';
import type { ModelEntry, ModelRegistry } from './modelRegistry.js';

/** Options of `loadModel`. */
export interface LoadModelOptions {
  /**
   * Model version; the highest registered when absent.
   * @default undefined
   */
  version?: string;
  /**
   * Threads onnxruntime may use inside one call (intra-op); calls on one session run one after another.
   * @default 1
   */
  threads?: number;
  /**
   * Registry to resolve the id in.
   * @default bundledRegistry()
   */
  registry?: ModelRegistry;
}

/** A model with its ONNX session, created once and shared by every caller that asks for the same model. */
export interface LoadedModel {
  entry: ModelEntry;
  card: ModelCard;
  /** Runs the model on `rows` input vectors of `card.feature_names.length` values, returns one output per row. */
  run(input: Float32Array, rows: number): Promise<Float32Array>;
}

const cache = new Map<string, Promise<LoadedModel>>();

/** Refuses a thread count onnxruntime should not be given: an integer from 1 to 64 (`threads` names the option). */
export function checkThreads(threads: number): void {
  if (!Number.isInteger(threads) || threads < 1 || threads > 64) {
    throw new InvalidInputError('threads', 'an integer from 1 to 64', threads);
  }
}

/** Loads (once per id, version and thread count) and returns a registered model. */
export async function loadModel(id: string, options: LoadModelOptions = {}): Promise<LoadedModel> {
  const threads = options.threads ?? 1;
  checkThreads(threads);
  const entry = (options.registry ?? bundledRegistry()).resolve(id, options.version);
  return cachedPromise(cache, `${entry.folder}|${threads}`, () => createModel(entry, threads));
}

async function createModel(entry: ModelEntry, threads: number): Promise<LoadedModel> {
  const path = join(entry.folder, entry.card.file);
  let session: ort.InferenceSession;
  try {
    session = await onnxRuntime().InferenceSession.create(path, {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    });
  } catch (error) {
    throw new ModelLoadError(path, error instanceof Error ? error.message : String(error), { cause: error });
  }
  const width = entry.card.feature_names.length;
  const { input: inputName, output: outputName } = entry.card;
  return {
    entry,
    card: entry.card,
    async run(input, rows) {
      if (input.length !== rows * width) {
        throw new InvalidInputError('input', `${rows} x ${width} values`, input.length);
      }
      const result = await session.run({ [inputName]: new (onnxRuntime().Tensor)('float32', input, [rows, width]) });
      const output = result[outputName];
      if (output === undefined) throw new ModelLoadError(path, `no output named ${outputName}`);
      return output.data as Float32Array;
    },
  };
}
