import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The packages as a team installs them: scripts/pack-check.mjs packs every package, installs the tarballs with a
// plain `npm install` into a scratch project and checks the result (see that script). Skipped only where npm
// itself is missing.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const npm = spawnSync('npm', ['--version'], { encoding: 'utf8' });

interface Figures {
  nodeModulesBytes?: number;
  importMs?: number | null;
  checks: { name: string; ok: boolean; detail: string }[];
}

describe.skipIf(npm.status !== 0)('packed packages installed with plain npm (scripts/pack-check.mjs)', () => {
  it('install, size, lazy loading, documented calls, hostile PDF and strict TypeScript all pass', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'pack-check-report-')), 'figures.json');
    const run = spawnSync(process.execPath, [join(root, 'scripts', 'pack-check.mjs'), '--json', out], { cwd: root, encoding: 'utf8' });
    console.log(run.stdout);
    const figures = JSON.parse(readFileSync(out, 'utf8')) as Figures;
    expect(figures.checks.filter((c) => !c.ok)).toEqual([]);
    expect(figures.checks.length).toBeGreaterThanOrEqual(25);
    expect(figures.nodeModulesBytes).toBeLessThanOrEqual(800e6);
    expect(run.status).toBe(0);
  }, 25 * 60_000);
});
