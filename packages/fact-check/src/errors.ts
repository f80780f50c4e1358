/** A caller argument is missing, of the wrong type or out of range. `field` names it as in the request. */
export class InvalidArgumentError extends TypeError {
  readonly code = 'INVALID_ARGUMENT';
  override readonly name = 'InvalidArgumentError';
  /** Name of the offending argument or option (`text`, `language`, `maxClaims`, ...). */
  readonly field: string;

  constructor(field: string, expected: string, received: unknown) {
    super(`Expected ${expected} for ${field} but received ${describe(received)}`);
    this.field = field;
  }
}

/** A bundled model or the word vectors could not be loaded. */
export class ModelLoadError extends Error {
  readonly code = 'MODEL_LOAD_FAILED';
  override readonly name = 'ModelLoadError';
  /** Which model failed (`check-worthiness`, `entailment`, `word-vectors`). */
  readonly model: string;

  constructor(model: string, cause: unknown) {
    super(`Could not load the ${model} model: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.model = model;
  }
}

/** The web search provider failed; the store's evidence is still used. */
export class SearchProviderError extends Error {
  readonly code = 'SEARCH_PROVIDER_FAILED';
  override readonly name = 'SearchProviderError';

  constructor(cause: unknown) {
    super(`The web search provider failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  return `${String(value)} of type ${value === null ? 'null' : typeof value}`;
}
