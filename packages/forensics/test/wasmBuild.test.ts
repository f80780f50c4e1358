import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const buildScript = fileURLToPath(new URL('../../wasm/scripts/build-wasm.mjs', import.meta.url));

describe('WebAssembly modules', () => {
  it('every committed module is the build of its AssemblyScript source, and every module has one', () => {
    const sources = readdirSync(`${root}/assembly`).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3)).sort();
    const modules = readdirSync(`${root}/wasm`).filter((f) => f.endsWith('.wasm')).map((f) => f.slice(0, -5)).sort();
    expect(modules).toEqual(sources);
    // Exits non-zero (execFileSync throws) when a module differs from a fresh build of its source.
    const report = execFileSync(process.execPath, [buildScript, root, '--check'], { encoding: 'utf8' });
    expect(report.split('\n').filter(Boolean)).toEqual(sources.map((name) => `${name}.wasm: matches its source`));
  }, 120_000);
});
