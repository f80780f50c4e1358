import { createRequire } from 'node:module';
import type * as Ort from 'onnxruntime-common';

let runtime: typeof Ort | undefined;

/**
 * onnxruntime-node, loaded when the first model session is created: importing the package loads no native module.
 * Its types come from onnxruntime-common (onnxruntime-node 1.17.0, the release pinned for its install without
 * downloads, ships no declarations).
 * @throws {Error} when the native module cannot load on this platform; the caller wraps it as a model load error
 */
export function onnxRuntime(): typeof Ort {
  if (runtime) return runtime;
  try {
    runtime = createRequire(import.meta.url)('onnxruntime-node') as typeof Ort;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new Error(`onnxruntime-node cannot load on this platform (${reason})`, { cause: error });
  }
  return runtime;
}
