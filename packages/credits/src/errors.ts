/**
 * Error classes of the credits package. Each has a stable `code`, so a caller (the HTTP server, the CLI) maps
 * errors to responses by code rather than by message.
 */

/** No account has the given id. */
export class UnknownAccountError extends Error {
  readonly code = 'ERR_UNKNOWN_ACCOUNT';
  override readonly name = 'UnknownAccountError';
  constructor(readonly accountId: string) {
    super(`No account with id ${JSON.stringify(accountId)}`);
  }
}

/** An account with the given id already exists. */
export class DuplicateAccountError extends Error {
  readonly code = 'ERR_DUPLICATE_ACCOUNT';
  override readonly name = 'DuplicateAccountError';
  constructor(readonly accountId: string) {
    super(`An account with id ${JSON.stringify(accountId)} already exists`);
  }
}

/** No charge has the given id (unknown id, or the id of a refund or a top-up). */
export class UnknownChargeError extends Error {
  readonly code = 'ERR_UNKNOWN_CHARGE';
  override readonly name = 'UnknownChargeError';
  constructor(readonly chargeId: string) {
    super(`No charge with id ${JSON.stringify(chargeId)}`);
  }
}

/** A top-up or refund would take a balance above `Number.MAX_SAFE_INTEGER`, where it could no longer be exact. */
export class BalanceLimitError extends RangeError {
  readonly code = 'ERR_BALANCE_LIMIT';
  override readonly name = 'BalanceLimitError';
  constructor(readonly accountId: string, balance: number, amount: number) {
    super(`Crediting ${amount} to account ${JSON.stringify(accountId)} with balance ${balance} would exceed ` +
      `${Number.MAX_SAFE_INTEGER}`);
  }
}

/** The ledger was closed; it accepts no more calls. */
export class LedgerClosedError extends Error {
  readonly code = 'ERR_LEDGER_CLOSED';
  override readonly name = 'LedgerClosedError';
  constructor() {
    super('The ledger is closed');
  }
}

/** Another connection held the database lock for longer than the busy timeout. Safe to retry. */
export class LedgerBusyError extends Error {
  readonly code = 'ERR_LEDGER_BUSY';
  override readonly name = 'LedgerBusyError';
  constructor(options?: { cause?: unknown }) {
    super('The ledger database stayed locked for longer than the busy timeout', options);
  }
}

/** The database file was written by a newer version of this package (its schema version is unknown). */
export class SchemaVersionError extends Error {
  readonly code = 'ERR_SCHEMA_VERSION';
  override readonly name = 'SchemaVersionError';
  constructor(readonly found: number, readonly supported: number) {
    super(`The ledger database has schema version ${found}; this version of the package supports up to ${supported}`);
  }
}

/**
 * The SQLite driver (the `better-sqlite3` package, an optional peer dependency) is not installed or its native
 * module cannot load here. The in-memory and PostgreSQL ledgers work without it.
 */
export class SqliteUnavailableError extends Error {
  readonly code = 'ERR_SQLITE_UNAVAILABLE';
  override readonly name = 'SqliteUnavailableError';
  constructor(what: string, options?: { cause?: unknown }) {
    const reason = options?.cause instanceof Error ? options.cause.message.split('\n')[0] : String(options?.cause ?? 'unknown');
    super(
      `${what} needs the better-sqlite3 package, which is not installed or cannot load here (${reason}). ` +
        'Install it next to this package (npm install better-sqlite3: it fetches a prebuilt binary, or compiles with ' +
        'python3, make and a C++ compiler), or use the in-memory or PostgreSQL variant.',
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
  }
}
