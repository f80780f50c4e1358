import { FetchError, fetchErrorToApiCode, guardedFetch, validatePublicUrl } from '@content-analysis/fetch';
import type { FetchedResource, GuardedFetchOptions } from '@content-analysis/fetch';
import { ApiError } from './errors.js';

/** Turns a FetchError into an API error (BAD_REQUEST or FORBIDDEN, its message as the description); others pass. */
export function fetchApiError(error: unknown): unknown {
  return error instanceof FetchError ? new ApiError(fetchErrorToApiCode(error), error.message, { cause: error }) : error;
}

/**
 * The guarded fetcher's static checks of a caller-supplied URL, without any network access: a malformed or
 * non-public URL is BAD_REQUEST. Features run it while planning, so a bad URL is refused before the balance is read.
 */
export function checkPublicUrl(url: string): void {
  try {
    validatePublicUrl(url);
  } catch (error) {
    throw fetchApiError(error);
  }
}

/**
 * Fetches a caller-supplied URL with the guarded fetcher and turns its failures into API errors: a malformed or
 * non-public URL is BAD_REQUEST, a URL the service cannot or may not reach is FORBIDDEN. The description says
 * why, without echoing anything the remote server sent.
 */
export async function fetchRemote(
  url: string,
  options: GuardedFetchOptions,
): Promise<FetchedResource> {
  try {
    return await guardedFetch(url, options);
  } catch (error) {
    throw fetchApiError(error);
  }
}
