import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { align16, loadWasmModule, packageModules } from '../src/index.js';

const buildScript = fileURLToPath(new URL('../scripts/build-wasm.mjs', import.meta.url));

// A package folder made here: one module with a host Math call, a SIMD loop and an exported memory.
const dir = mkdtempSync(join(tmpdir(), 'wasm-package-'));
mkdirSync(join(dir, 'assembly', 'lib'), { recursive: true });
mkdirSync(join(dir, 'wasm'));
writeFileSync(join(dir, 'assembly', 'lib', 'twice.ts'), '// @ts-nocheck\n@inline export function twice(x: f64): f64 { return x + x; }\n');
writeFileSync(join(dir, 'assembly', 'probe.ts'), [
  '// @ts-nocheck',
  "import { twice } from './lib/twice';",
  'export function logSum(p: usize, n: i32): f64 { let s: f64 = 0; for (let i = 0; i < n; i++) s += Math.log(load<f64>(p + (<usize>i << 3))); return twice(s); }',
  'export function heapBase(): usize { return (__heap_base + 15) & ~(<usize>15); }',
  'export function maxPairs(p: usize, q: usize, n: i32): void { for (let i = 0; i < n; i += 4) v128.store(q + (<usize>i << 2), i32x4.max_s(v128.load(p + (<usize>i << 2)), v128.load(p + (<usize>i << 2), 16))); }',
  '',
].join('\n'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]) => spawnSync(process.execPath, [buildScript, ...args], { encoding: 'utf8' });

/** `body` with CONTENT_ANALYSIS_WASM set to `value` (undefined: unset), restored after: these tests are of the switch. */
function withSwitch<T>(value: string | undefined, body: () => T): T {
  const saved = process.env.CONTENT_ANALYSIS_WASM;
  if (value === undefined) delete process.env.CONTENT_ANALYSIS_WASM;
  else process.env.CONTENT_ANALYSIS_WASM = value;
  try {
    return body();
  } finally {
    if (saved === undefined) delete process.env.CONTENT_ANALYSIS_WASM;
    else process.env.CONTENT_ANALYSIS_WASM = saved;
  }
}

describe('build-wasm.mjs and loadWasmModule', () => {
  it('builds the top-level modules only, loads them once per thread, and they call the host Math', () => {
    expect(execFileSync(process.execPath, [buildScript, dir], { encoding: 'utf8' })).toMatch(/^probe\.wasm: \d+ bytes\n$/);
    const url = pathToFileURL(join(dir, 'wasm', 'probe.wasm'));
    const m = withSwitch(undefined, () => loadWasmModule(url))!;
    expect(m).toBeDefined();
    expect(withSwitch(undefined, () => loadWasmModule(url))).toBe(m);
    m.reserve(1 << 17);
    expect(m.memory.buffer.byteLength).toBeGreaterThanOrEqual(1 << 17);
    const values = new Float64Array(m.memory.buffer, 0, 100);
    let expected = 0;
    for (let i = 0; i < values.length; i++) { values[i] = 0.37 + i * 1.93; expected += Math.log(values[i]!); }
    expect(m.function<(p: number, n: number) => number>('logSum')(0, values.length)).toBe(expected + expected);
    const ints = new Int32Array(m.memory.buffer, 1024, 8);
    ints.set([1, -5, 7, 2, 3, 9, -1, 2]);
    m.function<(p: number, q: number, n: number) => void>('maxPairs')(1024, 2048, 4);
    expect([...new Int32Array(m.memory.buffer, 2048, 4)]).toEqual([3, 9, 7, 2]);
    expect(() => m.function('missing')).toThrow(/Expected a function missing/);
    expect(m.heapBase() % 16).toBe(0);
    expect(m.heapBase()).toBeGreaterThan(0);
    expect([0, 1, 15, 16, 17, 1000].map(align16)).toEqual([0, 16, 16, 16, 32, 1008]);
  }, 60_000);

  it("loads a package's modules by name unless its own switch or the shared one is 0", () => {
    const modules = packageModules(pathToFileURL(join(dir, 'wasm') + '/'), 'CONTENT_ANALYSIS_PROBE_WASM');
    expect(withSwitch(undefined, () => modules('probe'))).toBeDefined();
    expect(withSwitch(undefined, () => modules('probe'))).toBe(withSwitch(undefined, () => loadWasmModule(pathToFileURL(join(dir, 'wasm', 'probe.wasm')))));
    expect(withSwitch('0', () => modules('probe'))).toBeUndefined();
    process.env.CONTENT_ANALYSIS_PROBE_WASM = '0';
    try {
      expect(withSwitch(undefined, () => modules('probe'))).toBeUndefined();
    } finally {
      delete process.env.CONTENT_ANALYSIS_PROBE_WASM;
    }
  });

  it('is off with CONTENT_ANALYSIS_WASM=0', () => {
    expect(withSwitch('0', () => loadWasmModule(pathToFileURL(join(dir, 'wasm', 'probe.wasm'))))).toBeUndefined();
  });

  it('--check passes on fresh modules and fails on a changed module, a module without source and a bad folder', () => {
    execFileSync(process.execPath, [buildScript, dir], { encoding: 'utf8' });
    expect(run(dir, '--check')).toMatchObject({ status: 0, stdout: 'probe.wasm: matches its source\n' });
    const file = join(dir, 'wasm', 'probe.wasm');
    const bytes = readFileSync(file);
    writeFileSync(file, Buffer.concat([bytes, Buffer.from([0])]));
    expect(run(dir, '--check')).toMatchObject({ status: 1, stdout: 'probe.wasm: differs from its source (run build-wasm.mjs)\n' });
    writeFileSync(file, bytes);
    writeFileSync(join(dir, 'wasm', 'stray.wasm'), bytes);
    expect(run(dir, '--check')).toMatchObject({ status: 1, stdout: 'probe.wasm: matches its source\nstray.wasm: has no source in assembly/\n' });
    rmSync(join(dir, 'wasm', 'stray.wasm'));
    expect(run(join(dir, 'nowhere')).status).toBe(2);
  }, 60_000);
});
