/** Which of the two compared texts an error is about, named as in the request. */
export type TextName = 'first_text' | 'second_text';

/** A text is longer than `maxChars` UTF-16 code units. */
export class TextTooLongError extends RangeError {
  readonly code = 'TEXT_TOO_LONG';
  override readonly name = 'TextTooLongError';
  readonly text: TextName;
  readonly length: number;
  readonly maxChars: number;

  constructor(text: TextName, length: number, maxChars: number) {
    super(`Expected ${text} of at most ${maxChars} characters but received ${length}`);
    this.text = text;
    this.length = length;
    this.maxChars = maxChars;
  }
}

/** A text is not a string, or an option is out of range. */
export class InvalidArgumentError extends TypeError {
  readonly code = 'INVALID_ARGUMENT';
  override readonly name = 'InvalidArgumentError';
  /** Name of the offending argument or option. */
  readonly argument: string;

  constructor(argument: string, expected: string, received: unknown) {
    super(`Expected ${expected} for ${argument} but received ${describe(received)}`);
    this.argument = argument;
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  return `${String(value)} of type ${value === null ? 'null' : typeof value}`;
}
