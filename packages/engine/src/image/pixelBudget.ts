import { ApiError } from '../errors.js';

/** Options of {@link PixelBudget}. */
export interface PixelBudgetOptions {
  /**
   * Most decoded pixels held at once by the requests of this process (each image counts width x height until its
   * analysis ends). A 7000 x 7000 image is 49 million; its decodings (classifier, watermark) hold about 6 bytes a
   * pixel at their peak.
   * @default 100000000
   */
  maxPixels?: number;
  /**
   * Most requests waiting for pixels; one more is refused at once.
   * @default 64
   */
  maxWaiting?: number;
  /**
   * Milliseconds a request waits for pixels before it is refused.
   * @default 10000
   */
  maxWaitMs?: number;
  /**
   * Seconds a refused request is told to wait (`Retry-After`).
   * @default 5
   */
  retryAfter?: number;
}

interface Waiter {
  pixels: number;
  grant: () => void;
  timer: NodeJS.Timeout;
}

/**
 * A per-process budget of decoded pixels: an image analysis takes its pixel count before it decodes anything and
 * gives it back when done, so sixty 7000 x 7000 images sent at once (143 KB each on the wire) decode two at a time
 * instead of holding gigabytes together. Requests wait in order; one that cannot be served in `maxWaitMs`, or
 * arrives when `maxWaiting` already wait, fails with SERVICE_UNAVAILABLE and `retryAfter`, before any work (and so
 * before any charge). An image larger than the whole budget runs alone.
 */
export class PixelBudget {
  readonly maxPixels: number;
  readonly maxWaiting: number;
  readonly maxWaitMs: number;
  readonly retryAfter: number;
  #inFlight = 0;
  readonly #waiting: Waiter[] = [];

  constructor(options: PixelBudgetOptions = {}) {
    this.maxPixels = positive('maxPixels', options.maxPixels ?? 100_000_000);
    this.maxWaiting = positive('maxWaiting', options.maxWaiting ?? 64);
    this.maxWaitMs = positive('maxWaitMs', options.maxWaitMs ?? 10_000);
    this.retryAfter = positive('retryAfter', options.retryAfter ?? 5);
  }

  /** Decoded pixels held now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Requests waiting now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * Runs `work` once `pixels` fit in the budget, and gives them back when it settles.
   * @throws {ApiError} SERVICE_UNAVAILABLE when the request cannot wait or waited too long.
   */
  async run<T>(pixels: number, work: () => Promise<T>): Promise<T> {
    await this.#acquire(pixels);
    try {
      return await work();
    } finally {
      this.#release(pixels);
    }
  }

  #fits(pixels: number): boolean {
    return this.#inFlight === 0 || this.#inFlight + pixels <= this.maxPixels;
  }

  #acquire(pixels: number): Promise<void> {
    if (this.#waiting.length === 0 && this.#fits(pixels)) {
      this.#inFlight += pixels;
      return Promise.resolve();
    }
    if (this.#waiting.length >= this.maxWaiting) return Promise.reject(this.#busy());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        pixels,
        grant: () => {
          clearTimeout(waiter.timer);
          this.#inFlight += pixels;
          resolve();
        },
        timer: setTimeout(() => {
          this.#waiting.splice(this.#waiting.indexOf(waiter), 1);
          reject(this.#busy());
          this.#drain();
        }, this.maxWaitMs),
      };
      this.#waiting.push(waiter);
    });
  }

  #release(pixels: number): void {
    this.#inFlight -= pixels;
    this.#drain();
  }

  #drain(): void {
    while (this.#waiting.length > 0 && this.#fits(this.#waiting[0]!.pixels)) this.#waiting.shift()!.grant();
  }

  #busy(): ApiError {
    return new ApiError('SERVICE_UNAVAILABLE', 'Too many images are being analysed at once; retry later.', { retryAfter: this.retryAfter });
  }
}

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`Expected positive integer for ${name} but received ${String(value)}`);
  return value;
}

/** The budget every image analysis of this process shares unless given another. */
export const processPixelBudget = new PixelBudget();
