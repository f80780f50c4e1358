import type { PdfLine, PdfPageLines } from './pdfTypes.js';

/** Lines at the top and at the bottom of each page considered as running headers or footers. */
const EDGE_LINES = 2;
/** Share of the page height, at the top and at the bottom, where running lines sit. */
const EDGE_BAND = 0.12;
/** Share of pages a header or footer must repeat on (digits ignored) to be dropped. */
const REPEAT_SHARE = 0.6;
const PAGE_NUMBER = /^(?:page|p\.|seite|página|pagina)?\s*[-–—(\[]?\s*\d+\s*(?:(?:of|\/|de|von|sur)\s*\d+)?\s*[-–—)\]]?$/i;

/** A line's identity across pages: lowercase, digits as `#` (folios change), spaces collapsed. */
function runningKey(line: PdfLine): string {
  return line.text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

function edgeLines(page: PdfPageLines): PdfLine[] {
  const byHeight = [...page.lines].sort((a, b) => b.y - a.y);
  const top = byHeight.slice(0, EDGE_LINES).filter((line) => line.y >= page.height * (1 - EDGE_BAND));
  const bottom = byHeight.slice(-EDGE_LINES).filter((line) => line.y <= page.height * EDGE_BAND);
  return [...new Set([...top, ...bottom])];
}

/**
 * Removes running headers and footers: among the two top and two bottom lines of each page, when they lie in the
 * top or bottom 12% of the page, a line whose text
 * (digits ignored) repeats on at least 60% of the pages (and on two pages at least) is dropped everywhere it is at
 * an edge, and so is a bare page number ("12", "- 12 -", "Page 3 of 9") at an edge. Returns new pages.
 */
export function dropRunningLines(pages: readonly PdfPageLines[]): PdfPageLines[] {
  const pagesWithKey = new Map<string, number>();
  for (const page of pages) {
    for (const key of new Set(edgeLines(page).map(runningKey))) pagesWithKey.set(key, (pagesWithKey.get(key) ?? 0) + 1);
  }
  const threshold = Math.max(2, Math.ceil(REPEAT_SHARE * pages.length));
  return pages.map((page) => {
    const edges = new Set(edgeLines(page));
    const lines = page.lines.filter((line) => {
      if (!edges.has(line)) return true;
      if (PAGE_NUMBER.test(line.text)) return false;
      return (pagesWithKey.get(runningKey(line)) ?? 0) < threshold;
    });
    return { ...page, lines };
  });
}
