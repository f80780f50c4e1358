import { ApiError } from '@content-analysis/engine';

/**
 * A count of places, taken and given back: the requests an API node analyses at once, or the unauthenticated tool
 * server bodies it reads at once. Full, it refuses at once rather than queueing without bound.
 */
export class Capacity {
  #inUse = 0;

  constructor(readonly size: number) {}

  get inUse(): number {
    return this.#inUse;
  }

  /** Takes a place; the function gives it back (once, however often it is called). Undefined when full. */
  tryTake(): (() => void) | undefined {
    if (this.#inUse >= this.size) return undefined;
    this.#inUse++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.#inUse--;
    };
  }

  /** Takes a place, or throws SERVICE_UNAVAILABLE (retry after a second) when full. */
  take(): () => void {
    const release = this.tryTake();
    if (!release) throw new ApiError('SERVICE_UNAVAILABLE', 'The service is at capacity; retry shortly.', { retryAfter: 1 });
    return release;
  }
}
