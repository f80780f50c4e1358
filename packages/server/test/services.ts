import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { postgresRequired, postgresUrl, probePostgres, redactUrl } from '../../credits/test/postgresServer.js';

/**
 * The Redis and PostgreSQL of the scale-out tests: `CONTENT_ANALYSIS_TEST_REDIS` (default redis://127.0.0.1:6379)
 * and `CONTENT_ANALYSIS_TEST_POSTGRES` (default postgres://postgres@127.0.0.1:5432/test). Without a server the
 * tests that need it are skipped with a line saying why, so `npm test` passes with Node alone; with
 * `CONTENT_ANALYSIS_TEST_REDIS_REQUIRED=1` or `CONTENT_ANALYSIS_TEST_POSTGRES_REQUIRED=1` (set by `.ci/run`) a
 * missing server fails them instead.
 */
export const redisUrl = process.env.CONTENT_ANALYSIS_TEST_REDIS || 'redis://127.0.0.1:6379';
export { postgresRequired, postgresUrl };
export const redisRequired = process.env.CONTENT_ANALYSIS_TEST_REDIS_REQUIRED === '1';

async function probeRedis(): Promise<string | undefined> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, connectTimeout: 3000, retryStrategy: () => null });
  let cause: Error | undefined;
  redis.on('error', (error: Error) => (cause ??= error));
  try {
    await redis.connect();
    await redis.ping();
    return undefined;
  } catch (error) {
    return (cause ?? (error as Error)).message || String(error);
  } finally {
    redis.disconnect();
  }
}

/** Why the Redis tests cannot run here (and are skipped), or undefined when they can or must. */
export async function redisSkipReason(suite: string): Promise<string | undefined> {
  const unavailable = await probeRedis();
  if (unavailable === undefined || redisRequired) return undefined;
  const reason = `${suite} skipped: no Redis answered at ${redisUrl} (${unavailable}); set CONTENT_ANALYSIS_TEST_REDIS to a redis:// URL to run them`;
  console.log(reason);
  return reason;
}

/** Why the PostgreSQL tests cannot run here (and are skipped), or undefined when they can or must. */
export async function postgresSkipReason(suite: string): Promise<string | undefined> {
  const unavailable = await probePostgres();
  if (unavailable === undefined || postgresRequired) return undefined;
  const reason = `${suite} skipped: no PostgreSQL answered at ${redactUrl(postgresUrl)} (${unavailable}); ` +
    'set CONTENT_ANALYSIS_TEST_POSTGRES to a postgres:// URL to run them';
  console.log(reason);
  return reason;
}

let names = 0;
function unique(): string {
  return `${process.pid}_${names++}_${randomBytes(4).toString('hex')}`;
}

/** A Redis key prefix no other test, file or run uses. */
export function freshKeyPrefix(): string {
  return `content-analysis-test:${unique()}:`;
}

/** Deletes every key under `prefix`. */
export async function deleteKeys(prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** A PostgreSQL schema name no other test, file or run uses. */
export function freshSchema(): string {
  return `server_test_${unique()}`;
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** A Redis connection to the test server, for tests that read what the queue left (the caller disconnects it). */
export function redisConnection(): Redis {
  return new Redis(redisUrl, { maxRetriesPerRequest: 1 });
}
