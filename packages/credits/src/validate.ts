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
