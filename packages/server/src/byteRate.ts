import type { IncomingMessage } from 'node:http';

/**
 * A budget of body bytes per second shared by every request nobody pays for: the bodies of callers not yet
 * authenticated and the bodies the server discards. Receiving bytes costs the node CPU on its main thread (about
 * a millisecond per MiB), so without a bound unauthenticated clients sending as fast as loopback allows keep the
 * node busy and make paying requests wait; within it they get at most a small share of a core. A request over the
 * budget is paused (the client is held back by TCP) until the budget has refilled.
 */
export class ByteRate {
  #available: number;
  #updated: number;
  readonly #clock: () => number;

  /** `burstBytes`: what may be read at once after a quiet spell; `clock`: milliseconds (tests give their own). */
  constructor(readonly bytesPerSecond: number, readonly burstBytes: number = bytesPerSecond, clock: () => number = () => performance.now()) {
    this.#clock = clock;
    this.#available = burstBytes;
    this.#updated = clock();
  }

  /** Counts `bytes` read; returns the milliseconds to wait before reading more (0: read on). */
  spend(bytes: number): number {
    const now = this.#clock();
    this.#available = Math.min(this.burstBytes, this.#available + ((now - this.#updated) * this.bytesPerSecond) / 1000);
    this.#updated = now;
    this.#available -= bytes;
    return this.#available >= 0 ? 0 : Math.ceil((-this.#available / this.bytesPerSecond) * 1000);
  }

  /**
   * Counts a chunk of `req`'s body; over the budget, pauses `req` and resumes it once the budget allows, unless
   * `reading()` then says the body is no longer wanted (its reader gave up, or the request is gone).
   */
  meter(req: IncomingMessage, bytes: number, reading: () => boolean = () => true): void {
    const wait = this.spend(bytes);
    if (wait === 0 || req.isPaused()) return;
    req.pause();
    setTimeout(() => {
      if (reading() && !req.destroyed) req.resume();
    }, wait).unref();
  }
}
