import { describe, expect, it } from 'vitest';
import { LedgerBusyError } from '@content-analysis/credits';
import { ApiError, HTTP_STATUS_OF, toAdvancedErrorBody, toApiError } from '../src/index.js';

describe('ApiError', () => {
  it('carries the HTTP status of response-fields.md for every code', () => {
    expect(HTTP_STATUS_OF).toEqual({
      BAD_REQUEST: 400,
      UNAUTHORIZED: 401,
      PAYMENT_REQUIRED: 402,
      FORBIDDEN: 403,
      UNSUPPORTED_MEDIA_TYPE: 415,
      TOO_MANY_REQUESTS: 429,
      INTERNAL_SERVER_ERROR: 500,
      SERVICE_UNAVAILABLE: 503,
    });
    expect(new ApiError('FORBIDDEN').toBody()).toEqual({
      status: 403,
      error: 'FORBIDDEN',
      description: 'The supplied URL or document is not accessible to the service.',
    });
  });
});

describe('toApiError', () => {
  it('keeps an ApiError as it is', () => {
    const error = new ApiError('BAD_REQUEST', 'x must be y');
    expect(toApiError(error)).toBe(error);
  });

  it('hides an unexpected failure behind INTERNAL_SERVER_ERROR and keeps it as the cause', () => {
    const cause = new Error('secret detail');
    const error = toApiError(cause);
    expect(error.toBody()).toEqual({ status: 500, error: 'INTERNAL_SERVER_ERROR', description: 'Unexpected error.' });
    expect(error.cause).toBe(cause);
  });

  it('turns a busy ledger into SERVICE_UNAVAILABLE with a retry hint', () => {
    const error = toApiError(new LedgerBusyError());
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
    expect(error.status).toBe(503);
    expect(error.retryAfter).toBe(1);
  });
});

describe('toAdvancedErrorBody', () => {
  it('renders the advanced image detection strings', () => {
    expect(toAdvancedErrorBody(new ApiError('BAD_REQUEST', 'image_url has no hostname'))).toEqual({
      status: 400,
      error: 'Invalid URL provided',
      description: 'image_url has no hostname',
    });
    expect(toAdvancedErrorBody(new ApiError('UNAUTHORIZED')).error).toBe('Unauthorized');
    expect(toAdvancedErrorBody(new ApiError('PAYMENT_REQUIRED')).error).toBe('Insufficient credits');
    expect(toAdvancedErrorBody(new ApiError('INTERNAL_SERVER_ERROR'))).toEqual({
      status: 500,
      error: 'Error while analyzing image, please try again later or contact support',
    });
  });
});
