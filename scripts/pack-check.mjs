#!/usr/bin/env node
// Installs the packages as a team that depends on them would, and checks what it gets: packs every workspace
// package with `pnpm pack` (it rewrites `workspace:*`), installs the tarballs into a scratch npm project in a
// temporary folder with a plain `npm install` (no flags, none of the install-skipping variables), then measures
// node_modules and the engine's import time, runs a consumer script
// (scripts/pack-check/consumer.mjs) and compiles a strict TypeScript consumer (scripts/pack-check/consumer.ts,
// `strict`, `moduleResolution: nodenext`, `skipLibCheck: false`) against the installed packages.
//
//   node scripts/pack-check.mjs [--keep] [--json <file>]
//
// Prints one line per check and a summary; exits 1 when a check fails. --keep leaves the scratch folder behind.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, lstatSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const here = join(root, 'scripts', 'pack-check');
const args = process.argv.slice(2);
const keep = args.includes('--keep');
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined;

/**
 * The environment of a team's machine: none of the variables that make the native packages skip their downloads, no
 * choice of ONNX runtime, and no NODE_PATH or NODE_OPTIONS (pnpm's bin shims point NODE_PATH into the workspace's store, where the
 * scratch project would find packages it did not install).
 */
const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !/^(ONNXRUNTIME_NODE_INSTALL|SKIP_RUST_BUILD|SKIP_BINARY_DOWNLOAD|C2PA_LIBRARY_PATH|npm_config_|NPM_CONFIG_|npm_package_|npm_lifecycle_|NODE_PATH$|NODE_OPTIONS$|VITEST|NODE_ENV$|CONTENT_ANALYSIS_ONNX_RUNTIME$)/i.test(name)),
);

