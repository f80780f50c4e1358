import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { SqliteLedger } from '@content-analysis/credits';

/** Account used by the CLI's account commands when `--account` is not given. */
export const DEFAULT_ACCOUNT = 'default';

/** The ledger file: `--db`, else `$CONTENT_ANALYSIS_DB`, else `.data/content-analysis.sqlite` under the working directory. */
export function ledgerPath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(flag ?? env.CONTENT_ANALYSIS_DB ?? '.data/content-analysis.sqlite');
}

export function openLedger(path: string): SqliteLedger {
  mkdirSync(dirname(path), { recursive: true });
  return new SqliteLedger({ path });
}

/** The persisted plagiarism source index: `--index`, else `$CONTENT_ANALYSIS_SOURCES`, else `.data/sources.sqlite`. */
export function sourcesPath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const path = resolve(flag ?? env.CONTENT_ANALYSIS_SOURCES ?? '.data/sources.sqlite');
  mkdirSync(dirname(path), { recursive: true });
  return path;
}
