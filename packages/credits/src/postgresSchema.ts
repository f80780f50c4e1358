import { createHash } from 'node:crypto';
import type pg from 'pg';
import { SchemaVersionError } from './errors.js';

/** One step of the PostgreSQL schema. Steps are applied in order and never edited once released: add a new one. */
interface Migration {
  version: number;
  name: string;
  sql: string;
}

// The CHECK constraints repeat, in the database, the rules the code keeps, so that no bug and no other client can
// write a negative balance, a balance past Number.MAX_SAFE_INTEGER (where a JavaScript number stops being exact)
// or a second refund of one charge. Entries are never deleted, so `seq` orders them; every write to an account
// holds that account's row lock, so per account `seq` order is commit order.
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts, tokens and entries',
    sql: `
CREATE TABLE accounts (
  id text PRIMARY KEY,
  balance bigint NOT NULL CHECK (balance BETWEEN 0 AND 9007199254740991),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tokens (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  hash text NOT NULL UNIQUE CHECK (hash ~ '^[0-9a-f]{64}$'),
  label text,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

CREATE INDEX tokens_account ON tokens (account_id);

CREATE TABLE entries (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id text NOT NULL UNIQUE,
  account_id text NOT NULL REFERENCES accounts (id),
  kind text NOT NULL CHECK (kind IN ('charge', 'refund', 'topup')),
  amount bigint NOT NULL CHECK (amount >= 0),
  balance_after bigint NOT NULL CHECK (balance_after >= 0),
  memo text,
  created_at timestamptz NOT NULL DEFAULT now(),
  refund_of text UNIQUE REFERENCES entries (id),
  CHECK ((kind = 'refund') = (refund_of IS NOT NULL))
);

CREATE INDEX entries_account ON entries (account_id, seq);
`,
  },
];

/** Latest schema version of the PostgreSQL ledger: the highest version in its `schema_migrations` table. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;

/** `"name"`, quoted for SQL; the name is validated by the ledger first, so this is belt and braces. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Key of the transaction-level advisory lock that serialises migrations of one schema: the first 8 bytes of a
 * SHA-256, so that ledgers in different schemas of one database do not wait for each other.
 */
function migrationLockKey(schema: string): string {
  return createHash('sha256').update(`@content-analysis/credits migrations ${schema}`).digest()
    .readBigInt64BE(0).toString();
}

/**
 * Brings `schema` to `POSTGRES_SCHEMA_VERSION`, creating the schema if it is missing. Runs in one transaction
 * that first takes an advisory lock on the schema, so ledgers that start against a fresh schema at the same
 * moment (API nodes booting together) apply each step once: the others wait, then find it recorded in
 * `schema_migrations`. DDL is transactional in PostgreSQL, so a failed step leaves nothing behind, and the lock is
 * released by the commit or rollback even if the connection goes back to a pool.
 *
 * @throws {SchemaVersionError} if the schema was migrated by a newer version of this package
 */
export async function migrate(client: pg.PoolClient, schema: string): Promise<void> {
  const quoted = quoteIdentifier(schema);
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [migrationLockKey(schema)]);
    // Checked before creating, so that a role without CREATE on the database can use a schema made for it.
    const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${quoted}`);
    await client.query(`SET LOCAL search_path TO ${quoted}`);
    // Looked up first too: CREATE TABLE IF NOT EXISTS would still ask for CREATE on the schema.
    const { rows: [table] } = await client.query<{ found: boolean }>(
      'SELECT to_regclass($1) IS NOT NULL AS found', [`${quoted}.schema_migrations`]);
    if (!table?.found) await client.query(`CREATE TABLE schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
    const current = rows[0]?.version ?? 0;
    if (current > POSTGRES_SCHEMA_VERSION) throw new SchemaVersionError(current, POSTGRES_SCHEMA_VERSION);
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)',
        [migration.version, migration.name]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
