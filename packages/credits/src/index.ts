export { billedWords, countWords, LONG_WORD, wordSpans } from './words.js';
export { createWordScan, reserveWordScan, scanWords, wordCodeHash } from './scanWords.js';
export type { WordScan } from './scanWords.js';
export { isSpaceCode } from './wordClasses.js';
export {
  aiTextCredits, CREDIT_COSTS, creditsForWords, factCheckCredits, NEW_ACCOUNT_CREDITS, plagiarismCredits,
  textCompareCredits,
} from './costs.js';
export type { CreditCosts } from './costs.js';
export { DEFAULT_HISTORY_LIMIT, refundUndelivered } from './ledger.js';
export type {
  Account, ChargeOutcome, CreateAccountOptions, DeliverCharge, Ledger, LedgerEntry, LedgerEntryKind, TokenIdentity, TokenInfo,
} from './ledger.js';
export { MemoryLedger } from './memoryLedger.js';
export { SqliteLedger } from './sqliteLedger.js';
export type { SqliteLedgerOptions } from './sqliteLedger.js';
export { SCHEMA_VERSION } from './sqliteSchemaVersion.js';
export { PostgresLedger } from './postgresLedger.js';
export type { PostgresLedgerOptions } from './postgresLedger.js';
export { POSTGRES_SCHEMA_VERSION } from './postgresSchema.js';
export { advisoryLockKey, applyMigrations, checkoutClient, quoteIdentifier } from './postgresMigrations.js';
export type { CheckedOutClient, MigrationPlan, PostgresMigration } from './postgresMigrations.js';
export { hashToken, TOKEN_PREFIX } from './tokens.js';
export {
  BalanceLimitError, DuplicateAccountError, LedgerBusyError, LedgerClosedError, SchemaVersionError,
  SqliteUnavailableError, UnknownAccountError, UnknownChargeError,
} from './errors.js';
export { assertAccountId } from './validate.js';
