import type { PdfLine, PdfPageLines } from './pdfTypes.js';

/**
 * Baselines at the top and at the bottom of each page whose lines are considered as running headers or footers (a
 * header of two parts on one baseline, "Report title ... Page 3", and a second line under it, or a footer of a
 * title, a notice and a folio).
 */
const EDGE_BASELINES = 3;
/** Baselines closer than this (points) are one. */
const BASELINE_TOLERANCE = 1.5;
/** Share of the page height, at the top and at the bottom, where running lines sit. */
const EDGE_BAND = 0.12;
/**
 * Wider band for a line that carries the page number ({@link folioKeys}): a header set lower, in a page with wide
 * margins, is still a running head when the number in it follows the pages.
 */
const FOLIO_BAND = 0.2;
/** Share of pages a header or footer must repeat on (digits ignored) to be dropped. */
const REPEAT_SHARE = 0.6;
const PAGE_NUMBER = /^(?:page|p\.|seite|página|pagina)?\s*[-–—(\[]?\s*\d+\s*(?:(?:of|\/|de|von|sur)\s*\d+)?\s*[-–—)\]]?$/i;

/** A line's identity across pages: lowercase, digits as `#` (folios change), spaces collapsed. */
function runningKey(line: PdfLine): string {
  return line.text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

/** The lines of the first `count` baselines of `lines` (sorted from the edge inwards). */
function firstBaselines(lines: readonly PdfLine[], count: number): PdfLine[] {
  const out: PdfLine[] = [];
  let baselines = 0;
  let last = NaN;
  for (const line of lines) {
    if (!(Math.abs(line.y - last) <= BASELINE_TOLERANCE)) {
      if (++baselines > count) break;
      last = line.y;
    }
    out.push(line);
  }
  return out;
}

/** The lines of the top and bottom {@link EDGE_BASELINES} baselines of a page that lie within `band` of its edges. */
function edgeLines(page: PdfPageLines, band = EDGE_BAND): PdfLine[] {
  const byHeight = [...page.lines].sort((a, b) => b.y - a.y);
  const top = firstBaselines(byHeight, EDGE_BASELINES).filter((line) => line.y >= page.height * (1 - band));
  const bottom = firstBaselines(byHeight.reverse(), EDGE_BASELINES).filter((line) => line.y <= page.height * band);
  return [...new Set([...top, ...bottom])];
}

/**
 * Keys of the edge lines that carry the page number: on every page where the key is at an edge (two pages at
 * least), the number at one place in the line is the page's number plus the same offset (a journal's page 12 on
 * the PDF's page 1). Such a line is a running head even when it repeats on fewer pages than {@link REPEAT_SHARE},
 * as verso and recto heads do ("Journal of X, Vol 3 — page 12", "Article title — page 13").
 */
function folioKeys(pages: readonly PdfPageLines[]): Set<string> {
  const occurrences = new Map<string, Array<{ page: number; numbers: number[] }>>();
  for (const page of pages) {
    const seen = new Set<string>();
    for (const line of edgeLines(page, FOLIO_BAND)) {
      const key = runningKey(line);
      if (seen.has(key) || !key.includes('#')) continue;
      seen.add(key);
      const numbers = (line.text.match(/\d+/g) ?? []).map(Number);
      occurrences.set(key, [...(occurrences.get(key) ?? []), { page: page.number, numbers }]);
    }
  }
  const keys = new Set<string>();
  for (const [key, found] of occurrences) {
    if (found.length < 2) continue;
    const places = found[0]!.numbers.length;
    for (let place = 0; place < places; place += 1) {
      const offset = found[0]!.numbers[place]! - found[0]!.page;
      if (found.every(({ page, numbers }) => numbers[place]! - page === offset)) {
        keys.add(key);
        break;
      }
    }
  }
  return keys;
}

/**
 * Removes running headers and footers: among the lines of the three top and three bottom baselines of each page,
 * when they lie in the top or bottom 12% of the page, a line whose text (digits ignored) repeats on at least 60% of
 * the pages (and on two pages at least) is dropped everywhere it is at an edge, and so is a bare page number ("12",
 * "- 12 -", "Page 3 of 9"); a line that carries the page number (see {@link folioKeys}) is dropped within 20% of
 * the edges. Returns new pages.
 */
export function dropRunningLines(pages: readonly PdfPageLines[]): PdfPageLines[] {
  const pagesWithKey = new Map<string, number>();
  for (const page of pages) {
    for (const key of new Set(edgeLines(page).map(runningKey))) pagesWithKey.set(key, (pagesWithKey.get(key) ?? 0) + 1);
  }
  const threshold = Math.max(2, Math.ceil(REPEAT_SHARE * pages.length));
  const withFolio = folioKeys(pages);
  return pages.map((page) => {
    const edges = new Set(edgeLines(page));
    const folioEdges = new Set(edgeLines(page, FOLIO_BAND));
    const lines = page.lines.filter((line) => {
      if (folioEdges.has(line) && withFolio.has(runningKey(line))) return false;
      if (!edges.has(line)) return true;
      if (PAGE_NUMBER.test(line.text)) return false;
      return (pagesWithKey.get(runningKey(line)) ?? 0) < threshold;
    });
    return { ...page, lines };
  });
}
