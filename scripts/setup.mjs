#!/usr/bin/env node
// Brings a fresh checkout to a runnable state with nothing but Node 20 and npm:
// installs the workspace with pnpm 10 (fetched through npx when it is not on PATH),
// then builds every package with `tsc -b`. Re-running it is cheap: each step is skipped
// when its output is already up to date.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PNPM = 'pnpm@10.34.9';

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], shell: process.platform === 'win32' });
  if (r.status !== 0) {
    console.error(`setup: \`${cmd} ${args.join(' ')}\` failed with exit code ${r.status}`);
    process.exit(r.status ?? 1);
  }
}

function pnpmCommand() {
  try {
    const v = execFileSync('pnpm', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (v.startsWith('10.')) return ['pnpm', []];
  } catch {
    // not installed: fall through to npx
  }
  return ['npx', ['--yes', PNPM]];
}

function mtime(p) {
  return existsSync(p) ? statSync(p).mtimeMs : 0;
}

const marker = join(root, 'node_modules', '.modules.yaml');
const installed = mtime(marker);
const needsInstall =
  installed === 0 ||
  mtime(join(root, 'pnpm-lock.yaml')) > installed ||
  mtime(join(root, 'package.json')) > installed;

if (needsInstall) {
  const [cmd, pre] = pnpmCommand();
  const frozen = process.env.CI ? ['--frozen-lockfile'] : [];
  console.error('setup: installing the workspace with pnpm 10');
  run(cmd, [...pre, 'install', ...frozen, '--reporter=append-only']);
}

console.error('setup: building (tsc -b)');
run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', join(root, 'tsconfig.json')]);

// Files derived from devDependencies that the packages read (a published package carries them, built at prepack).
const wordVectors = join(root, 'packages', 'fact-check', 'models', 'word-vectors.bin');
if (!existsSync(wordVectors)) {
  console.error('setup: writing the fact checker\'s word vectors (packages/fact-check/models/word-vectors.bin)');
  run(process.execPath, [join(root, 'packages', 'fact-check', 'scripts', 'build-word-vectors.mjs')]);
}
