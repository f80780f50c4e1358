import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { SqliteUnavailableError } from './errors.js';

const require = createRequire(import.meta.url);
let driver: typeof BetterSqlite3 | undefined;

/**
 * better-sqlite3, loaded on first use: importing the package loads no native module, and a team that never opens
 * an SQLite file does not need the driver installed (it is an optional peer dependency).
 * @throws {SqliteUnavailableError} when the package is missing or its native module cannot load
 */
export function loadSqlite(what: string): typeof BetterSqlite3 {
  if (driver) return driver;
  try {
    driver = require('better-sqlite3') as typeof BetterSqlite3;
  } catch (error) {
    throw new SqliteUnavailableError(what, { cause: error });
  }
  return driver;
}
