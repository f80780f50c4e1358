/** Base class of every error this package throws; `code` is stable and safe to branch on. */
export class ForensicsError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** The bytes are not an image sharp can decode. */
export class ImageDecodeError extends ForensicsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_FORENSICS_IMAGE_DECODE', message, options);
  }
}

/** The image is smaller than the analysis needs (each kernel needs a few blocks). */
export class ImageTooSmallError extends ForensicsError {
  readonly minimum: number;
  constructor(width: number, height: number, minimum: number) {
    super('ERR_FORENSICS_IMAGE_TOO_SMALL', `Expected an image of at least ${minimum}x${minimum} pixels but received ${width}x${height}`);
    this.minimum = minimum;
  }
}

/** The image is larger than the configured pixel limit. */
export class ImageTooLargeError extends ForensicsError {
  constructor(pixels: number, limit: number) {
    super('ERR_FORENSICS_IMAGE_TOO_LARGE', `Expected at most ${limit} pixels but received ${pixels}`);
  }
}

/** A kernel id that the registry does not know. */
export class UnknownKernelError extends ForensicsError {
  constructor(id: string, known: readonly string[]) {
    super('ERR_FORENSICS_UNKNOWN_KERNEL', `Unknown kernel "${id}"; known kernels: ${known.join(', ')}`);
  }
}

/** The bytes are not a JPEG whose coefficients this package can read (not a JPEG, progressive, arithmetic, 12-bit). */
export class JpegCoefficientsError extends ForensicsError {
  constructor(message: string) {
    super('ERR_FORENSICS_JPEG_COEFFICIENTS', message);
  }
}
