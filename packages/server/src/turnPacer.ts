/**
 * Lets the requests of a burst do their synchronous preparation on the main thread one per turn of the event loop:
 * parsing the body, validating it, reading and pricing the input (word counting) take a fraction of a millisecond
 * each, but fifty requests that arrive together did them back to back in one turn, and `/health` (and every other
 * socket) waited for all fifty. Between two requests' turns the event loop polls its sockets again.
 */
export class TurnPacer {
  readonly #waiting: Array<() => void> = [];
  #scheduled = false;

  /** Resolves in a later turn of the event loop, in the order asked, one caller per turn. */
  turn(): Promise<void> {
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      this.#schedule();
    });
  }

  /** Callers still waiting for their turn. */
  get waiting(): number {
    return this.#waiting.length;
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    // An immediate set during the check phase runs in the next turn, after the poll phase has read the sockets.
    setImmediate(() => {
      this.#scheduled = false;
      this.#waiting.shift()?.();
      if (this.#waiting.length > 0) this.#schedule();
    });
  }
}
