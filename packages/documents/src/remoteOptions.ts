import type { GuardedFetchOptions } from '@content-analysis/fetch';

/**
 * Options passed through to the guarded fetcher. Size limits are not among them: each input kind sets its own.
 * `resolve` and `dial` exist for tests (a local server behind a public-looking address); they cannot weaken the
 * fetcher's address policy.
 */
export type FetchPassThrough = Pick<GuardedFetchOptions, 'timeoutMs' | 'connectTimeoutMs' | 'maxRedirects' | 'headers' | 'signal' | 'resolve' | 'dial'>;
