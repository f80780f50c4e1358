import { FetchError, fetchErrorToApiCode, guardedFetch } from '@content-analysis/fetch';
import type { FetchedResource, GuardedFetchOptions } from '@content-analysis/fetch';
import { ApiError } from './errors.js';

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
    if (error instanceof FetchError) {
      throw new ApiError(fetchErrorToApiCode(error), error.message, { cause: error });
    }
    throw error;
  }
}
