import type { PdfLine } from './pdfTypes.js';

/** Most lines, as a share of a page's lines, that may cross the gutter for the page to count as two columns. */
const MAX_CROSSING_SHARE = 0.25;
/** Fewest lines each column must hold. */
const MIN_COLUMN_LINES = 3;

/** A run of lines read top to bottom: one column of one band of a page, or a line that spans the columns. */
export type LineStream = PdfLine[];

/**
 * Finds the x position of a two-column gutter: the position, within the middle half of the text's horizontal
 * extent, crossed by the fewest lines, provided both sides hold lines at overlapping heights. Undefined for a
 * single-column page.
 */
export function findGutter(lines: readonly PdfLine[]): number | undefined {
  if (lines.length < 2 * MIN_COLUMN_LINES) return undefined;
  const left = Math.min(...lines.map((line) => line.x0));
  const right = Math.max(...lines.map((line) => line.x1));
  const span = right - left;
  let best: { x: number; crossing: number; margin: number } | undefined;
  for (let x = left + span * 0.25; x <= left + span * 0.75; x += 1) {
    let crossing = 0;
    let margin = Infinity;
    for (const line of lines) {
      if (line.x0 < x && line.x1 > x) crossing += 1;
      else margin = Math.min(margin, line.x0 >= x ? line.x0 - x : x - line.x1);
    }
    if (best === undefined || crossing < best.crossing || (crossing === best.crossing && margin > best.margin)) {
      best = { x, crossing, margin };
    }
  }
  if (best === undefined || best.crossing > MAX_CROSSING_SHARE * lines.length) return undefined;
  const gutter = best.x;
  const leftLines = lines.filter((line) => line.x1 <= gutter);
  const rightLines = lines.filter((line) => line.x0 >= gutter);
  if (leftLines.length < MIN_COLUMN_LINES || rightLines.length < MIN_COLUMN_LINES) return undefined;
  // Side by side: the right column must have lines at the heights of the left one, not only below or above it.
  const leftTop = Math.max(...leftLines.map((line) => line.y));
  const leftBottom = Math.min(...leftLines.map((line) => line.y));
  const beside = rightLines.filter((line) => line.y <= leftTop && line.y >= leftBottom).length;
  return beside >= MIN_COLUMN_LINES ? gutter : undefined;
}

/**
 * Orders the lines of one page for reading. On a two-column page, lines that cross the gutter (titles, wide
 * figures) cut the page into bands; each band is read left column first, then right column. Each returned stream
 * is read top to bottom; paragraphs never continue from one stream to the next within a page except by the
 * continuation rules of the caller.
 */
export function readingOrder(lines: readonly PdfLine[]): LineStream[] {
  const sorted = [...lines].sort((a, b) => b.y - a.y || a.x0 - b.x0);
  const gutter = findGutter(sorted);
  if (gutter === undefined) return sorted.length === 0 ? [] : [sorted];
  const streams: LineStream[] = [];
  let left: PdfLine[] = [];
  let right: PdfLine[] = [];
  const flush = () => {
    if (left.length > 0) streams.push(left);
    if (right.length > 0) streams.push(right);
    left = [];
    right = [];
  };
  for (const line of sorted) {
    if (line.x1 <= gutter) left.push(line);
    else if (line.x0 >= gutter) right.push(line);
    else {
      flush();
      streams.push([line]);
    }
  }
  flush();
  return streams;
}
