/**
 * Lets the requests of a burst do their synchronous preparation on the main thread one (or a few) per turn of the
 * event loop: parsing the body, validating it, reading and pricing the input (word counting) take a fraction of a
 * millisecond each, but fifty requests that arrive together did them back to back in one turn, and `/health` (and
 * every other socket) waited for all fifty. Between two turns the event loop polls its sockets again. One per turn
 * measured best (`benchmarks/server/freshStart.mjs`, load 9: /health p99 53-58 ms and 350-450 requests answered,
 * against 91-126 ms and 250-300 with 8 per turn, whose larger batches of the ledger's group commit did not pay).
 */
export class TurnPacer {
  readonly #waiting: Array<() => void> = [];
  #scheduled = false;

  /**
   * `perTurn`: callers let through in one turn, a positive integer.
   * @default 1
   */
  constructor(readonly perTurn = 1) {
    if (!Number.isSafeInteger(perTurn) || perTurn < 1) {
      throw new RangeError(`Expected positive integer for perTurn but received ${String(perTurn)} of type ${typeof perTurn}`);
    }
  }

  /** Resolves in a later turn of the event loop, in the order asked, at most {@link perTurn} callers per turn. */
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
      for (const admit of this.#waiting.splice(0, this.perTurn)) admit();
      if (this.#waiting.length > 0) this.#schedule();
    });
  }
}
