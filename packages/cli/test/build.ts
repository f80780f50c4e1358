import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..', '..');
export const BIN = join(ROOT, 'packages', 'cli', 'dist', 'bin.js');

/** Builds the workspace (incremental `tsc -b`, quick when nothing changed) so child processes run current code. */
export function buildWorkspace(): void {
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', join(ROOT, 'tsconfig.json')], {
    stdio: 'inherit',
  });
}
