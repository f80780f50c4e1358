// Compiles a package's AssemblyScript modules, <package>/assembly/*.ts, to <package>/wasm/<name>.wasm (committed, so
// that running the package needs Node only; files in subfolders of assembly/ are shared code, not modules).
// `--check` compiles into memory and fails when a committed module differs from the build of its source, or when a
// module has no source.
// Run: node packages/wasm/scripts/build-wasm.mjs <package folder> [--check]
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import asc from 'assemblyscript/asc';

/**
 * Fixed compiler flags: optimised, no runtime or garbage collector (the modules only read and write memory the caller
 * lays out), no bounds assertions, SIMD on, and Math from the host (`JSMath`), so a logarithm or exponential is V8's
 * and equals the JavaScript paths' bit for bit.
 */
export const FLAGS = ['-O3', '--runtime', 'stub', '--noAssert', '--enable', 'simd', '--use', 'Math=JSMath'];

/** The module built now from <packageDir>/assembly/<name>.ts, as bytes. */
export async function build(packageDir, name) {
  const dir = mkdtempSync(join(tmpdir(), 'content-analysis-wasm-'));
  try {
    const out = join(dir, `${name}.wasm`);
    const { error, stderr } = await asc.main([join(packageDir, 'assembly', `${name}.ts`), ...FLAGS, '--outFile', out]);
    if (error) throw new Error(`asc failed for ${name}: ${error.message}\n${stderr.toString()}`);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Names of the package's modules: the top-level assembly/*.ts. */
export function sources(packageDir) {
  return readdirSync(join(packageDir, 'assembly')).filter((f) => f.endsWith('.ts')).map((f) => basename(f, '.ts')).sort();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const packageArg = process.argv.slice(2).find((a) => !a.startsWith('--'));
  if (!packageArg || !existsSync(join(packageArg, 'assembly'))) {
    console.error('Expected a package folder with an assembly/ folder, e.g. node packages/wasm/scripts/build-wasm.mjs packages/forensics [--check]');
    process.exit(2);
  }
  const packageDir = resolve(packageArg);
  const check = process.argv.includes('--check');
  const names = sources(packageDir);
  let stale = 0;
  for (const name of names) {
    const bytes = await build(packageDir, name);
    const target = join(packageDir, 'wasm', `${name}.wasm`);
    if (check) {
      const committed = existsSync(target) ? readFileSync(target) : undefined;
      const same = committed !== undefined && Buffer.compare(committed, bytes) === 0;
      if (!same) stale++;
      console.log(`${name}.wasm: ${same ? 'matches its source' : 'differs from its source (run build-wasm.mjs)'}`);
    } else {
      writeFileSync(target, bytes);
      console.log(`${name}.wasm: ${bytes.length} bytes`);
    }
  }
  const orphans = existsSync(join(packageDir, 'wasm')) ? readdirSync(join(packageDir, 'wasm')).filter((f) => f.endsWith('.wasm') && !names.includes(basename(f, '.wasm'))) : [];
  for (const f of orphans) console.log(`${f}: has no source in assembly/`);
  if (stale || (check && orphans.length)) process.exit(1);
}
