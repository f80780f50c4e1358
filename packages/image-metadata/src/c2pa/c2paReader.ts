import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

type C2paWasm = typeof import('@contentauth/c2pa-wasm');

let loading: Promise<C2paWasm> | undefined;

/**
 * The C2PA SDK (c2pa-rs) compiled to WebAssembly (`@contentauth/c2pa-wasm`, MIT): no native module and no install
 * script, the same reader on every platform. Instantiated once, on the first file that carries a manifest store
 * (about 0.2 s); a failed load is retried on the next call.
 */
export function c2paReader(): Promise<C2paWasm> {
  loading ??= (async () => {
    const sdk = await import('@contentauth/c2pa-wasm');
    const wasm = await readFile(createRequire(import.meta.url).resolve('@contentauth/c2pa-wasm/c2pa.wasm'));
    await sdk.default({ module_or_path: wasm });
    return sdk;
  })().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
