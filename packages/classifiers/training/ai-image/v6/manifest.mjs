// Reads the manifest build-corpus.mjs writes (out/ai-image-v6/manifest.csv).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsv } from '../datasets.mjs';

/** Rows of `<dir>/manifest.csv` as objects; exits with a clear message when the corpus has not been built. */
export function readManifest(dir) {
  const path = join(dir, 'manifest.csv');
  if (!existsSync(path)) {
    console.log(`skipped: ${path} not found (build the corpus first: node training/ai-image/v6/build-corpus.mjs)`);
    process.exit(0);
  }
  return parseCsv(readFileSync(path, 'utf8'));
}
