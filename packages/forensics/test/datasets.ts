import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Root of the shared datasets: $CONTENT_ANALYSIS_DATASETS, else ../shared/datasets from the repository root. */
export const datasetsRoot = process.env.CONTENT_ANALYSIS_DATASETS ?? resolve(repoRoot, '../shared/datasets');

/** Path of a dataset folder, or undefined (with the reason logged once) when it is absent. */
export function datasetDir(relative: string): string | undefined {
  const dir = join(datasetsRoot, relative);
  if (existsSync(dir)) return dir;
  console.warn(`skipping: dataset ${relative} not found under ${datasetsRoot} (set CONTENT_ANALYSIS_DATASETS)`);
  return undefined;
}
