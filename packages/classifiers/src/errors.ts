/** Bad input from the caller: the field it is about is named in `field` (as in the HTTP request). */
export class InvalidInputError extends TypeError {
  readonly code = 'BAD_REQUEST';
  override readonly name = 'InvalidInputError';
  /** Request field or option the error is about (`text`, `language`, `sentences`, `threads`, ...). */
  readonly field: string;

  constructor(field: string, expected: string, received: unknown, options?: { cause?: unknown }) {
    super(`Expected ${expected} for ${field} but received ${describe(received)}`, options);
    this.field = field;
  }
}

/** The language asked for (or detected) has no trained detector. */
export class UnsupportedLanguageError extends RangeError {
  readonly code = 'UNSUPPORTED_LANGUAGE';
  override readonly name = 'UnsupportedLanguageError';
  readonly field = 'language';
  readonly language: string;

  constructor(language: string, supported: readonly string[]) {
    super(`Expected language to be one of ${supported.join(', ')} or auto but received ${language}`);
    this.language = language;
  }
}

/** No model with this id (and version) is registered. */
export class UnknownModelError extends RangeError {
  readonly code = 'UNKNOWN_MODEL';
  override readonly name = 'UnknownModelError';
  readonly modelId: string;

  constructor(modelId: string, version: string | undefined, known: readonly string[]) {
    super(`Unknown model ${modelId}${version === undefined ? '' : `@${version}`}; registered: ${known.join(', ') || 'none'}`);
    this.modelId = modelId;
  }
}

/** A model file or one of its resources is missing, corrupt, or does not match its model card. */
export class ModelLoadError extends Error {
  readonly code = 'MODEL_LOAD_FAILED';
  override readonly name = 'ModelLoadError';
  readonly path: string;

  constructor(path: string, reason: string, options?: { cause?: unknown }) {
    super(`Could not load model file ${path}: ${reason}`, options);
    this.path = path;
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Uint8Array) {
    return `${value.byteLength} bytes starting ${Buffer.from(value.subarray(0, 8)).toString('hex') || '(empty)'}`;
  }
  return `${String(value)} of type ${value === null ? 'null' : typeof value}`;
}
