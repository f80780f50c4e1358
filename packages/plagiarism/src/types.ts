/** A document of a source collection. */
export interface SourceDocument {
  /** Identifies the document; adding a document with a known url replaces it. */
  url: string;
  text: string;
  title?: string | undefined;
  author?: string | undefined;
  description?: string | undefined;
  /** Publication time, milliseconds since the epoch (0 or absent when unknown). */
  publishedDate?: number | undefined;
  /** Language code; detected from the text when absent. */
  language?: string | undefined;
}

/** A plagiarism sequence: `sequence === text.slice(startIndex, endIndex)`. */
export interface PlagiarismSequence {
  startIndex: number;
  endIndex: number;
  sequence: string;
}