function pnpm() {
  try {
    const v = execFileSync('pnpm', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (v.startsWith('10.')) return ['pnpm', []];
  } catch {
    // not on PATH
  }
  return ['npx', ['--yes', 'pnpm@10.34.9']];
}

function run(cmd, argv, cwd, env = cleanEnv) {
  const started = performance.now();
  const r = spawnSync(cmd, argv, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - started;
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', ms, error: r.error };
}

function sizeOf(path) {
  let total = 0;
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return 0;
  if (!stat.isDirectory()) return stat.size;
  for (const entry of readdirSync(path)) total += sizeOf(join(path, entry));
  return total;
}

function largestPackages(modules, count) {
  const sizes = [];
  for (const name of readdirSync(modules)) {
    if (name.startsWith('.')) continue;
    const dirs = name.startsWith('@') ? readdirSync(join(modules, name)).map((n) => `${name}/${n}`) : [name];
    for (const dir of dirs) sizes.push([dir, sizeOf(join(modules, dir))]);
  }
  return sizes.sort((a, b) => b[1] - a[1]).slice(0, count);
}

const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
const checks = [];
function check(name, ok, detail) {
  checks.push({ name, ok, detail });
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
}

const work = mkdtempSync(join(tmpdir(), 'content-analysis-pack-'));
const tarballs = join(work, 'tarballs');
const consumer = join(work, 'consumer');
mkdirSync(tarballs);
mkdirSync(consumer);
const figures = { folder: work };

try {
  // 1. Pack every public package.
  const [pnpmCmd, pnpmPre] = pnpm();
  const packages = readdirSync(join(root, 'packages'))
    .map((dir) => ({ dir: join(root, 'packages', dir), pkg: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) }))
    .filter(({ pkg }) => !pkg.private);
  const packed = {};
  for (const { dir, pkg } of packages) {
    const r = run(pnpmCmd, [...pnpmPre, 'pack', '--pack-destination', tarballs], dir, process.env);
    const file = readdirSync(tarballs).find((f) => f.startsWith(pkg.name.replace('@', '').replace('/', '-') + '-'));
    if (r.status !== 0 || !file) {
      check(`pack ${pkg.name}`, false, r.stderr.trim().split('\n').slice(-3).join(' | '));
      continue;
    }
    packed[pkg.name] = file;
    const listing = execFileSync('tar', ['tzf', join(tarballs, file)], { encoding: 'utf8' }).split('\n');
    const stray = listing.filter((f) => /\.tsbuildinfo$|(^|\/)test\//.test(f));
    const missing = ['package/LICENSE', 'package/README.md', 'package/package.json'].filter((f) => !listing.includes(f));
    check(`pack ${pkg.name}`, stray.length === 0 && missing.length === 0,
      `${mb(statSync(join(tarballs, file)).size)} packed${stray.length ? `, stray ${stray.slice(0, 3).join(', ')}` : ''}${missing.length ? `, missing ${missing.join(', ')}` : ''}`);
  }
  figures.tarballs = Object.fromEntries(Object.entries(packed).map(([name, file]) => [name, statSync(join(tarballs, file)).size]));

  // 2. A scratch npm project that depends on every tarball; a plain `npm install`. onnxruntime-node is an optional
  // peer of @content-analysis/onnx (on linux-x64 its postinstall downloads CUDA 12 libraries from NuGet), so npm does
  // not install it; the models run on onnxruntime-web (WebAssembly, no install script). Which one was installed is
  // reported, and the consumer script checks that AI text runs on it.
  // @content-analysis/models-extra (the model versions that are neither a default nor `latest`) is what a team adds
  // only when it wants them: the scratch project leaves it out, and the consumer script checks that asking for one of
  // its versions answers an error naming it.
  const optIn = new Set(['@content-analysis/models-extra']);
  const dependencies = Object.fromEntries(Object.entries(packed).filter(([name]) => !optIn.has(name)).map(([name, file]) => [name, `file:../tarballs/${file}`]));
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'pack-check-consumer', private: true, type: 'module', dependencies }, null, 2));
  const install = run('npm', ['install', '--no-audit', '--no-fund'], consumer);
  figures.installSeconds = Math.round(install.ms / 100) / 10;
  check('plain npm install of the tarballs (no flags, no variables)', install.status === 0,
    install.status === 0 ? `${figures.installSeconds} s` : `exit ${install.status}: ${(install.stderr + install.stdout).trim().split('\n').slice(-6).join(' | ')}`);
  if (install.status !== 0) throw new Error('install failed');
  figures.onnxRuntimeNodeInstalled = existsSync(join(consumer, 'node_modules', 'onnxruntime-node', 'package.json'));
  check('ONNX runtimes installed', existsSync(join(consumer, 'node_modules', 'onnxruntime-web', 'package.json')),
    `onnxruntime-web yes, onnxruntime-node ${figures.onnxRuntimeNodeInstalled ? 'yes' : 'no (an optional peer, not installed)'}`);

  // 3. Size of what a team installs.
  const modules = join(consumer, 'node_modules');
  figures.nodeModulesBytes = sizeOf(modules);
  figures.largest = largestPackages(modules, 8).map(([name, bytes]) => `${name} ${mb(bytes)}`);
  check('node_modules <= 800 MB', figures.nodeModulesBytes <= 800e6, `${mb(figures.nodeModulesBytes)}; largest: ${figures.largest.join(', ')}`);

  // 4. Import time of the engine, in fresh processes (median of 5): wall clock, and the process's CPU time, which
  // says more on a busy machine.
  const runs = [];
  for (let i = 0; i < 5; i++) {
    const r = run(process.execPath, ['--input-type=module', '-e',
      "const c = process.cpuUsage(); const t = performance.now(); await import('@content-analysis/engine'); const u = process.cpuUsage(c); console.log(JSON.stringify([performance.now() - t, (u.user + u.system) / 1000]));"], consumer);
    if (r.status === 0) runs.push(JSON.parse(r.stdout.trim()));
  }
  const median = (values) => values.sort((a, b) => a - b)[2];
  figures.importMs = runs.length === 5 ? Math.round(median(runs.map(([wall]) => wall))) : null;
  figures.importCpuMs = runs.length === 5 ? Math.round(median(runs.map(([, cpu]) => cpu))) : null;
  figures.loadAverage = loadavg()[0];
  check("import('@content-analysis/engine') median of 5", figures.importMs !== null,
    figures.importMs === null ? 'the import failed'
      : `${figures.importMs} ms wall, ${figures.importCpuMs} ms CPU (walls: ${runs.map(([wall]) => Math.round(wall)).join(', ')}; load average ${figures.loadAverage.toFixed(1)})`);

  // 5. The consumer script: lazy loading, documented calls, the hostile PDF.
  copyFileSync(join(here, 'consumer.mjs'), join(consumer, 'consumer.mjs'));
  copyFileSync(join(root, 'fixtures', 'documents', 'hostile', 'many-pages.pdf'), join(consumer, 'many-pages.pdf'));
  copyFileSync(join(root, 'fixtures', 'documents', 'two-column.pdf'), join(consumer, 'two-column.pdf'));
  copyFileSync(join(root, 'fixtures', 'demo', 'evening-harbour.jpg'), join(consumer, 'evening-harbour.jpg'));
  const datasets = process.env.CONTENT_ANALYSIS_DATASETS ?? join(root, '..', 'shared', 'datasets');
  const signed = join(datasets, 'images', 'c2pa-sdk-fixtures', 'c2pa-rs', 'CA.jpg');
  if (existsSync(signed)) copyFileSync(signed, join(consumer, 'c2pa-signed.jpg'));
  const script = run(process.execPath, ['consumer.mjs'], consumer, {
    ...cleanEnv, DOTENV_CONFIG_QUIET: 'true', PACK_CHECK_EXPECTED_ONNX_RUNTIME: figures.onnxRuntimeNodeInstalled ? 'node' : 'web',
  });
  for (const line of script.stdout.split('\n').filter(Boolean)) {
    try {
      const { name, ok, detail } = JSON.parse(line);
      check(name, ok, detail);
    } catch {
      console.log(`     ${line}`);
    }
  }
  check('consumer script exits cleanly', script.status === 0, script.status === 0 ? '' : `exit ${script.status}: ${script.stderr.trim().split('\n').slice(-5).join(' | ')}`);

  // 5b. A team that wants the older model versions adds @content-analysis/models-extra: they answer as themselves.
  const extraTarball = packed['@content-analysis/models-extra'];
  const addExtra = extraTarball ? run('npm', ['install', '--no-audit', '--no-fund', `../tarballs/${extraTarball}`], consumer) : { status: 1, stderr: 'not packed', stdout: '' };
  check('npm install of @content-analysis/models-extra added later', addExtra.status === 0,
    addExtra.status === 0 ? `${Math.round(addExtra.ms / 100) / 10} s` : (addExtra.stderr + addExtra.stdout).trim().split('\n').slice(-4).join(' | '));
  if (addExtra.status === 0) {
    copyFileSync(join(here, 'extra-consumer.mjs'), join(consumer, 'extra-consumer.mjs'));
    const extra = run(process.execPath, ['extra-consumer.mjs'], consumer, { ...cleanEnv, DOTENV_CONFIG_QUIET: 'true' });
    for (const line of extra.stdout.split('\n').filter(Boolean)) {
      try {
        const { name, ok, detail } = JSON.parse(line);
        check(name, ok, detail);
      } catch {
        console.log(`     ${line}`);
      }
    }
    check('models-extra consumer script exits cleanly', extra.status === 0, extra.status === 0 ? '' : `exit ${extra.status}: ${extra.stderr.trim().split('\n').slice(-5).join(' | ')}`);
  }

  // 6. Strict TypeScript against the installed declarations (the workspace's compiler and Node types, nothing else).
  copyFileSync(join(here, 'consumer.ts'), join(consumer, 'consumer.ts'));
  writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      target: 'ES2023', lib: ['ES2023'], module: 'nodenext', moduleResolution: 'nodenext', strict: true, skipLibCheck: false,
      noEmit: true, types: ['node'], typeRoots: [join(root, 'node_modules', '@types')],
    },
    files: ['consumer.ts'],
  }, null, 2));
  const tsc = run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], consumer);
  check('strict tsc (nodenext, skipLibCheck false) of consumer.ts', tsc.status === 0,
    tsc.status === 0 ? '' : tsc.stdout.trim().split('\n').slice(0, 8).join(' | '));
} catch (error) {
  if (!checks.some((c) => !c.ok)) check('pack-check', false, error instanceof Error ? error.message : String(error));
} finally {
  figures.checks = checks;
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(figures, null, 2));
  if (keep) console.log(`scratch project kept in ${consumer}`);
  else rmSync(work, { recursive: true, force: true });
}

const failed = checks.filter((c) => !c.ok).length;
console.log(`pack-check: ${checks.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
