import type pg from 'pg';
import { SchemaVersionError } from './errors.js';
import { advisoryLockKey, applyMigrations } from './postgresMigrations.js';
import type { PostgresMigration } from './postgresMigrations.js';

// The CHECK constraints repeat, in the database, the rules the code keeps, so that no bug and no other client can
// write a negative balance, a balance past Number.MAX_SAFE_INTEGER (where a JavaScript number stops being exact)
// or a second refund of one charge. Entries are never deleted, so `seq` orders them; every write to an account
// holds that account's row lock, so per account `seq` order is commit order.
const MIGRATIONS: readonly PostgresMigration[] = [
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
  {
    version: 2,
    name: 'pending deliveries',
    // A charge whose answer its node was still handing over, under that node's lease (postgresDeliveries.ts).
    sql: `
CREATE TABLE pending_deliveries (
  charge_id text PRIMARY KEY REFERENCES entries (id),
  holder integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX pending_deliveries_holder ON pending_deliveries (holder);
`,
  },
];

/** Latest schema version of the PostgreSQL ledger: the highest version in its `schema_migrations` table. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;

export { quoteIdentifier } from './postgresMigrations.js';

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
  await applyMigrations(client, schema, {
    table: 'schema_migrations',
    migrations: MIGRATIONS,
    // Unchanged from the first release: ledgers of one schema must keep taking the same lock.
    lockKey: advisoryLockKey(`@content-analysis/credits migrations ${schema}`),
    tooNew: (current, latest) => new SchemaVersionError(current, latest),
  });
}
