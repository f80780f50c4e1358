/** Bounds of a {@link JsonShapeScanner}. */
export interface JsonShapeLimits {
  /** Deepest nesting of objects and arrays. */
  maxDepth: number;
  /** Most object members (keys) in the whole text. */
  maxMembers: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * What makes a JSON text too deep or too wide to parse, found while its bytes arrive: each chunk is scanned as it
 * comes (outside strings, counting nesting and object members, each `:` being one), the state carried from one
 * chunk to the next, so a body is refused as soon as it crosses a bound, without waiting for the rest, and an
 * accepted body needs no pass of its own before `JSON.parse`. It reads UTF-8 bytes: JSON's structural characters
 * are ASCII, and no byte of a multi-byte UTF-8 sequence is. It does not check the syntax; `JSON.parse` does that.
 */
export class JsonShapeScanner {
  #depth = 0;
  #members = 0;
  #inString = false;
  #escaped = false;
  #problem: string | undefined;

  constructor(readonly limits: JsonShapeLimits) {}

  /** Why the text scanned so far is refused, or undefined. */
  get problem(): string | undefined {
    return this.#problem;
  }

  /** Scans the next bytes of the text; returns {@link problem} (once set, every later call returns it at once). */
  scan(bytes: Uint8Array): string | undefined {
    if (this.#problem !== undefined) return this.#problem;
    const { maxDepth, maxMembers } = this.limits;
    let depth = this.#depth;
    let members = this.#members;
    let inString = this.#inString;
    let escaped = this.#escaped;
    for (let i = 0; i < bytes.length; i++) {
      const c = bytes[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) inString = false;
        continue;
      }
      if (c === QUOTE) {
        inString = true;
      } else if (c === COLON) {
        if (++members > maxMembers) {
          this.#problem = `has more than ${maxMembers} object members`;
          break;
        }
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (++depth > maxDepth) {
          this.#problem = `nests deeper than ${maxDepth} levels`;
          break;
        }
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth--;
      }
    }
    this.#depth = depth;
    this.#members = members;
    this.#inString = inString;
    this.#escaped = escaped;
    return this.#problem;
  }
}
