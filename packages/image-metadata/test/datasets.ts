import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** `$CONTENT_ANALYSIS_DATASETS`, or `../shared/datasets` from the repository root. */
export const DATASETS = resolve(repoRoot, process.env['CONTENT_ANALYSIS_DATASETS'] ?? '../shared/datasets');

/** The images/<name> dataset folder, or undefined (with a message) when it is absent. */
export function imageDataset(name: string): string | undefined {
  const dir = resolve(DATASETS, 'images', name);
  if (existsSync(dir)) return dir;
  console.warn(`[image-metadata] dataset images/${name} not found under ${DATASETS}: tests that need it are skipped`);
  return undefined;
}
