/** Limits applied while extracting text from document bytes. */
export interface ExtractOptions {
  /**
   * Largest document accepted, in bytes (the fetch limit for `file` URLs, and checked again on bytes given directly).
   * @default 20971520 (20 MiB)
   */
  maxBytes?: number;
  /**
   * Most pages a PDF may have; checked on the page tree before any page is parsed.
   * @default 500
   */
  maxPages?: number;
  /**
   * Largest total size of a DOCX archive once inflated, in bytes, summed over every entry; checked on the central
   * directory and again while inflating, before the archive reaches the DOCX reader.
   * @default 104857600 (100 MiB)
   */
  maxUncompressedBytes?: number;
  /**
   * Most entries a DOCX archive may hold.
   * @default 2000
   */
  maxZipEntries?: number;
  /**
   * Longest extracted text, in UTF-16 code units.
   * @default 2000000
   */
  maxTextLength?: number;
}

/** Default {@link ExtractOptions}. */
export const EXTRACT_DEFAULTS = {
  maxBytes: 20 * 1024 * 1024,
  maxPages: 500,
  maxUncompressedBytes: 100 * 1024 * 1024,
  maxZipEntries: 2000,
  maxTextLength: 2_000_000,
} as const;

export type ResolvedExtractOptions = { -readonly [K in keyof typeof EXTRACT_DEFAULTS]: number };

/**
 * Applies the defaults and checks every option.
 * @throws {RangeError} naming the option and the value received.
 */
export function resolveExtractOptions(options: ExtractOptions = {}): ResolvedExtractOptions {
  return {
    maxBytes: positiveInteger('maxBytes', options.maxBytes, EXTRACT_DEFAULTS.maxBytes),
    maxPages: positiveInteger('maxPages', options.maxPages, EXTRACT_DEFAULTS.maxPages),
    maxUncompressedBytes: positiveInteger('maxUncompressedBytes', options.maxUncompressedBytes, EXTRACT_DEFAULTS.maxUncompressedBytes),
    maxZipEntries: positiveInteger('maxZipEntries', options.maxZipEntries, EXTRACT_DEFAULTS.maxZipEntries),
    maxTextLength: positiveInteger('maxTextLength', options.maxTextLength, EXTRACT_DEFAULTS.maxTextLength),
  };
}

/** Checks one positive integer option; `fallback` when undefined. */
export function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
    throw new RangeError(`Expected positive integer for ${name} but received ${shown} of type ${typeof value}`);
  }
  return value;
}
