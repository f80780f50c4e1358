import { Redis } from 'ioredis';
import { RedisUnavailableError, ServerConfigError } from './errors.js';
import { positive, retryAfterSeconds } from './rateLimiter.js';
import type { RateDecision, RateLimiter, RateLimitOptions } from './rateLimiter.js';
import { defaultLog } from './respond.js';

export interface RedisRateLimiterOptions extends Omit<RateLimitOptions, 'maxClients'> {
  /** `redis://` or `rediss://` URL of the Redis every node shares. */
  url: string;
  /**
   * Prefix of the limiter's keys (one hash per client, expiring once its bucket would be full again).
   * @default 'content-analysis:rate:'
   */
  keyPrefix?: string;
  /**
   * Milliseconds a request waits for Redis before it is let through unlimited.
   * @default 500
   */
  commandTimeoutMs?: number;
  /** Where the limiter reports losing and regaining Redis. @default standard error */
  log?: (message: string, error: unknown) => void;
}

/**
 * The token bucket of `MemoryRateLimiter`, kept in a Redis hash {tokens, at} and updated by one script, so the read,
 * the refill and the take are atomic across nodes. The time is Redis's own (TIME), so nodes whose clocks disagree
 * still agree on every bucket. Replies are strings: Redis would truncate a Lua number to an integer.
 */
const TAKE_SCRIPT = `
local burst = tonumber(ARGV[1])
local perSecond = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = burst
if state[1] and state[2] then
  tokens = math.min(burst, tonumber(state[1]) + math.max(0, now - tonumber(state[2])) / 1000 * perSecond)
end
local allowed = tokens >= 1
if allowed then tokens = tokens - 1 end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', string.format('%.17g', now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / perSecond * 1000) + 1000)
if allowed then return {1, '0'} end
return {0, string.format('%.17g', tokens)}
`;

type TakeCommand = (key: string, burst: number, perSecond: number) => Promise<[number, string]>;

/**
 * A rate limiter shared by every API node on one Redis: the same token bucket, options and answers as
 * `MemoryRateLimiter`. When Redis stops answering (down, unreachable, slower than `commandTimeoutMs`), requests are
 * let through unlimited rather than refused, with one logged warning per outage and one line when Redis is back:
 * a rate limit protects the service, and refusing every request while its store is away would be the outage it guards
 * against. The client reconnects by itself.
 */
export class RedisRateLimiter implements RateLimiter {
  readonly burst: number;
  readonly perSecond: number;
  readonly keyPrefix: string;
  readonly #redis: Redis;
  readonly #take: TakeCommand;
  readonly #log: (message: string, error: unknown) => void;
  #failing = false;

  private constructor(options: RedisRateLimiterOptions, redis: Redis) {
    this.burst = positive('burst', options.burst ?? 60);
    this.perSecond = positive('perSecond', options.perSecond ?? 10);
    this.keyPrefix = options.keyPrefix ?? 'content-analysis:rate:';
    this.#log = options.log ?? defaultLog;
    this.#redis = redis;
    redis.defineCommand('contentAnalysisTakeToken', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    const command = (redis as unknown as Record<string, TakeCommand>).contentAnalysisTakeToken!;
    this.#take = command.bind(redis);
    // Without a listener the client prints every reconnection failure itself; take() reports outages instead.
    redis.on('error', () => undefined);
  }

  /** Connects to Redis; rejects with RedisUnavailableError when it does not answer. */
  static async open(options: RedisRateLimiterOptions): Promise<RedisRateLimiter> {
    if (typeof options.url !== 'string' || !/^rediss?:\/\//.test(options.url)) {
      throw new ServerConfigError(`Expected redis:// or rediss:// URL for url but received ${String(options.url)} of type ${typeof options.url}`);
    }
    const commandTimeout = positive('commandTimeoutMs', options.commandTimeoutMs ?? 500);
    const redis = new Redis(options.url, {
      lazyConnect: true,
      enableOfflineQueue: false, // while disconnected a command fails at once (and the request goes through)
      maxRetriesPerRequest: 0,
      commandTimeout,
      connectTimeout: 5000,
    });
    const limiter = new RedisRateLimiter(options, redis);
    let cause: Error | undefined; // the socket's error (ECONNREFUSED …); connect() itself says only that it closed
    const keep = (error: Error) => (cause ??= error);
    redis.on('error', keep);
    try {
      await redis.connect();
      await redis.ping();
    } catch (error) {
      redis.disconnect();
      cause ??= error as Error;
      throw new RedisUnavailableError(`No Redis answered at ${redactUrl(options.url)}: ${cause.message || String(cause)}`, { cause });
    }
    redis.off('error', keep);
    return limiter;
  }

  async take(key: string): Promise<RateDecision> {
    let reply: [number, string];
    try {
      reply = await this.#take(`${this.keyPrefix}${key}`, this.burst, this.perSecond);
    } catch (error) {
      if (!this.#failing) {
        this.#failing = true;
        this.#log('warning: Redis did not answer; rate limits are not enforced until it does', error);
      }
      return { allowed: true };
    }
    if (this.#failing) {
      this.#failing = false;
      this.#log('Redis answers again; rate limits are enforced', 'reconnected');
    }
    if (reply[0] === 1) return { allowed: true };
    return { allowed: false, retryAfterSeconds: retryAfterSeconds(Number(reply[1]), this.perSecond) };
  }

  async close(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^@/]*)@/, (_, auth: string) => `//${auth.replace(/:.*$/, ':***')}@`);
}
