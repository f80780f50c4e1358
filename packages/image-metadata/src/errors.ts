/**
 * Errors of the image-metadata package. Every error a caller can cause carries the spec's `BAD_REQUEST` code and
 * a stable `reason`, so the engine can turn it into a 400 body with the message as description.
 */

/** Why an image input was refused. */
export type ImageInputErrorReason =
  | 'EMPTY_INPUT'
  | 'INVALID_BASE64'
  | 'UNSUPPORTED_DATA_URL'
  | 'UNSUPPORTED_FORMAT'
  | 'TOO_LARGE'
  | 'TOO_SMALL'
  | 'PIXEL_LIMIT'
  | 'TRUNCATED'
  | 'CORRUPT';

/** Bad input from the caller: an image that cannot be read, is too large, too small or not an image at all. */
export class ImageInputError extends Error {
  readonly code = 'BAD_REQUEST' as const;
  readonly reason: ImageInputErrorReason;

  constructor(reason: ImageInputErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ImageInputError';
    this.reason = reason;
  }
}

/** A bad option value (a programming error of the caller of this library, not of an API user). */
export class ImageMetadataOptionError extends RangeError {
  readonly code = 'INVALID_OPTION' as const;

  constructor(name: string, expected: string, value: unknown) {
    super(`Expected ${expected} for ${name} but received ${String(value)} of type ${typeof value}`);
    this.name = 'ImageMetadataOptionError';
  }
}

/**
 * The image carries a C2PA manifest store but the C2PA reader cannot load here, so the store was not validated
 * (reported in the result's `errors` for the `c2pa` part, never as an `invalid` manifest).
 */
export class C2paUnavailableError extends Error {
  readonly code = 'C2PA_UNAVAILABLE' as const;

  constructor(options: { cause: unknown }) {
    const reason = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super(`The image carries a C2PA manifest store, but the C2PA reader (@contentauth/c2pa-wasm) cannot load here: ${reason}`, options);
    this.name = 'C2paUnavailableError';
  }
}
