import { FetchError } from './errors.js';

/** One abort signal for a whole fetch: fires on the total time limit or on the caller's signal. */
export interface Deadline {
  signal: AbortSignal;
  dispose: () => void;
}

/**
 * Combines the total time limit with the caller's signal. On timeout the signal's reason is a
 * `TIMEOUT` FetchError; on the caller's abort it is the caller's reason, passed through unchanged.
 */
export function createDeadline(timeoutMs: number, url: string, callerSignal: AbortSignal | undefined): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort(new FetchError('TIMEOUT', `Fetching ${url} took longer than ${timeoutMs} ms`, { url }));
  }, timeoutMs);
  const onCallerAbort = (): void => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}

/** Settles like `promise`, or rejects with the signal's reason as soon as it aborts. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
