import { describe, expect, it } from 'vitest';
import { FetchError } from '@content-analysis/fetch';
import { DocumentError, inputErrorToApiCode, isDocumentError } from '../src/index.js';

describe('inputErrorToApiCode', () => {
  it('maps every document error to BAD_REQUEST', () => {
    for (const code of ['NO_INPUT', 'UNSUPPORTED_TYPE', 'NO_TEXT', 'ENCRYPTED', 'CORRUPT', 'TOO_MANY_PAGES', 'TOO_LARGE', 'ARCHIVE_TOO_LARGE', 'TOO_MUCH_TEXT', 'TOO_MANY_ELEMENTS', 'TOO_MANY_PARAGRAPHS', 'STREAMS_TOO_LARGE'] as const) {
      const error = new DocumentError(code, 'x');
      expect(isDocumentError(error)).toBe(true);
      expect(inputErrorToApiCode(error)).toBe('BAD_REQUEST');
    }
  });

  it('keeps the fetcher mapping and leaves other errors alone', () => {
    expect(inputErrorToApiCode(new FetchError('INVALID_URL', 'x'))).toBe('BAD_REQUEST');
    expect(inputErrorToApiCode(new FetchError('TOO_LARGE', 'x'))).toBe('FORBIDDEN');
    expect(inputErrorToApiCode(new FetchError('NETWORK', 'x'))).toBe('FORBIDDEN');
    expect(inputErrorToApiCode(new Error('bug'))).toBeUndefined();
  });
});
