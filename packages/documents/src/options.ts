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
  /**
   * Most XML elements of a DOCX document, counted over its inflated XML parts by a byte scan before the DOCX
   * reader builds anything: the reader's memory and time grow with the element count (about 2 KB of heap per
   * element, measured), not with the bytes on the wire.
   * @default 100000
   */
  maxElements?: number;
  /**
   * Most paragraphs of the extracted text (any format); a DOCX is checked on its `<w:p>` elements before reading.
   * @default 50000
   */
  maxParagraphs?: number;
  /**
   * Largest total size of the compressed (FlateDecode) streams of a PDF once inflated, in bytes, measured by a
   * bounded streaming inflate before pdf.js opens the file (images: 16 times as much): pdf.js keeps a whole decoded
   * content stream in memory and parses every operator in it (about 1 s per MiB of operators, measured). pdf.js
   * also stops any one stream it decodes at this size.
   * @default 16777216 (16 MiB)
   */
  maxInflatedStreamBytes?: number;
}

/** Default {@link ExtractOptions}. */
export const EXTRACT_DEFAULTS = {
  maxBytes: 20 * 1024 * 1024,
  maxPages: 500,
  maxUncompressedBytes: 100 * 1024 * 1024,
  maxZipEntries: 2000,
  maxTextLength: 2_000_000,
  maxElements: 100_000,
  maxParagraphs: 50_000,
  maxInflatedStreamBytes: 16 * 1024 * 1024,
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
    maxElements: positiveInteger('maxElements', options.maxElements, EXTRACT_DEFAULTS.maxElements),
    maxParagraphs: positiveInteger('maxParagraphs', options.maxParagraphs, EXTRACT_DEFAULTS.maxParagraphs),
    maxInflatedStreamBytes: positiveInteger('maxInflatedStreamBytes', options.maxInflatedStreamBytes, EXTRACT_DEFAULTS.maxInflatedStreamBytes),
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
