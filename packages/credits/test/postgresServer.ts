import pg from 'pg';

/**
 * The PostgreSQL server of the tests that need one (this package's ledger, the plagiarism index, the scale-out
 * tests of server and cli): `CONTENT_ANALYSIS_TEST_POSTGRES`, or the one at 127.0.0.1:5432 (database `test`, user
 * `postgres`). Without one those tests are skipped with a message, so `npm test` passes on a machine with Node
 * alone; with `CONTENT_ANALYSIS_TEST_POSTGRES_REQUIRED=1` (set by `.ci/run`) a missing server fails them instead.
 */
export const postgresUrl = process.env.CONTENT_ANALYSIS_TEST_POSTGRES || 'postgres://postgres@127.0.0.1:5432/test';
export const postgresRequired = process.env.CONTENT_ANALYSIS_TEST_POSTGRES_REQUIRED === '1';

/** Why no PostgreSQL answers at `postgresUrl`, or undefined when one does. */
export async function probePostgres(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return (error as Error).message || String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A connection string with its password hidden, for messages. */
export function redactUrl(connectionString: string): string {
  return connectionString.replace(/\/\/[^@/]*@/, (auth) => auth.replace(/:[^:@]*@$/, ':***@'));
}
