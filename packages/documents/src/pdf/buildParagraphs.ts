import { joinLines, repairLigatures } from '../repairText.js';
import type { TextPiece } from '../textBuilder.js';
import type { PdfLine } from './pdfTypes.js';
import type { LineStream } from './readingOrder.js';

/** A vertical gap this many times the typical line spacing starts a new paragraph. */
const PARAGRAPH_GAP_RATIO = 1.3;
/** A first line indented by this many font sizes from its column's left edge starts a new paragraph. */
const INDENT_EMS = 0.8;
/** A font size change beyond this ratio (a heading) starts a new paragraph. */
const FONT_CHANGE_RATIO = 1.15;
const ENDS_SENTENCE = /[.!?:;"”’')\]]$/u;
const STARTS_CONTINUATION = /^[\p{Ll}\d(,;]/u;

/** One page's reading-ordered streams of lines. */
export interface PageStreams {
  page: number;
  streams: LineStream[];
}

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Appends a line to a paragraph, rejoining a hyphenated word across the break. */
function appendLine(pieces: TextPiece[], line: string, page: number): void {
  const last = pieces.at(-1);
  if (last !== undefined) {
    const joined = joinLines(last.text, line);
    last.text = joined.slice(0, joined.length - line.length);
  }
  pieces.push({ text: line, page });
}

/**
 * Splits the reading-ordered lines of a document into paragraphs. Within a stream a paragraph ends at a vertical
 * gap wider than 1.3 times the typical line spacing, before an indented first line, or at a change of font size.
 * A paragraph cut by the end of a column or page continues in the next stream when it does not end a sentence and
 * the next line starts in lowercase (or the last line ends with a hyphen); in a document that marks paragraphs by
 * indentation, it continues when the next stream's first line is not indented.
 */
export function buildParagraphs(pages: readonly PageStreams[]): TextPiece[][] {
  const spacings: number[] = [];
  for (const { streams } of pages) {
    for (const stream of streams) {
      for (let index = 1; index < stream.length; index += 1) {
        const gap = (stream[index - 1]?.y ?? 0) - (stream[index]?.y ?? 0);
        if (gap > 0) spacings.push(gap);
      }
    }
  }
  const lineSpacing = median(spacings) ?? 0;
  const usesIndent = countIndentedLines(pages) >= 2;
  const paragraphs: TextPiece[][] = [];
  let current: TextPiece[] = [];
  let previous: PdfLine | undefined;
  const close = () => {
    if (current.length > 0) paragraphs.push(current);
    current = [];
  };
  for (const { page, streams } of pages) {
    for (const stream of streams) {
      const left = Math.min(...stream.map((line) => line.x0));
      stream.forEach((line, index) => {
        const text = repairLigatures(line.text);
        const before = index === 0 ? undefined : stream[index - 1];
        let breaks: boolean;
        if (before === undefined) {
          // First line of a stream: continue the open paragraph only if it visibly runs on.
          const last = current.at(-1)?.text ?? '';
          const indented = line.x0 - left > INDENT_EMS * line.fontSize;
          const runsOn = usesIndent
            ? !indented
            : !ENDS_SENTENCE.test(last) && (STARTS_CONTINUATION.test(text) || /\p{L}-$/u.test(last));
          breaks = last === '' || !runsOn || fontChanged(previous, line);
        } else {
          const gap = before.y - line.y;
          breaks = gap > PARAGRAPH_GAP_RATIO * lineSpacing || line.x0 - left > INDENT_EMS * line.fontSize
            || fontChanged(before, line);
        }
        if (breaks) close();
        appendLine(current, text, page);
        previous = line;
      });
    }
  }
  close();
  return paragraphs;
}

function fontChanged(a: PdfLine | undefined, b: PdfLine): boolean {
  if (a === undefined) return false;
  const ratio = a.fontSize > b.fontSize ? a.fontSize / b.fontSize : b.fontSize / a.fontSize;
  return ratio > FONT_CHANGE_RATIO;
}

/** Lines indented from their stream's left edge, not first in their stream: paragraph starts marked by indentation. */
function countIndentedLines(pages: readonly PageStreams[]): number {
  let count = 0;
  for (const { streams } of pages) {
    for (const stream of streams) {
      if (stream.length < 3) continue;
      const left = Math.min(...stream.map((line) => line.x0));
      count += stream.slice(1).filter((line) => line.x0 - left > INDENT_EMS * line.fontSize).length;
    }
  }
  return count;
}
