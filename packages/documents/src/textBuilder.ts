import { DocumentError } from './errors.js';
import type { TextPage, TextParagraph } from './types.js';

/** A piece of a paragraph and the page it came from. */
export interface TextPiece {
  text: string;
  page?: number;
}

/**
 * Joins paragraphs (each a list of already joined pieces) with blank lines, recording each paragraph's span and,
 * when pieces carry pages, each page's span. Empty paragraphs are skipped.
 */
export function buildText(paragraphs: readonly (readonly TextPiece[])[], pageCount = 0): {
  text: string;
  paragraphs: TextParagraph[];
  pages: TextPage[];
} {
  let text = '';
  const spans: TextParagraph[] = [];
  const pages: TextPage[] = Array.from({ length: pageCount }, (_, index) => ({ number: index + 1, start: -1, end: -1 }));
  for (const pieces of paragraphs) {
    if (pieces.every((piece) => piece.text.trim() === '')) continue;
    if (text !== '') text += '\n\n';
    const start = text.length;
    for (const piece of pieces) {
      const pieceStart = text.length;
      text += piece.text;
      const page = piece.page === undefined ? undefined : pages[piece.page - 1];
      if (page !== undefined) {
        if (page.start < 0) page.start = pieceStart;
        page.end = text.length;
      }
    }
    const firstPage = pieces.find((piece) => piece.page !== undefined)?.page;
    spans.push(firstPage === undefined ? { start, end: text.length } : { start, end: text.length, page: firstPage });
  }
  // A page that contributed nothing gets an empty span where its text would have been.
  let previousEnd = 0;
  for (const page of pages) {
    if (page.start < 0) page.start = page.end = previousEnd;
    previousEnd = page.end;
  }
  return { text, paragraphs: spans, pages };
}

/** Collapses runs of spaces and tabs and trims, keeping the text of one paragraph on one line. */
export function normaliseInline(text: string): string {
  return text.replace(/[\s\u00a0]+/g, ' ').trim();
}

/**
 * Fails when a document has more paragraphs than `maxParagraphs`; `what` names it in the message ("PDF").
 * @throws {DocumentError} `TOO_MANY_PARAGRAPHS`.
 */
export function checkParagraphCount(count: number, maxParagraphs: number, what: string): void {
  if (count > maxParagraphs) {
    throw new DocumentError('TOO_MANY_PARAGRAPHS', `The ${what} has ${count} paragraphs; the limit is ${maxParagraphs}.`);
  }
}
