import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../src/index.js';
import { describeRateLimiterContract } from './rateLimiterContract.js';

describeRateLimiterContract('MemoryRateLimiter', async (options) => new MemoryRateLimiter(options));

describe('MemoryRateLimiter', () => {
  it('forgets the least recently seen client past maxClients', () => {
    let now = 0;
    const limiter = new MemoryRateLimiter({ burst: 1, perSecond: 0.001, maxClients: 2 }, () => now);
    expect(limiter.takeNow('a').allowed).toBe(true);
    expect(limiter.takeNow('b').allowed).toBe(true);
    expect(limiter.takeNow('a').allowed).toBe(false); // a is now the most recent
    now += 1;
    expect(limiter.takeNow('c').allowed).toBe(true); // forgets b
    expect(limiter.takeNow('b').allowed).toBe(true);
    expect(limiter.takeNow('c').allowed).toBe(false);
  });
});
