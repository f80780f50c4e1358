import { createServer, connect } from 'node:net';
import type { Server, Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisRateLimiter, RedisUnavailableError } from '../src/index.js';
import { describeRateLimiterContract } from './rateLimiterContract.js';
import { deleteKeys, freshKeyPrefix, redisSkipReason, redisUrl } from './services.js';

const skip = await redisSkipReason('RedisRateLimiter tests');
const prefixes: string[] = [];
function prefix(): string {
  const p = freshKeyPrefix();
  prefixes.push(p);
  return p;
}
afterAll(async () => {
  if (skip === undefined) await Promise.all(prefixes.map(deleteKeys));
});

describe('RedisRateLimiter options', () => {
  it('rejects a URL that is not redis://', async () => {
    await expect(RedisRateLimiter.open({ url: 'http://127.0.0.1:6379' })).rejects.toThrow(
      'Expected redis:// or rediss:// URL for url but received http://127.0.0.1:6379 of type string');
  });

  it('rejects from open when no Redis answers', async () => {
    await expect(RedisRateLimiter.open({ url: 'redis://127.0.0.1:1' })).rejects.toBeInstanceOf(RedisUnavailableError);
  });
});

if (skip === undefined) {
  describeRateLimiterContract('RedisRateLimiter', (options) => RedisRateLimiter.open({ url: redisUrl, keyPrefix: prefix(), ...options }));
}

/** A TCP proxy in front of Redis, to take Redis away from a limiter and give it back. */
async function redisProxy(): Promise<{ url: string; cut(): Promise<void>; restore(): Promise<void> }> {
  const target = new URL(redisUrl);
  const sockets = new Set<Socket>();
  let server: Server;
  let port = 0;
  const start = async () => {
    server = createServer((client) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => sockets.delete(s));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    async cut() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const s of sockets) s.destroy();
      await closed;
    },
    restore: start,
  };
}

describe.skipIf(skip !== undefined)('RedisRateLimiter', () => {
  it('shares one bucket between limiters on the same Redis (two nodes)', async () => {
    const keyPrefix = prefix();
    const a = await RedisRateLimiter.open({ url: redisUrl, keyPrefix, burst: 4, perSecond: 0.01 });
    const b = await RedisRateLimiter.open({ url: redisUrl, keyPrefix, burst: 4, perSecond: 0.01 });
    try {
      const decisions = [await a.take('c'), await b.take('c'), await a.take('c'), await b.take('c'), await a.take('c'), await b.take('c')];
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, false, false]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('keeps a client key only until its bucket would be full again', async () => {
    const keyPrefix = prefix();
    const limiter = await RedisRateLimiter.open({ url: redisUrl, keyPrefix, burst: 2, perSecond: 1 });
    const redis = new Redis(redisUrl);
    try {
      await limiter.take('c');
      const ttl = await redis.pttl(`${keyPrefix}c`);
      expect(ttl).toBeGreaterThan(1000); // one token to refill (1 s) plus a second of margin
      expect(ttl).toBeLessThanOrEqual(2000);
    } finally {
      await limiter.close();
      redis.disconnect();
    }
  });

  it('fails open with one logged warning while Redis is away, and limits again once it is back', async () => {
    const proxy = await redisProxy();
    const logged: string[] = [];
    const limiter = await RedisRateLimiter.open({
      url: proxy.url, keyPrefix: prefix(), burst: 1, perSecond: 0.01, commandTimeoutMs: 300,
      log: (message) => logged.push(message),
    });
    try {
      expect(await limiter.take('c')).toEqual({ allowed: true });
      expect((await limiter.take('c')).allowed).toBe(false);
      await proxy.cut();
      const started = performance.now();
      const away = await Promise.all([limiter.take('c'), limiter.take('c'), limiter.take('c')]);
      expect(away).toEqual([{ allowed: true }, { allowed: true }, { allowed: true }]);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(logged).toEqual(['warning: Redis did not answer; rate limits are not enforced until it does']);
      await proxy.restore();
      let back = await limiter.take('c');
      for (let i = 0; i < 100 && logged.length < 2; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        back = await limiter.take('c');
      }
      expect(logged[1]).toBe('Redis answers again; rate limits are enforced');
      expect(back).toEqual({ allowed: false, retryAfterSeconds: 100 }); // the bucket kept in Redis is still empty
    } finally {
      await limiter.close();
      await proxy.cut().catch(() => undefined);
    }
  }, 20_000);
});
