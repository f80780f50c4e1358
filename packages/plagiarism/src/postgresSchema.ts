import { advisoryLockKey, applyMigrations } from '@content-analysis/credits';
import type { PostgresMigration } from '@content-analysis/credits';
import type pg from 'pg';
import { IndexSchemaVersionError } from './errors.js';

// `documents.id` and `removed_documents.seq` are assigned while the writer holds the schema's write lock (see
// `writeLockKey`), so they grow in commit order: a node that has read every id up to n has seen every change up
// to n, and pulls the rest with `id > n` / `seq > m`. A replaced or removed document leaves a row in
// `removed_documents` so that the other nodes drop it from their posting tables too.
const MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'documents, removals and meta',
    sql: `
CREATE TABLE index_meta (key text PRIMARY KEY, value text NOT NULL);

CREATE TABLE documents (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  url text NOT NULL UNIQUE CHECK (url <> ''),
  title text, author text, description text, published_date bigint,
  language text NOT NULL,
  text text NOT NULL,
  fingerprints bytea NOT NULL CHECK (octet_length(fingerprints) % 4 = 0)
);

CREATE TABLE removed_documents (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  document_id bigint NOT NULL
);
`,
  },
];

/** Latest schema version of the PostgreSQL source index: the highest version in its `schema_migrations` table. */
export const INDEX_SCHEMA_VERSION = MIGRATIONS.length;

export { quoteIdentifier } from '@content-analysis/credits';

const lockKey = (purpose: string, schema: string): string => advisoryLockKey(`@content-analysis/plagiarism ${purpose} ${schema}`);

/** Key of the transaction-level advisory lock every write of one schema's documents takes first. */
export function writeLockKey(schema: string): string {
  return lockKey('writes', schema);
}

/**
 * Brings `schema` to `INDEX_SCHEMA_VERSION`, creating the schema if it is missing, in one transaction that first
 * takes an advisory lock on the schema: nodes that start together apply each step once. Its version table is
 * `index_schema_migrations`, so the index may share a schema with the credits ledger (whose table is
 * `schema_migrations`) without either reading the other's versions.
 *
 * @throws {IndexSchemaVersionError} if the schema was migrated by a newer version of this package
 */
export async function migrateIndex(client: pg.PoolClient, schema: string): Promise<void> {
  await applyMigrations(client, schema, {
    table: 'index_schema_migrations',
    migrations: MIGRATIONS,
    lockKey: lockKey('migrations', schema),
    tooNew: (current, latest) => new IndexSchemaVersionError(current, latest),
  });
}
