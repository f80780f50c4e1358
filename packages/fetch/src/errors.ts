/**
 * Stable codes of {@link FetchError}. Callers branch on these, never on messages.
 *
 * - `INVALID_URL`: the URL given by the caller fails the static checks (the caller's fault).
 * - `FORBIDDEN_ADDRESS`: the host is, or resolves to, or redirects to a non-public address.
 * - `INVALID_REDIRECT`: a redirect points to a URL that is not a public http(s) URL for another reason.
 * - `TOO_MANY_REDIRECTS`: more redirects than `maxRedirects`.
 * - `HTTP_STATUS`: the final response is not 2xx (see `status`).
 * - `NETWORK`: DNS failure, refused connection, TLS failure, reset, bad encoding.
 * - `TIMEOUT`: the total or the connect time limit was exceeded.
 * - `TOO_LARGE`: the body (decoded) or its declared length exceeds `maxBytes`.
 * - `CONTENT_TYPE_MISMATCH`: the declared type disagrees with the bytes, or the bytes are not an accepted kind.
 */
export type FetchErrorCode =
  | 'INVALID_URL'
  | 'FORBIDDEN_ADDRESS'
  | 'INVALID_REDIRECT'
  | 'TOO_MANY_REDIRECTS'
  | 'HTTP_STATUS'
  | 'NETWORK'
  | 'TIMEOUT'
  | 'TOO_LARGE'
  | 'CONTENT_TYPE_MISMATCH';

/** Extra facts attached to a {@link FetchError}, for logs and for mapping to API errors. */
export interface FetchErrorDetails {
  /** The URL being fetched when the error happened (after redirects). */
  url?: string;
  /** HTTP status of the final response, for `HTTP_STATUS`. */
  status?: number;
  /** The offending address, for `FORBIDDEN_ADDRESS`. Kept out of the message on purpose. */
  address?: string;
  cause?: unknown;
}

/**
 * Every failure of the guarded fetcher. `message` is written for the API caller (it becomes the
 * `description` of the error body) and never reveals what an internal host name resolves to.
 */
export class FetchError extends Error {
  override readonly name = 'FetchError';
  readonly code: FetchErrorCode;
  readonly url: string | undefined;
  readonly status: number | undefined;
  readonly address: string | undefined;

  constructor(code: FetchErrorCode, message: string, details: FetchErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.url = details.url;
    this.status = details.status;
    this.address = details.address;
  }

  /** True when the URL was well formed but the resource is not accessible to the service. */
  get forbidden(): boolean {
    return this.code !== 'INVALID_URL';
  }
}

/** Narrows an unknown thrown value to a {@link FetchError}. */
export function isFetchError(value: unknown): value is FetchError {
  return value instanceof FetchError;
}

/** API error code (see the error table of the response fields spec) for a fetch failure. */
export type FetchApiErrorCode = 'BAD_REQUEST' | 'FORBIDDEN';

/**
 * Maps a fetch failure to the API error code: `BAD_REQUEST` when the caller's URL itself is invalid,
 * `FORBIDDEN` when the URL or document is not accessible to the service.
 */
export function fetchErrorToApiCode(error: FetchError): FetchApiErrorCode {
  return error.forbidden ? 'FORBIDDEN' : 'BAD_REQUEST';
}
