import type { PdfLine, PdfTextItem } from './pdfTypes.js';

/** Horizontal gap, in font sizes, beyond which two runs on one baseline belong to different columns. */
const COLUMN_GAP_EMS = 1.2;
/** Horizontal gap, in font sizes, beyond which a space is inserted between two runs. */
const WORD_GAP_EMS = 0.15;

/**
 * Groups the text runs of a page into lines: runs whose baselines are within half a font size of each other share a
 * line, and a line is split where the gap between runs is wider than {@link COLUMN_GAP_EMS} font sizes, so the
 * two halves of a two-column row stay separate. Lines come back top to bottom, left to right.
 */
export function groupLines(items: readonly PdfTextItem[]): PdfLine[] {
  const sorted = items
    .filter((item) => item.text.trim() !== '')
    .sort((a, b) => b.y - a.y || a.x - b.x);
  const rows: PdfTextItem[][] = [];
  for (const item of sorted) {
    const row = rows.at(-1);
    const anchor = row?.[0];
    if (row !== undefined && anchor !== undefined && Math.abs(anchor.y - item.y) <= 0.5 * Math.max(anchor.fontSize, item.fontSize)) {
      row.push(item);
    } else {
      rows.push([item]);
    }
  }
  const lines: PdfLine[] = [];
  for (const row of rows) {
    row.sort((a, b) => a.x - b.x);
    let line: PdfLine | undefined;
    for (const item of row) {
      const gap = line === undefined ? 0 : item.x - line.x1;
      if (line !== undefined && gap <= COLUMN_GAP_EMS * Math.max(line.fontSize, item.fontSize)) {
        // The last character only: a regular expression anchored at the end scans the whole line each time.
        const space = gap > WORD_GAP_EMS * item.fontSize && !/\s/.test(line.text.at(-1) ?? '') && !/^\s/.test(item.text);
        line.text += (space ? ' ' : '') + item.text;
        line.x1 = Math.max(line.x1, item.x + item.width);
        line.fontSize = Math.max(line.fontSize, item.fontSize);
        continue;
      }
      if (line !== undefined) lines.push(line);
      line = { text: item.text, x0: item.x, x1: item.x + item.width, y: item.y, fontSize: item.fontSize };
    }
    if (line !== undefined) lines.push(line);
  }
  for (const line of lines) line.text = line.text.replace(/\s+/g, ' ').trim();
  return lines;
}
