import { describe, expect, it } from 'vitest';
import { FetchError, fetchErrorToApiCode, isFetchError } from '../src/index.js';
import type { FetchErrorCode } from '../src/index.js';

const FORBIDDEN_CODES: FetchErrorCode[] = [
  'FORBIDDEN_ADDRESS',
  'INVALID_REDIRECT',
  'TOO_MANY_REDIRECTS',
  'HTTP_STATUS',
  'NETWORK',
  'TIMEOUT',
  'TOO_LARGE',
  'CONTENT_TYPE_MISMATCH',
];

describe('fetchErrorToApiCode', () => {
  it('maps an invalid URL to BAD_REQUEST', () => {
    const error = new FetchError('INVALID_URL', 'URL is empty');
    expect(fetchErrorToApiCode(error)).toBe('BAD_REQUEST');
    expect(error.forbidden).toBe(false);
  });

  it.each(FORBIDDEN_CODES)('maps %s to FORBIDDEN', (code) => {
    const error = new FetchError(code, 'not accessible');
    expect(fetchErrorToApiCode(error)).toBe('FORBIDDEN');
    expect(error.forbidden).toBe(true);
  });
});

describe('FetchError', () => {
  it('carries its code, message and details', () => {
    const error = new FetchError('HTTP_STATUS', 'The server answered 404', { url: 'https://example.com/', status: 404 });
    expect(error).toBeInstanceOf(Error);
    expect(isFetchError(error)).toBe(true);
    expect(error).toMatchObject({ name: 'FetchError', code: 'HTTP_STATUS', status: 404, url: 'https://example.com/' });
  });
});
