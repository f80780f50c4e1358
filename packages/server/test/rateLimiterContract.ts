import { describe, expect, it } from 'vitest';
import type { RateLimiter, RateLimitOptions } from '../src/index.js';

/**
 * The behaviour every RateLimiter shares, run against the in-process and the Redis limiter: the same options
 * give the same answers. `make` returns a limiter with fresh state; the suite closes what it makes.
 */
export function describeRateLimiterContract(name: string, make: (options: RateLimitOptions) => Promise<RateLimiter>): void {
  describe(`${name} (RateLimiter contract)`, () => {
    async function using<T>(options: RateLimitOptions, use: (limiter: RateLimiter) => Promise<T>): Promise<T> {
      const limiter = await make(options);
      try {
        return await use(limiter);
      } finally {
        await limiter.close?.();
      }
    }

    it('allows a burst, then refuses with the seconds until the next request is allowed', async () => {
      await using({ burst: 3, perSecond: 0.01 }, async (limiter) => {
        const decisions = [];
        for (let i = 0; i < 4; i++) decisions.push(await limiter.take('client'));
        expect(decisions.slice(0, 3)).toEqual([{ allowed: true }, { allowed: true }, { allowed: true }]);
        expect(decisions[3]).toEqual({ allowed: false, retryAfterSeconds: 100 });
      });
    });

    it('answers Retry-After from the refill rate, at least 1 second', async () => {
      await using({ burst: 1, perSecond: 0.25 }, async (limiter) => {
        expect(await limiter.take('client')).toEqual({ allowed: true });
        expect(await limiter.take('client')).toEqual({ allowed: false, retryAfterSeconds: 4 });
      });
      await using({ burst: 1, perSecond: 50 }, async (limiter) => {
        await limiter.take('client');
        expect(await limiter.take('client')).toEqual({ allowed: false, retryAfterSeconds: 1 });
      });
    });

    it('counts each client key on its own', async () => {
      await using({ burst: 2, perSecond: 0.01 }, async (limiter) => {
        await limiter.take('a');
        await limiter.take('a');
        expect((await limiter.take('a')).allowed).toBe(false);
        expect(await limiter.take('b')).toEqual({ allowed: true });
      });
    });

    it('refills at perSecond: a refused client is allowed again once a token has come back', async () => {
      await using({ burst: 2, perSecond: 10 }, async (limiter) => {
        await limiter.take('client');
        await limiter.take('client');
        expect((await limiter.take('client')).allowed).toBe(false);
        await new Promise((resolve) => setTimeout(resolve, 250)); // 2.5 tokens' worth, capped at the burst of 2
        expect(await limiter.take('client')).toEqual({ allowed: true });
        expect(await limiter.take('client')).toEqual({ allowed: true });
        expect((await limiter.take('client')).allowed).toBe(false);
      });
    });

    it('counts concurrent takes exactly', async () => {
      await using({ burst: 10, perSecond: 0.01 }, async (limiter) => {
        const decisions = await Promise.all(Array.from({ length: 25 }, () => limiter.take('client')));
        expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
      });
    });

    it('rejects options that are not positive numbers', async () => {
      await expect(make({ burst: 0 })).rejects.toThrow('Expected positive number for burst but received 0 of type number');
      await expect(make({ perSecond: -1 })).rejects.toThrow('Expected positive number for perSecond but received -1 of type number');
    });
  });
}
