import { createRequire } from 'node:module';

// word-extractor ships no types; this module is its only doorway, typed to the members used.

/** The parts of a Word document word-extractor returns. */
export interface WordDocumentParts {
  getBody(): string;
  getFootnotes(): string;
  getEndnotes(): string;
}

interface WordExtractorInstance {
  extract(source: Buffer): Promise<WordDocumentParts>;
}

let WordExtractor: (new () => WordExtractorInstance) | undefined;

/** Reads a legacy Word (OLE2 compound file) document from memory with word-extractor. */
export function readWordDocument(bytes: Buffer): Promise<WordDocumentParts> {
  // Required on the first document, not when the package is imported.
  WordExtractor ??= createRequire(import.meta.url)('word-extractor') as new () => WordExtractorInstance;
  return new WordExtractor().extract(bytes);
}
