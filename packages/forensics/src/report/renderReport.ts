import { reportFigures } from './reportFigures.js';
import type { ReportFiguresInput } from './reportFigures.js';
import { reportHtml } from './reportHtml.js';
import type { ReportPage } from './reportHtml.js';

/** `reportHtml` of `reportFigures`: the whole self-contained page from the image, the maps and the page's text. */
export async function renderReport(input: ReportFiguresInput & Omit<ReportPage, 'figures'>): Promise<string> {
  const { image, maps, overall, maxSide, mapMaxSide, ...page } = input;
  const figures = await reportFigures({
    image, maps, ...(overall ? { overall } : {}), ...(maxSide !== undefined ? { maxSide } : {}), ...(mapMaxSide !== undefined ? { mapMaxSide } : {}),
  });
  return reportHtml({ ...page, figures });
}
