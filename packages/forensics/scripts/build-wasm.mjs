// Compiles the AssemblyScript kernels in assembly/*.ts to wasm/<name>.wasm (committed, so that running the package
// needs Node only). `--check` compiles into memory and fails when a committed module differs from its source's build.
// Run: node packages/forensics/scripts/build-wasm.mjs [--check]
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import asc from 'assemblyscript/asc';

/**
 * Fixed compiler flags: optimised, no runtime or garbage collector (the kernels only read and write memory the caller
 * lays out), no bounds assertions, SIMD on, and Math from the host (`JSMath`), so a logarithm or exponential is V8's
 * and equals the JavaScript kernels' bit for bit.
 */
export const FLAGS = ['-O3', '--runtime', 'stub', '--noAssert', '--enable', 'simd', '--use', 'Math=JSMath'];

const root = fileURLToPath(new URL('..', import.meta.url));
const check = process.argv.includes('--check');

/** The module built from assembly/<name>.ts now, as bytes. */
export async function build(name) {
  const dir = mkdtempSync(join(tmpdir(), 'forensics-wasm-'));
  try {
    const out = join(dir, `${name}.wasm`);
    const { error, stderr } = await asc.main([join(root, 'assembly', `${name}.ts`), ...FLAGS, '--outFile', out]);
    if (error) throw new Error(`asc failed for ${name}: ${error.message}\n${stderr.toString()}`);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function sources() {
  return readdirSync(join(root, 'assembly')).filter((f) => f.endsWith('.ts')).map((f) => basename(f, '.ts'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let stale = 0;
  for (const name of sources()) {
    const bytes = await build(name);
    const target = join(root, 'wasm', `${name}.wasm`);
    if (check) {
      let committed;
      try { committed = readFileSync(target); } catch { committed = undefined; }
      const same = committed !== undefined && Buffer.compare(committed, bytes) === 0;
      if (!same) stale++;
      console.log(`${name}.wasm: ${same ? 'matches its source' : 'differs from its source (run build-wasm.mjs)'}`);
    } else {
      writeFileSync(target, bytes);
      console.log(`${name}.wasm: ${bytes.length} bytes`);
    }
  }
  if (stale) process.exit(1);
}
