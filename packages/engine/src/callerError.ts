import { ApiError } from './errors.js';

/**
 * Turns an error a package raised about the caller's input (recognised by its stable `code`) into BAD_REQUEST
 * with the package's message, which names the field; anything else passes through unchanged.
 */
export function callerError(error: unknown, codes: readonly string[]): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && codes.includes(code)) {
    return new ApiError('BAD_REQUEST', (error as Error).message, { cause: error });
  }
  return error;
}
