import { createRequire } from 'node:module';
import type * as Ort from 'onnxruntime-common';
import { OnnxRuntimeUnavailableError } from './errors.js';

/** The two runtimes: onnxruntime-node (a native addon) and onnxruntime-web (WebAssembly, no native part). */
export type OnnxRuntimeName = 'node' | 'web';

/** What `CONTENT_ANALYSIS_ONNX_RUNTIME` may say: one runtime, or `auto` (the default) for node, else web. */
export type OnnxRuntimeChoice = OnnxRuntimeName | 'auto';

/** The environment variable that forces one runtime (read once per thread, when the first model loads). */
export const ONNX_RUNTIME_VARIABLE = 'CONTENT_ANALYSIS_ONNX_RUNTIME';

const PACKAGES: Record<OnnxRuntimeName, string> = { node: 'onnxruntime-node', web: 'onnxruntime-web' };
const loaded = new Map<OnnxRuntimeName, typeof Ort>();
let chosen: { name: OnnxRuntimeName; runtime: typeof Ort } | undefined;

function firstLine(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
}

/**
 * One runtime by name, loaded on first call and cached per thread; every caller that names it gets the same module,
 * whose `InferenceSession.create` runs sessions on that runtime's backend (also when the other one is loaded too).
 * onnxruntime-web runs single-threaded in the calling thread (`env.wasm.numThreads = 1`, no proxy worker): the
 * packages parallelise across worker threads instead, and its own threads were slower on the 2-core machine measured.
 * @throws {OnnxRuntimeUnavailableError} when the package is not installed (onnxruntime-node is an optional peer that
 *   a team adds for the native runtime) or its native part cannot load on this platform
 */
export function loadOnnxRuntime(name: OnnxRuntimeName): typeof Ort {
  const cached = loaded.get(name);
  if (cached) return cached;
  if (name !== 'node' && name !== 'web') {
    throw new RangeError(`Expected node or web for the ONNX runtime but received ${JSON.stringify(name)} of type ${typeof name}`);
  }
  let runtime: typeof Ort;
  try {
    runtime = createRequire(import.meta.url)(PACKAGES[name]) as typeof Ort;
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' && firstLine(error).includes(`'${PACKAGES[name]}'`);
    throw new OnnxRuntimeUnavailableError(
      missing ? `${PACKAGES[name]} is not installed` : `${PACKAGES[name]} cannot load on this platform (${firstLine(error)})`,
      { cause: error },
    );
  }
  if (name === 'web') {
    runtime.env.wasm.numThreads = 1;
    runtime.env.wasm.proxy = false;
  }
  const bound = withExecutionProvider(runtime, EXECUTION_PROVIDERS[name]);
  loaded.set(name, bound);
  return bound;
}

/**
 * The backend each runtime registers with onnxruntime-common. Both packages register theirs in the one
 * onnxruntime-common an install shares (npm and pnpm dedupe it), where a session without `executionProviders` takes
 * the backend of highest priority: onnxruntime-node's `cpu` once it has loaded, whichever package created the session.
 */
const EXECUTION_PROVIDERS: Record<OnnxRuntimeName, string> = { node: 'cpu', web: 'wasm' };

/** `runtime` whose `InferenceSession.create` runs on `executionProvider` unless its options name providers. */
function withExecutionProvider(runtime: typeof Ort, executionProvider: string): typeof Ort {
  const sessions = runtime.InferenceSession;
  const create = (...args: unknown[]): Promise<Ort.InferenceSession> => {
    // create(path | bytes, options?) or create(buffer, byteOffset, byteLength?, options?)
    const at = typeof args[1] !== 'number' ? 1 : typeof args[2] === 'number' ? 3 : 2;
    const given = (args[at] ?? {}) as Ort.InferenceSession.SessionOptions;
    const withOptions = [...args.slice(0, at), ...Array(Math.max(0, at - args.length)).fill(undefined), { executionProviders: [executionProvider], ...given }];
    return (sessions.create as (...a: unknown[]) => Promise<Ort.InferenceSession>)(...withOptions);
  };
  // Properties defined, not assigned: the package's exports are getters.
  const InferenceSession = Object.create(sessions, { create: { value: create, enumerable: true } }) as typeof sessions;
  return Object.create(runtime, { InferenceSession: { value: InferenceSession, enumerable: true } }) as typeof Ort;
}

/** The choice `CONTENT_ANALYSIS_ONNX_RUNTIME` makes (unset or empty: `auto`). */
export function onnxRuntimeChoice(value: string | undefined = process.env[ONNX_RUNTIME_VARIABLE]): OnnxRuntimeChoice {
  const choice = (value ?? '').trim().toLowerCase();
  if (choice === '' || choice === 'auto') return 'auto';
  if (choice === 'node' || choice === 'web') return choice;
  throw new RangeError(`Expected node, web or auto for ${ONNX_RUNTIME_VARIABLE} but received ${JSON.stringify(value)}`);
}

function choose(): { name: OnnxRuntimeName; runtime: typeof Ort } {
  if (chosen) return chosen;
  const choice = onnxRuntimeChoice();
  if (choice !== 'auto') {
    chosen = { name: choice, runtime: loadOnnxRuntime(choice) };
    return chosen;
  }
  try {
    chosen = { name: 'node', runtime: loadOnnxRuntime('node') };
  } catch (nodeError) {
    try {
      chosen = { name: 'web', runtime: loadOnnxRuntime('web') };
    } catch (webError) {
      throw new OnnxRuntimeUnavailableError(`No ONNX runtime loads here: ${firstLine(nodeError)}; ${firstLine(webError)}`, { cause: webError });
    }
  }
  return chosen;
}

/**
 * The ONNX runtime every model of this project runs on, chosen once per thread when the first model loads (importing
 * this package loads neither): onnxruntime-node when it loads, else onnxruntime-web; `CONTENT_ANALYSIS_ONNX_RUNTIME`
 * (`node`, `web` or `auto`) forces one. Both give the same scores (the packages' tests compare them within 1e-5); the
 * web one is slower (the classifiers README states by how much). Worker threads read the variable from their own
 * environment, which Node copies from the parent's when they start.
 * @throws {OnnxRuntimeUnavailableError} when the forced runtime, or neither, loads
 * @throws {RangeError} when `CONTENT_ANALYSIS_ONNX_RUNTIME` names no runtime
 */
export function onnxRuntime(): typeof Ort {
  return choose().runtime;
}

/** Which runtime {@link onnxRuntime} chose in this thread (choosing it now if no model has loaded yet). */
export function onnxRuntimeName(): OnnxRuntimeName {
  return choose().name;
}
