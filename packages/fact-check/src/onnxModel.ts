import { fileURLToPath } from 'node:url';
import type * as ort from 'onnxruntime-common';
import { onnxRuntime } from '@content-analysis/onnx';
import { ModelLoadError } from './errors.js';

/** The bundled models, each `models/<name>.onnx` with `models/<name>.card.json`. */
export type BundledModel = 'checkworthiness' | 'entailment';

/** A loaded classifier mapping rows of features to class probabilities. */
export interface ProbabilityModel {
  readonly name: BundledModel;
  /** Class probabilities for each row of `width` features. */
  run(rows: readonly Float32Array[], width: number): Promise<Float32Array[]>;
}

const sessions = new Map<BundledModel, Promise<ProbabilityModel>>();

/** Path of a bundled model file (works from `src/` and `dist/`, both one level below the package root). */
export function modelPath(name: BundledModel | 'entailment-neural', suffix = '.onnx'): string {
  return fileURLToPath(new URL(`../models/${name}${suffix}`, import.meta.url));
}

/** Loads a bundled ONNX model once per process (`@content-analysis/onnx`'s runtime, CPU, one thread). */
export function loadModel(name: BundledModel): Promise<ProbabilityModel> {
  let loading = sessions.get(name);
  if (!loading) {
    loading = create(name);
    sessions.set(name, loading);
    loading.catch(() => sessions.delete(name));
  }
  return loading;
}

async function create(name: BundledModel): Promise<ProbabilityModel> {
  let session: ort.InferenceSession;
  try {
    session = await onnxRuntime().InferenceSession.create(modelPath(name), { intraOpNumThreads: 1, interOpNumThreads: 1 });
  } catch (error) {
    throw new ModelLoadError(name, error);
  }
  return {
    name,
    async run(rows, width) {
      if (rows.length === 0) return [];
      const input = new Float32Array(rows.length * width);
      rows.forEach((row, i) => input.set(row, i * width));
      const output = await session.run({ features: new (onnxRuntime().Tensor)('float32', input, [rows.length, width]) });
      const probabilities = output.probabilities;
      if (!probabilities) throw new ModelLoadError(name, new Error('no "probabilities" output'));
      const data = probabilities.data as Float32Array;
      const classes = data.length / rows.length;
      return rows.map((_, i) => data.slice(i * classes, (i + 1) * classes));
    },
  };
}
