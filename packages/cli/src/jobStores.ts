import { resolve } from 'node:path';
import type { JobStores } from '@content-analysis/server';
import type { ServeStores } from './serve.js';

/** A PostgreSQL URL reduced to what names the database: host, port and database, never the credentials. */
function databaseName(url: string): string {
  try {
    const parsed = new URL(url);
    return `postgres://${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'postgres (unparsable URL)';
  }
}

/**
 * The stores a node reads for queued plagiarism checks and fact checks, as the descriptors each job carries (see
 * `JobStores`): the API node records its own in every job, a worker refuses a job whose descriptors are not its own.
 */
export function jobStoresOf(options: {
  stores: ServeStores;
  /** Whether the plagiarism index is the PostgreSQL one of `stores.database`. */
  sharedIndex: boolean;
  /** The SQLite index file, when the index is not shared. */
  indexPath: string | undefined;
  sources: string | undefined;
  evidence: string | undefined;
}): JobStores {
  const index = options.sharedIndex ? `${databaseName(options.stores.database!)} schema ${options.stores.databaseSchema}`
    : options.indexPath !== undefined ? `sqlite ${resolve(options.indexPath)}` : 'none';
  return {
    sources: options.sources === undefined ? index : `${index} + documents ${resolve(options.sources)}`,
    evidence: options.evidence === undefined ? 'none' : `documents ${resolve(options.evidence)}`,
  };
}
