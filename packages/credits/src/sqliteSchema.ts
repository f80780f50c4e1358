import type { Database } from 'better-sqlite3';
import { SchemaVersionError } from './errors.js';
import { SCHEMA_VERSION } from './sqliteSchemaVersion.js';

export { SCHEMA_VERSION };

// STRICT tables make SQLite reject a value of the wrong type instead of storing it; the CHECK constraints
// repeat, in the database, the rules the code keeps, so that no bug and no other client can write a negative
// balance or a second refund of one charge. Entries are never deleted, so `seq` (the rowid) orders them.
const SCHEMA_V1 = `
CREATE TABLE IF NOT EXISTS accounts (
  id TEXT PRIMARY KEY,
  balance INTEGER NOT NULL CHECK (balance >= 0),
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS tokens (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  hash TEXT NOT NULL UNIQUE,
  label TEXT,
  created_at TEXT NOT NULL,
  revoked_at TEXT
) STRICT;

CREATE INDEX IF NOT EXISTS tokens_account ON tokens (account_id);

CREATE TABLE IF NOT EXISTS entries (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  kind TEXT NOT NULL CHECK (kind IN ('charge', 'refund', 'topup')),
  amount INTEGER NOT NULL CHECK (amount >= 0),
  balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
  memo TEXT,
  created_at TEXT NOT NULL,
  refund_of TEXT UNIQUE REFERENCES entries (id),
  CHECK ((kind = 'refund') = (refund_of IS NOT NULL))
) STRICT;

CREATE INDEX IF NOT EXISTS entries_account ON entries (account_id, seq);
`;

// Version 2: the charges whose answer is being delivered (`chargeOnDelivery`), each under the process that holds it
// (`host pid start`), so that the next ledger to open the file refunds those of a process that died meanwhile.
const SCHEMA_V2 = `
CREATE TABLE IF NOT EXISTS pending_deliveries (
  charge_id TEXT PRIMARY KEY REFERENCES entries (id),
  holder TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
`;

/**
 * Brings the database to `SCHEMA_VERSION`. Runs in one `BEGIN IMMEDIATE` transaction, so processes that open a
 * new file at the same moment create the schema once: the second waits for the first, then finds the version set.
 *
 * @throws {SchemaVersionError} if the file was written by a newer version of this package
 */
export function migrate(db: Database): void {
  db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) throw new SchemaVersionError(version, SCHEMA_VERSION);
    if (version === SCHEMA_VERSION) return;
    if (version < 1) db.exec(SCHEMA_V1);
    if (version < 2) db.exec(SCHEMA_V2);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}
