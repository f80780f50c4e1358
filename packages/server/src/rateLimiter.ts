import { ServerConfigError } from './errors.js';

export interface RateLimitOptions {
  /**
   * Requests a client may make in a burst.
   * @default 60
   */
  burst?: number;
  /**
   * Sustained requests per second a client may make.
   * @default 10
   */
  perSecond?: number;
  /**
   * Most clients tracked at once; the least recently seen are forgotten first. In-process limiter only: Redis
   * bounds its memory by letting each client's key expire once its bucket would be full again.
   * @default 100000
   */
  maxClients?: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * What the server asks of a rate limiter: one request taken from a client's allowance. `MemoryRateLimiter` (one
 * process) and `RedisRateLimiter` (shared by every node on one Redis) both implement it, with the same token bucket.
 */
export interface RateLimiter {
  take(key: string): Promise<RateDecision>;
  /** Releases what the limiter holds (a Redis connection); the server never calls it. */
  close?(): Promise<void>;
}

export function positive(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new ServerConfigError(`Expected positive number for ${name} but received ${String(value)} of type ${typeof value}`);
  }
  return value;
}

/** Seconds until a bucket holding `tokens` (< 1) has one whole token again; never below 1, as Retry-After. */
export function retryAfterSeconds(tokens: number, perSecond: number): number {
  return Math.max(1, Math.ceil((1 - tokens) / perSecond));
}

/**
 * A token bucket per client key (an account, or an address before authentication), in this process: `burst`
 * requests at once, refilled at `perSecond`. Memory is bounded by `maxClients`.
 */
export class MemoryRateLimiter implements RateLimiter {
  readonly burst: number;
  readonly perSecond: number;
  readonly maxClients: number;
  readonly #buckets = new Map<string, { tokens: number; at: number }>();
  readonly #now: () => number;

  constructor(options: RateLimitOptions = {}, now: () => number = () => performance.now()) {
    this.burst = positive('burst', options.burst ?? 60);
    this.perSecond = positive('perSecond', options.perSecond ?? 10);
    this.maxClients = positive('maxClients', options.maxClients ?? 100_000);
    this.#now = now;
  }

  /** Takes one request from `key`'s bucket. */
  take(key: string): Promise<RateDecision> {
    return Promise.resolve(this.takeNow(key));
  }

  /** `take`, synchronously. */
  takeNow(key: string): RateDecision {
    const now = this.#now();
    const bucket = this.#buckets.get(key);
    let tokens = this.burst;
    if (bucket) {
      tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
      this.#buckets.delete(key); // re-inserted below: Map order is the recency order
    } else if (this.#buckets.size >= this.maxClients) {
      const oldest = this.#buckets.keys().next().value;
      if (oldest !== undefined) this.#buckets.delete(oldest);
    }
    if (tokens < 1) {
      this.#buckets.set(key, { tokens, at: now });
      return { allowed: false, retryAfterSeconds: retryAfterSeconds(tokens, this.perSecond) };
    }
    this.#buckets.set(key, { tokens: tokens - 1, at: now });
    return { allowed: true };
  }
}

/** Whether `value` is a limiter rather than the options of one. */
export function isRateLimiter(value: unknown): value is RateLimiter {
  return typeof value === 'object' && value !== null && typeof (value as { take?: unknown }).take === 'function';
}
