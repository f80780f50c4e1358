/** A one-line progress bar on a TTY stream; on anything else, silent until the final summary. */
export class ProgressBar {
  readonly #stream: NodeJS.WriteStream;
  readonly #live: boolean;
  #last = 0;

  constructor(stream: NodeJS.WriteStream, force = false) {
    this.#stream = stream;
    this.#live = force || stream.isTTY === true;
  }

  update(done: number, failed: number, total?: number): void {
    if (!this.#live) return;
    const now = Date.now();
    if (now - this.#last < 100) return;
    this.#last = now;
    const width = 30;
    const bar =
      total && total > 0
        ? `[${'#'.repeat(Math.round((done / total) * width)).padEnd(width, '-')}] ${done}/${total}`
        : `${done} done`;
    this.#stream.write(`\r${bar}${failed ? `, ${failed} failed` : ''}`);
  }

  finish(done: number, failed: number): void {
    if (this.#live) this.#stream.write('\r\x1b[K');
    this.#stream.write(`${done} request${done === 1 ? '' : 's'}: ${done - failed} ok, ${failed} failed\n`);
  }
}
