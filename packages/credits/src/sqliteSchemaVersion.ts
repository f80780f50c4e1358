// Apart from sqliteSchema.ts so that the package's public types do not reach better-sqlite3's (an optional peer).
/** Schema version stored in `PRAGMA user_version`; bump it, and add a step to `migrate`, when the schema changes. */
export const SCHEMA_VERSION = 2;
