/**
 * Errors of the plagiarism package. Each has a stable `code`; the ones caused by caller input also name the
 * request `field`, so the engine can answer BAD_REQUEST with a description that names it.
 */

function describe(value: unknown): string {
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  return `${String(value)} of type ${value === null ? 'null' : typeof value}`;
}

/** An argument or option has the wrong type or is out of range. */
export class InvalidArgumentError extends TypeError {
  readonly code = 'INVALID_ARGUMENT';
  override readonly name = 'InvalidArgumentError';
  /** Name of the offending argument, option or request field. */
  readonly field: string;

  constructor(field: string, expected: string, received: unknown) {
    super(`Expected ${expected} for ${field} but received ${describe(received)}`);
    this.field = field;
  }
}

/** The text is shorter or longer than the bounds of the endpoint (characters for v2, words for v1). */
export class TextLengthError extends RangeError {
  readonly code = 'TEXT_LENGTH';
  override readonly name = 'TextLengthError';
  readonly field = 'text';
  readonly length: number;
  readonly min: number;
  readonly max: number;
  readonly unit: 'characters' | 'words';

  constructor(length: number, min: number, max: number, unit: 'characters' | 'words') {
    super(`Expected text of ${min} to ${max} ${unit} but received ${length} ${unit}`);
    this.length = length;
    this.min = min;
    this.max = max;
    this.unit = unit;
  }
}

/** The language is neither `auto` nor one of the 47 supported codes. */
export class UnsupportedLanguageError extends RangeError {
  readonly code = 'UNSUPPORTED_LANGUAGE';
  override readonly name = 'UnsupportedLanguageError';
  readonly field = 'language';
  readonly language: string;

  constructor(language: string) {
    super(`Expected language to be 'auto' or one of the 47 supported 2-letter codes but received '${language}'`);
    this.language = language;
  }
}

/** An entry of `excluded_sources` is neither a domain name nor an absolute http(s) URL. */
export class InvalidExcludedSourceError extends TypeError {
  readonly code = 'INVALID_EXCLUDED_SOURCE';
  override readonly name = 'InvalidExcludedSourceError';
  readonly field = 'excluded_sources';
  readonly index: number;
  readonly value: string;

  constructor(index: number, value: string, reason: string) {
    super(`Expected excluded_sources[${index}] to be a domain name or an http(s) URL but received '${value}': ${reason}`);
    this.index = index;
    this.value = value;
  }
}

/** A document given to the index is malformed (missing url or text, bad field type). */
export class InvalidDocumentError extends TypeError {
  readonly code = 'INVALID_DOCUMENT';
  override readonly name = 'InvalidDocumentError';
  readonly field: string;

  constructor(field: string, expected: string, received: unknown, where = 'document') {
    super(`Expected ${expected} for ${where}.${field} but received ${describe(received)}`);
    this.field = field;
  }
}

/** The index was used after `close()`. */
export class IndexClosedError extends Error {
  readonly code = 'INDEX_CLOSED';
  override readonly name = 'IndexClosedError';

  constructor() {
    super('The source index is closed');
  }
}

/** The SQLite file was written with another fingerprint scheme and must be re-indexed. */
export class IndexVersionError extends Error {
  readonly code = 'INDEX_VERSION';
  override readonly name = 'IndexVersionError';
  readonly found: string;
  readonly expected: string;

  constructor(found: string, expected: string) {
    super(`The index file uses fingerprint scheme '${found}' but this version needs '${expected}'; call reindex()`);
    this.found = found;
    this.expected = expected;
  }
}

/** A sync write (`add`, `addMany`, `remove`, `reindex`) was called on an index kept in PostgreSQL. */
export class SharedIndexWriteError extends Error {
  readonly code = 'SHARED_INDEX_WRITE';
  override readonly name = 'SharedIndexWriteError';

  constructor(method: string) {
    super(`A source index in PostgreSQL is written with addAsync, addManyAsync and removeAsync; ${method}() is for memory and SQLite indexes`);
  }
}

/** The PostgreSQL schema of the index was migrated by a newer version of this package. */
export class IndexSchemaVersionError extends Error {
  readonly code = 'INDEX_SCHEMA_VERSION';
  override readonly name = 'IndexSchemaVersionError';
  readonly found: number;
  readonly supported: number;

  constructor(found: number, supported: number) {
    super(`The source index database has schema version ${found}; this version of the package supports up to ${supported}`);
    this.found = found;
    this.supported = supported;
  }
}

/**
 * A source collection (`--sources`, `--evidence`, `index add`) cannot be read: not a regular file or folder (a device
 * such as /dev/zero, a FIFO), a folder that loops through symbolic links deeper than the walk allows, or more files
 * or bytes than the loader's limits.
 */
export class DocumentCollectionError extends Error {
  readonly code = 'DOCUMENT_COLLECTION';
  override readonly name = 'DocumentCollectionError';
  /** The path that failed. */
  readonly path: string;

  constructor(path: string, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.path = path;
  }
}
