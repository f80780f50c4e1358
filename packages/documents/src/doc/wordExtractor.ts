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

const require = createRequire(import.meta.url);
const WordExtractor = require('word-extractor') as new () => WordExtractorInstance;

/** Reads a legacy Word (OLE2 compound file) document from memory with word-extractor. */
export function readWordDocument(bytes: Buffer): Promise<WordDocumentParts> {
  return new WordExtractor().extract(bytes);
}
