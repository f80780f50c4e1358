import { SNIFFABLE_CONTENT_TYPES, UNKNOWN_CONTENT_TYPE, isSniffableContentType } from './contentTypes.js';

/** One resolved address of a host name. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Where to open the TCP connection for a checked address. */
export interface DialTarget {
  host: string;
  port: number;
}

/** Options of {@link guardedFetch}. None of them can weaken the address policy. */
export interface GuardedFetchOptions {
  /**
   * Largest body accepted, in bytes, counted after content decoding while it streams.
   * @default 10485760 (10 MiB)
   */
  maxBytes?: number;
  /**
   * Total wall time in milliseconds, across redirects and the whole body.
   * @default 15000
   */
  timeoutMs?: number;
  /**
   * Time allowed to open each TCP connection (and finish the TLS handshake), in milliseconds.
   * @default 5000
   */
  connectTimeoutMs?: number;
  /**
   * Redirects followed before failing with `TOO_MANY_REDIRECTS`; 0 refuses any redirect.
   * @default 5
   */
  maxRedirects?: number;
  /**
   * Content types accepted, judged on the bytes (see `SNIFFABLE_CONTENT_TYPES`; add
   * `application/octet-stream` to accept unrecognised binary content).
   * @default undefined (any content, still checked against its declared type)
   */
  accept?: readonly string[];
  /**
   * Extra request headers. `host`, `connection`, `content-length`, `transfer-encoding` and
   * `accept-encoding` are set by the fetcher and cannot be given.
   * @default { 'user-agent': DEFAULT_USER_AGENT }
   */
  headers?: Readonly<Record<string, string>>;
  /**
   * Aborts the fetch; the promise then rejects with `signal.reason`.
   * @default undefined
   */
  signal?: AbortSignal;
  /**
   * Resolves a host name to its addresses, every one of which is checked. For tests.
   * @default node:dns lookup with `{ all: true }`
   */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  /**
   * Maps a checked address and port to where the socket connects. For tests.
   * @default identity: connect to the checked address
   */
  dial?: (address: string, port: number) => DialTarget;
}

/** User-Agent sent unless `headers` gives another. */
export const DEFAULT_USER_AGENT = 'content-analysis-fetch/0.1 (+guarded fetcher)';

export const DEFAULTS = {
  maxBytes: 10 * 1024 * 1024,
  timeoutMs: 15_000,
  connectTimeoutMs: 5_000,
  maxRedirects: 5,
} as const;

const RESERVED_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'accept-encoding']);

/** Options with defaults applied and every value checked. */
export interface ResolvedOptions {
  maxBytes: number;
  timeoutMs: number;
  connectTimeoutMs: number;
  maxRedirects: number;
  accept: readonly string[] | undefined;
  headers: Record<string, string>;
  signal: AbortSignal | undefined;
  resolve: ((hostname: string) => Promise<ResolvedAddress[]>) | undefined;
  dial: ((address: string, port: number) => DialTarget) | undefined;
}

/**
 * Applies defaults and checks every option up front.
 * @throws {TypeError | RangeError} naming the option and the value received.
 */
export function resolveOptions(options: GuardedFetchOptions = {}): ResolvedOptions {
  const maxBytes = positiveInteger('maxBytes', options.maxBytes, DEFAULTS.maxBytes);
  const timeoutMs = positiveInteger('timeoutMs', options.timeoutMs, DEFAULTS.timeoutMs);
  const connectTimeoutMs = positiveInteger('connectTimeoutMs', options.connectTimeoutMs, DEFAULTS.connectTimeoutMs);
  const maxRedirects = options.maxRedirects ?? DEFAULTS.maxRedirects;
  if (!Number.isInteger(maxRedirects) || maxRedirects < 0) {
    throw new RangeError(`Expected non-negative integer for maxRedirects but received ${received(maxRedirects)}`);
  }
  return {
    maxBytes,
    timeoutMs,
    connectTimeoutMs,
    maxRedirects,
    accept: checkAccept(options.accept),
    headers: checkHeaders(options.headers),
    signal: options.signal,
    resolve: checkFunction('resolve', options.resolve),
    dial: checkFunction('dial', options.dial),
  };
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new RangeError(`Expected positive integer for ${name} but received ${received(value)}`);
  }
  return value;
}

function checkAccept(accept: readonly string[] | undefined): readonly string[] | undefined {
  if (accept === undefined) return undefined;
  if (!Array.isArray(accept) || accept.length === 0) {
    throw new RangeError(`Expected non-empty array of content types for accept but received ${received(accept)}`);
  }
  for (const type of accept) {
    if (typeof type !== 'string' || (!isSniffableContentType(type) && type !== UNKNOWN_CONTENT_TYPE)) {
      const known = [...SNIFFABLE_CONTENT_TYPES, UNKNOWN_CONTENT_TYPE].join(', ');
      throw new RangeError(`Expected one of ${known} in accept but received ${received(type)}`);
    }
  }
  return [...accept];
}

function checkHeaders(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const result: Record<string, string> = { 'user-agent': DEFAULT_USER_AGENT };
  if (headers === undefined) return result;
  if (typeof headers !== 'object' || headers === null) {
    throw new TypeError(`Expected object for headers but received ${received(headers)}`);
  }
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (RESERVED_HEADERS.has(key)) throw new RangeError(`Header ${name} is set by the fetcher and cannot be given`);
    if (typeof value !== 'string') throw new TypeError(`Expected string for header ${name} but received ${received(value)}`);
    result[key] = value;
  }
  return result;
}

function checkFunction<T>(name: string, value: T | undefined): T | undefined {
  if (value !== undefined && typeof value !== 'function') {
    throw new TypeError(`Expected function for ${name} but received ${received(value)}`);
  }
  return value;
}

function received(value: unknown): string {
  const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return `${shown} of type ${Array.isArray(value) ? 'array' : typeof value}`;
}
