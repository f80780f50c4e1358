import { fileURLToPath } from 'node:url';
import { checkCommittedModules } from '@content-analysis/wasm';
import { describe, expect, it } from 'vitest';

describe('WebAssembly modules', () => {
  it('every committed module is the build of its AssemblyScript source, and every module has one', () => {
    const { sources, modules, report } = checkCommittedModules(fileURLToPath(new URL('..', import.meta.url)));
    expect(sources.length).toBeGreaterThan(0);
    expect(modules).toEqual(sources);
    expect(report).toEqual(sources.map((name) => `${name}.wasm: matches its source`));
  }, 120_000);
});
