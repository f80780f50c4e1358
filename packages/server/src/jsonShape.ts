/** Bounds of {@link jsonShapeProblem}. */
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
 * What makes a JSON text too deep or too wide to parse, or undefined: one pass over its characters, outside
 * strings, counting nesting and object members (each `:` is one), far cheaper than `JSON.parse` building 600,000
 * keys. It does not check the syntax; `JSON.parse` does that after.
 */
export function jsonShapeProblem(text: string, limits: JsonShapeLimits): string | undefined {
  let depth = 0;
  let members = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) {
      inString = true;
    } else if (c === COLON) {
      if (++members > limits.maxMembers) return `has more than ${limits.maxMembers} object members`;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limits.maxDepth) return `nests deeper than ${limits.maxDepth} levels`;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return undefined;
}
