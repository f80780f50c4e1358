/**
 * The engine's error model. Every failure a caller can cause or see is an {@link ApiError} carrying one of the
 * spec's error codes; the HTTP status of each code is the one `response-fields.md` gives.
 */

/** The v2 error codes of the specification. */
export type ApiErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'PAYMENT_REQUIRED'
  | 'FORBIDDEN'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'TOO_MANY_REQUESTS'
  | 'INTERNAL_SERVER_ERROR'
  | 'SERVICE_UNAVAILABLE';

/** HTTP status of each error code (`response-fields.md`, "Errors: body and HTTP status"). */
export const HTTP_STATUS_OF: Readonly<Record<ApiErrorCode, number>> = Object.freeze({
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
});

/** The spec's standard description of each code, used when nothing more precise is known. */
export const DEFAULT_DESCRIPTION: Readonly<Record<ApiErrorCode, string>> = Object.freeze({
  BAD_REQUEST: 'Invalid request; arguments must be valid.',
  UNAUTHORIZED: 'A valid API key must be passed as a bearer token in the Authorization header.',
  PAYMENT_REQUIRED: 'Insufficient credits.',
  FORBIDDEN: 'The supplied URL or document is not accessible to the service.',
  UNSUPPORTED_MEDIA_TYPE: 'The request content type is not supported.',
  TOO_MANY_REQUESTS: 'The rate limit is exceeded.',
  INTERNAL_SERVER_ERROR: 'Unexpected error.',
  SERVICE_UNAVAILABLE: 'Service temporarily unavailable.',
});

/** The wire shape of every error: `{status, error, description}`. */
export interface ErrorBody {
  status: number;
  error: string;
  description?: string;
}

/** An error with a spec error code, an HTTP status and a description meant for the caller. */
export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly status: number;
  readonly description: string;
  /** Seconds a client should wait before retrying (TOO_MANY_REQUESTS, SERVICE_UNAVAILABLE). */
  readonly retryAfter: number | undefined;

  constructor(code: ApiErrorCode, description?: string, options?: { cause?: unknown; retryAfter?: number }) {
    super(description ?? DEFAULT_DESCRIPTION[code], options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.status = HTTP_STATUS_OF[code];
    this.description = description ?? DEFAULT_DESCRIPTION[code];
    this.retryAfter = options?.retryAfter;
  }

  toBody(): ErrorBody {
    return { status: this.status, error: this.code, description: this.description };
  }
}

export function badRequest(description: string): ApiError {
  return new ApiError('BAD_REQUEST', description);
}

/**
 * The advanced image detection endpoint keeps its own error strings (spec, "Advanced image detection errors"),
 * with statuses 400 / 401 / 402 / 500. Analysis failures carry no description.
 */
export const ADVANCED_ERROR = Object.freeze({
  invalidUrl: 'Invalid URL provided',
  unauthorized: 'Unauthorized',
  insufficientCredits: 'Insufficient credits',
  analysisFailed: 'Error while analyzing image, please try again later or contact support',
});

/** Renders an error in the style of the advanced image detection endpoint. */
export function toAdvancedErrorBody(error: ApiError): ErrorBody {
  switch (error.code) {
    case 'BAD_REQUEST':
    case 'FORBIDDEN':
    case 'UNSUPPORTED_MEDIA_TYPE':
      return { status: 400, error: ADVANCED_ERROR.invalidUrl, description: error.description };
    case 'UNAUTHORIZED':
      return { status: 401, error: ADVANCED_ERROR.unauthorized, description: error.description };
    case 'PAYMENT_REQUIRED':
      return { status: 402, error: ADVANCED_ERROR.insufficientCredits, description: error.description };
    case 'TOO_MANY_REQUESTS':
    case 'SERVICE_UNAVAILABLE':
      return error.toBody();
    default:
      return { status: 500, error: ADVANCED_ERROR.analysisFailed };
  }
}

/**
 * Turns anything thrown into an ApiError. A ledger that stays locked by other writers past its busy timeout is
 * SERVICE_UNAVAILABLE (retry in a second); any other unknown failure is INTERNAL_SERVER_ERROR without details.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if ((error as { code?: unknown } | null)?.code === 'ERR_LEDGER_BUSY') {
    return new ApiError('SERVICE_UNAVAILABLE', 'The credit ledger is busy; retry shortly.', { cause: error, retryAfter: 1 });
  }
  return new ApiError('INTERNAL_SERVER_ERROR', undefined, { cause: error });
}

/**
 * An error thrown by an analysis in a worker thread, rebuilt on the caller's thread with the original's name, message,
 * stable `code` and `field`, so that it is mapped to the same ApiError as the in-thread error would be.
 */
export class AnalysisTaskError extends Error {
  readonly code: string | undefined;
  readonly field: string | undefined;

  constructor(error: { name: string; message: string; code: string | undefined; field: string | undefined }) {
    super(error.message);
    this.name = error.name;
    this.code = error.code;
    this.field = error.field;
  }
}
