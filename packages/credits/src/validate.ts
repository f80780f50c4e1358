/** Argument checks shared by every module, so that every bad argument gets the same kind of message. */

function describe(value: unknown): string {
  const shown = typeof value === 'string' ? JSON.stringify(value)
    : typeof value === 'bigint' ? `${value}n`
    : String(value);
  return `${shown} of type ${typeof value}`;
}

/** Throws a `RangeError` unless `value` is a safe integer ≥ 0. */
export function assertNonNegativeInteger(name: string, value: unknown): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`Expected non-negative integer for ${name} but received ${describe(value)}`);
  }
}

/** Throws a `RangeError` unless `value` is a safe integer ≥ 1. */
export function assertPositiveInteger(name: string, value: unknown): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`Expected positive integer for ${name} but received ${describe(value)}`);
  }
}

/** Throws a `TypeError` unless `value` is a non-empty string of at most `maxLength` characters. */
export function assertNonEmptyString(name: string, value: unknown, maxLength = 256): asserts value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > maxLength) {
    throw new TypeError(`Expected non-empty string of at most ${maxLength} characters for ${name} but received ` +
      describe(value));
  }
}

/** Throws a `TypeError` unless `value` is undefined or a string of at most `maxLength` characters. */
export function assertOptionalString(
  name: string, value: unknown, maxLength = 1024,
): asserts value is string | undefined {
  if (value !== undefined && (typeof value !== 'string' || value.length > maxLength)) {
    throw new TypeError(`Expected string of at most ${maxLength} characters for ${name} but received ` +
      describe(value));
  }
}

/**
 * Characters an account id may not hold: control characters (a newline forges a second log line), format
 * characters (U+202E and the other bidirectional overrides reorder what an operator reads; zero-width characters
 * make two ids look alike) and line or paragraph separators.
 */
const FORBIDDEN_IN_ACCOUNT_ID = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/**
 * Throws a `TypeError` unless `value` is an account id: a non-empty string of at most 256 characters, no control,
 * format or separator characters, and no leading or trailing white space.
 */
export function assertAccountId(name: string, value: unknown): asserts value is string {
  assertNonEmptyString(name, value);
  const bad = FORBIDDEN_IN_ACCOUNT_ID.exec(value);
  if (bad) {
    const codePoint = `U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    throw new TypeError(`Expected account id without control or format characters for ${name} but received ` +
      `${describe(value)} (${codePoint} at ${bad.index})`);
  }
  if (value.trim() !== value) {
    throw new TypeError(`Expected account id without leading or trailing white space for ${name} but received ${describe(value)}`);
  }
}
