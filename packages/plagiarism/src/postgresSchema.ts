import { createHash } from 'node:crypto';
import type pg from 'pg';
import { IndexSchemaVersionError } from './errors.js';

/** One step of the PostgreSQL schema. Steps are applied in order and never edited once released: add a new one. */
interface Migration {
  version: number;
  name: string;
  sql: string;
}

// `documents.id` and `removed_documents.seq` are assigned while the writer holds the schema's write lock (see
// `writeLockKey`), so they grow in commit order: a node that has read every id up to n has seen every change up
// to n, and pulls the rest with `id > n` / `seq > m`. A replaced or removed document leaves a row in
// `removed_documents` so that the other nodes drop it from their posting tables too.
const MIGRATIONS: readonly Migration[] = [
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

/** `"name"`, quoted for SQL; the name is validated first, so this is belt and braces. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function lockKey(purpose: string, schema: string): string {
  return createHash('sha256').update(`@content-analysis/plagiarism ${purpose} ${schema}`).digest().readBigInt64BE(0).toString();
}

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
  const quoted = quoteIdentifier(schema);
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [lockKey('migrations', schema)]);
    const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${quoted}`);
    await client.query(`SET LOCAL search_path TO ${quoted}`);
    const { rows: [table] } = await client.query<{ found: boolean }>(
      'SELECT to_regclass($1) IS NOT NULL AS found', [`${quoted}.index_schema_migrations`]);
    if (!table?.found) await client.query(`CREATE TABLE index_schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM index_schema_migrations');
    const current = rows[0]?.version ?? 0;
    if (current > INDEX_SCHEMA_VERSION) throw new IndexSchemaVersionError(current, INDEX_SCHEMA_VERSION);
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO index_schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
