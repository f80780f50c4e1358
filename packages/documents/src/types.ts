/** Formats text can be extracted from. */
export type DocumentFormat = 'pdf' | 'docx' | 'doc' | 'html' | 'text';

/** A range of characters of the extracted text: `text.slice(start, end)`. */
export interface TextSpan {
  start: number;
  end: number;
}

/** One paragraph (or heading, list item, table row) of the extracted text. */
export interface TextParagraph extends TextSpan {
  /** Page (from 1) the paragraph starts on; PDF only. */
  page?: number;
}

/** The characters that came from one PDF page. Empty pages have `start === end`. */
export interface TextPage extends TextSpan {
  /** Page number, from 1. */
  number: number;
}

/** Metadata read from the document or page. Absent fields were not found. */
export interface DocumentMetadata {
  title?: string;
  author?: string;
  description?: string;
  /** Publication date as written by the page, normalised to ISO 8601 when it parses. */
  publishedAt?: string;
  siteName?: string;
  language?: string;
}

/**
 * Text extracted from a document or web page. Paragraphs are separated by a blank line (`\n\n`) in `text`; each
 * paragraph's span excludes the separator.
 */
export interface ExtractedText {
  format: DocumentFormat;
  text: string;
  paragraphs: TextParagraph[];
  /** One entry per page for PDF; empty for formats without pages. */
  pages: TextPage[];
  metadata: DocumentMetadata;
}
