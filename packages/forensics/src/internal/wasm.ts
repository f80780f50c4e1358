import { packageModules } from '@content-analysis/wasm';

export { align16 } from '@content-analysis/wasm';
export type { WasmModule } from '@content-analysis/wasm';

/**
 * The WebAssembly kernels of this package (`assembly/*.ts`, AssemblyScript compiled with SIMD by
 * `node packages/wasm/scripts/build-wasm.mjs packages/forensics` into the committed `wasm/*.wasm`). Each thread
 * instantiates a module once, with its own memory; a kernel copies the rows it needs into that memory, calls the
 * module and copies the results out, so the memory stays a few megabytes whatever the image size. Every WebAssembly
 * path returns the very values of the JavaScript path it replaces (tests compare them bit for bit); the JavaScript
 * paths stay for inputs the modules do not take and for `CONTENT_ANALYSIS_FORENSICS_WASM=0` (this package) or
 * `CONTENT_ANALYSIS_WASM=0` (every package), which turn the modules off (e.g. to compare the two).
 */
export const wasmModule = packageModules(new URL('../../wasm/', import.meta.url), 'CONTENT_ANALYSIS_FORENSICS_WASM');
