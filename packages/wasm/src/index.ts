import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export { workerExecArgv } from './workerExecArgv.js';

/** The parts of the WebAssembly API used here (the ES2023 lib and @types/node 20 do not declare it). */
interface WasmMemory { readonly buffer: ArrayBuffer; grow(pages: number): number }
type WasmExports = Record<string, unknown>;
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { exports: WasmExports };
}
const WA = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/**
 * One thread's instance of a module built by `scripts/build-wasm.mjs` (AssemblyScript with SIMD, no runtime: the
 * caller lays out the module's memory and passes pointers). Instances are per thread, each with its own memory.
 */
export class WasmModule {
  readonly memory: WasmMemory;

  constructor(readonly exports: WasmExports) {
    this.memory = exports.memory as WasmMemory;
  }

  /** Grows the memory to at least `bytes` (views taken before a growth are detached: take them after). */
  reserve(bytes: number): void {
    const have = this.memory.buffer.byteLength;
    if (bytes > have) this.memory.grow(Math.ceil((bytes - have) / 65536));
  }

  /**
   * The first free byte of memory, 16-aligned: where the caller's layout starts. Every module of this project exports
   * it as `heapBase()` (its static data ends at `__heap_base`).
   */
  heapBase(): number {
    return this.function<() => number>('heapBase')();
  }

  function<T extends (...args: never[]) => unknown>(name: string): T {
    const f = this.exports[name];
    if (typeof f !== 'function') throw new TypeError(`Expected a function ${name} in the WebAssembly module but received ${typeof f}`);
    return f as T;
  }
}

/** `bytes` rounded up to a multiple of 16: module memory areas start 16-aligned, as vector loads prefer. */
export function align16(bytes: number): number {
  return (bytes + 15) & ~15;
}

/** `Math=JSMath` modules import the host's Math functions as env.Math.<name>: a logarithm is V8's own. */
const HOST_MATH: Record<string, unknown> = Object.fromEntries(
  Object.getOwnPropertyNames(Math).filter((k) => typeof (Math as unknown as Record<string, unknown>)[k] === 'function').map((k) => [`Math.${k}`, (Math as unknown as Record<string, unknown>)[k]]),
);

const loaded = new Map<string, WasmModule | null>();

/** False when `CONTENT_ANALYSIS_WASM` is `0` (read at every call): every package then takes its JavaScript paths. */
export function wasmModulesEnabled(): boolean {
  return process.env.CONTENT_ANALYSIS_WASM !== '0';
}

/**
 * This thread's instance of the module in `file` (compiled and instantiated on first use), or undefined when the
 * modules are turned off (`CONTENT_ANALYSIS_WASM=0`) or this runtime cannot compile it (no SIMD): the caller then
 * takes its JavaScript path.
 */
export function loadWasmModule(file: URL): WasmModule | undefined {
  if (!wasmModulesEnabled()) return undefined;
  let m = loaded.get(file.href);
  if (m === undefined) {
    m = null;
    const bytes = readFileSync(file);
    if (WA.validate(bytes)) {
      const instance = new WA.Instance(new WA.Module(bytes), {
        env: { ...HOST_MATH, abort: () => { throw new Error(`WebAssembly module ${file.pathname} aborted`); } },
      });
      m = new WasmModule(instance.exports);
    }
    loaded.set(file.href, m);
  }
  return m ?? undefined;
}

/**
 * A package's loader of its own modules: `name` -> this thread's instance of `<folder>/<name>.wasm`, or undefined when
 * the package's switch (`switchName=0`) or the shared one (`CONTENT_ANALYSIS_WASM=0`) turns them off, both read at
 * every call, or when the runtime cannot compile the module.
 */
export function packageModules(folder: URL, switchName: string): (name: string) => WasmModule | undefined {
  return (name) => (process.env[switchName] !== '0' ? loadWasmModule(new URL(`${name}.wasm`, folder)) : undefined);
}

/**
 * What a package's build test asserts: the names of its modules' sources (`assembly/*.ts`) and of its committed
 * modules (`wasm/*.wasm`), and the lines of `build-wasm.mjs <packageDir> --check` (which throws when the check fails:
 * a module is not the build of its source or has none). Needs the AssemblyScript compiler (a development dependency).
 */
export function checkCommittedModules(packageDir: string): { sources: string[]; modules: string[]; report: string[] } {
  const names = (folder: string, ext: string): string[] => readdirSync(join(packageDir, folder)).filter((f) => f.endsWith(ext)).map((f) => f.slice(0, -ext.length)).sort();
  const script = fileURLToPath(new URL('../scripts/build-wasm.mjs', import.meta.url));
  const report = execFileSync(process.execPath, [script, packageDir, '--check'], { encoding: 'utf8' });
  return { sources: names('assembly', '.ts'), modules: names('wasm', '.wasm'), report: report.split('\n').filter(Boolean) };
}
