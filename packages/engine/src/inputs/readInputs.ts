import type { AnalysedText } from './textInput.js';

/**
 * What planning read from the caller's URLs, by field and URL (`website <url>`, `file <url>`): the text of a web page
 * or document. JSON as it is, so an API node hands it with the request to the worker that analyses it.
 */
export type HandedInputs = Record<string, AnalysedText>;

/**
 * The remote inputs of one request, read once. On the node that plans a request each input is read and kept; on a
 * worker, the inputs are the ones that node read and priced, handed over as they were: the worker never fetches
 * them again, so what is analysed is what was charged.
 */
export class ReadInputs {
  readonly #inputs = new Map<string, AnalysedText>();
  readonly #handed: boolean;

  /** `handed`: the inputs another node read (a worker's view); none means this node reads its inputs itself. */
  constructor(handed?: HandedInputs) {
    this.#handed = handed !== undefined;
    for (const [key, value] of Object.entries(handed ?? {})) this.#inputs.set(key, value);
  }

  /**
   * The input kept under `key`, else what `read` returns (then kept). With handed inputs, a key that was not handed
   * over is an internal error rather than a second fetch.
   */
  async text(key: string, read: () => Promise<AnalysedText>): Promise<AnalysedText> {
    const kept = this.#inputs.get(key);
    if (kept !== undefined) return kept;
    if (this.#handed) throw new Error(`The input ${key} was not handed over with the request; it is not fetched again`);
    const value = await read();
    this.#inputs.set(key, value);
    return value;
  }

  /** The inputs read so far, to hand to the node that analyses the request. */
  toJSON(): HandedInputs {
    return Object.fromEntries(this.#inputs);
  }
}
