import type { TextParagraph } from './types.js';

/**
 * Paragraph spans of a plain text, kept exactly as given: paragraphs are separated by blank lines (lines with only
 * whitespace); spans exclude surrounding whitespace.
 */
export function splitPlainText(text: string): { text: string; paragraphs: TextParagraph[]; pages: [] } {
  const paragraphs: TextParagraph[] = [];
  const separator = /\n[ \t\r\f\v]*\n\s*/g;
  let start = 0;
  const push = (end: number) => {
    const slice = text.slice(start, end);
    const leading = slice.length - slice.trimStart().length;
    const trimmed = slice.trim();
    if (trimmed !== '') paragraphs.push({ start: start + leading, end: start + leading + trimmed.length });
  };
  for (const match of text.matchAll(separator)) {
    push(match.index);
    start = match.index + match[0].length;
  }
  push(text.length);
  return { text, paragraphs, pages: [] };
}
