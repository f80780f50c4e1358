import { readFileSync } from 'node:fs';

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
 * The WebAssembly kernels of this package (`assembly/*.ts`, AssemblyScript compiled with SIMD by
 * `scripts/build-wasm.mjs` into the committed `wasm/*.wasm`). Each thread instantiates a module once, with its own
 * memory; a kernel copies the rows it needs into that memory, calls the module and copies the results out, so the
 * memory stays a few megabytes whatever the image size. Every WebAssembly path returns the very values of the
 * JavaScript path it replaces (tests compare them bit for bit); the JavaScript paths stay for inputs the modules do
 * not take and for `CONTENT_ANALYSIS_FORENSICS_WASM=0`, which turns the modules off (e.g. to compare the two).
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

  function<T extends (...args: never[]) => unknown>(name: string): T {
    const f = this.exports[name];
    if (typeof f !== 'function') throw new TypeError(`Expected a function ${name} in the WebAssembly module but received ${typeof f}`);
    return f as T;
  }
}

/** `Math=JSMath` modules import the host's Math functions as env.Math.<name>. */
const HOST_MATH: Record<string, unknown> = Object.fromEntries(
  Object.getOwnPropertyNames(Math).filter((k) => typeof (Math as unknown as Record<string, unknown>)[k] === 'function').map((k) => [`Math.${k}`, (Math as unknown as Record<string, unknown>)[k]]),
);

const loaded = new Map<string, WasmModule | null>();

/** Whether the WebAssembly kernels are on (they are unless `CONTENT_ANALYSIS_FORENSICS_WASM` is `0`). */
export function wasmEnabled(): boolean {
  return process.env.CONTENT_ANALYSIS_FORENSICS_WASM !== '0';
}

/**
 * This thread's instance of `wasm/<name>.wasm`, or undefined when the modules are turned off or this runtime cannot
 * compile it (no SIMD): the caller then takes its JavaScript path.
 */
export function wasmModule(name: string): WasmModule | undefined {
  if (!wasmEnabled()) return undefined;
  let m = loaded.get(name);
  if (m === undefined) {
    m = null;
    const bytes = readFileSync(new URL(`../../wasm/${name}.wasm`, import.meta.url));
    if (WA.validate(bytes)) {
      const instance = new WA.Instance(new WA.Module(bytes), {
        env: { ...HOST_MATH, abort: () => { throw new Error(`WebAssembly module ${name} aborted`); } },
      });
      m = new WasmModule(instance.exports);
    }
    loaded.set(name, m);
  }
  return m ?? undefined;
}
