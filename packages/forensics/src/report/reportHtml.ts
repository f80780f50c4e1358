import { escapeHtml as e } from './escapeHtml.js';
import type { ReportFigure, ReportFigures } from './reportFigures.js';
import { REPORT_CSS } from './reportStyle.js';

/** A section of text under the maps: paragraphs, term/text pairs, a key/value table or preformatted text. */
export interface ReportSection {
  heading: string;
  paragraphs?: string[];
  items?: Array<{ term: string; text: string }>;
  table?: Array<[string, string]>;
  preformatted?: string;
  /**
   * Folded (a `<details>` element the reader opens).
   * @default false
   */
  folded?: boolean;
}

/** What a report page says: every string is printed as text (escaped), so it may come from the image itself. */
export interface ReportPage {
  title: string;
  /** @default none */
  subtitle?: string;
  /** @default none */
  tags?: string[];
  /** The decision: a badge (`headline`), its tone, a sentence and labelled facts. @default none */
  verdict?: { headline: string; tone: 'ok' | 'alert' | 'neutral'; summary?: string; facts?: Array<{ label: string; value: string }> };
  figures: ReportFigures;
  /**
   * The sentence under "Method maps".
   * @default how to read the maps and their colour scales
   */
  mapsIntro?: string;
  /** Caption of the image. @default its size */
  imageCaption?: string;
  /** @default none */
  sections?: ReportSection[];
  /** Lines of small print at the end. @default none */
  footer?: string[];
}

/**
 * The policy of the page, also sent as a header by the server: images only from data: URIs, the inline style sheet,
 * no script, no request of any kind.
 */
export const REPORT_CONTENT_SECURITY_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const MAPS_INTRO =
  'Each heat map covers the image; every method has its own colour scale and range, printed under it (bright = high ' +
  "values). Values beyond a scale's ends take the end colours.";

const DATA_URI = /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/=]*$/;
const GRADIENT = /^linear-gradient\(to right(, rgb\(\d{1,3},\d{1,3},\d{1,3}\) \d{1,3}(\.\d+)?%)+\)$/;

function img(src: string, width: number, height: number, alt: string, className?: string): string {
  // Figures may arrive from another process (an analysis worker): only our own kind of data: URI is written.
  if (!DATA_URI.test(src)) throw new TypeError(`Expected a base64 PNG or JPEG data: URI for the image "${alt}"`);
  const w = Math.max(1, Math.round(width)), h = Math.max(1, Math.round(height));
  return `<img src="${src}" width="${w}" height="${h}" alt="${e(alt)}"${className ? ` class="${className}"` : ''}>`;
}

function panel(figure: ReportFigure): string {
  const head = `<figcaption><h3>${e(figure.name)}</h3>${figure.detail ? `<p class="detail">${e(figure.detail)}</p>` : ''}</figcaption>`;
  if (figure.error !== undefined || !figure.heatmap || !figure.legend) {
    return `<figure class="panel card">${head}<p class="failed">Not available: ${e(figure.error ?? 'no map')}</p></figure>`;
  }
  const { heatmap, legend } = figure;
  if (!GRADIENT.test(legend.gradient)) throw new TypeError(`Expected a colour gradient of rgb() stops for the map "${figure.name}"`);
  const ticks = legend.ticks.map((t) => `<span style="left:${(Math.min(1, Math.max(0, t.position)) * 100).toFixed(2)}%">${e(t.label)}</span>`).join('');
  const blank = heatmap.blankShare > 0 ? ` Checkered cells: no value (${(heatmap.blankShare * 100).toFixed(1)}%).` : '';
  return (
    `<figure class="panel card">${head}` +
    `<div class="heat">${img(heatmap.src, heatmap.width, heatmap.height, `Heat map: ${figure.name}`, heatmap.pixelated ? 'pixelated' : undefined)}</div>` +
    `<div class="legend" role="img" aria-label="${e(`Colour scale (${legend.colormap}) from ${legend.ticks[0]?.label ?? ''} to ${legend.ticks.at(-1)?.label ?? ''}`)}">` +
    `<div class="bar" style="background:${e(legend.gradient)}"></div><div class="ticks">${ticks}</div>` +
    `<p class="scale">${e(legend.label)}.${e(blank)}</p></div>` +
    `${figure.note ? `<p class="note">${e(figure.note)}</p>` : ''}</figure>`
  );
}

/** The main maps' scores as bars, beside the image. */
function scores(figures: ReportFigure[]): string {
  const scored = figures.filter((f) => f.score !== undefined);
  if (!scored.length) return '';
  const rows = scored.map((f) => {
    const pct = (f.score! * 100).toFixed(1);
    return `<li><span class="name">${e(f.name)}</span><span class="meter"><span style="width:${pct}%"></span></span><span class="value">${f.score!.toFixed(2)}</span></li>`;
  });
  return `<section class="card scores"><h3>Scores per method</h3><p class="detail">0 = nothing anomalous, 1 = strongly anomalous</p><ul>${rows.join('')}</ul></section>`;
}

function section(s: ReportSection): string {
  let body = '';
  for (const p of s.paragraphs ?? []) body += `<p>${e(p)}</p>`;
  if (s.items?.length) body += `<dl class="findings">${s.items.map((i) => `<dt>${e(i.term)}</dt><dd>${e(i.text)}</dd>`).join('')}</dl>`;
  if (s.table?.length) body += `<table><tbody>${s.table.map(([k, v]) => `<tr><th scope="row">${e(k)}</th><td>${e(v)}</td></tr>`).join('')}</tbody></table>`;
  if (s.preformatted !== undefined) body += `<pre>${e(s.preformatted)}</pre>`;
  return s.folded
    ? `<details class="block"><summary>${e(s.heading)}</summary>${body}</details>`
    : `<section class="block"><h2>${e(s.heading)}</h2>${body}</section>`;
}

/**
 * One self-contained HTML page: inline CSS, images as data: URIs, no script, and a Content-Security-Policy that
 * forbids any request. Every text is escaped. The image comes first with the overall map beside it when there is
 * one, then each method's heat map with its colour scale, the further maps folded, then the page's sections.
 */
export function reportHtml(page: ReportPage): string {
  const { figures } = page;
  const main = figures.maps.filter((m) => !m.secondary);
  const further = figures.maps.filter((m) => m.secondary);
  const verdict = page.verdict
    ? `<section class="verdict tone-${page.verdict.tone === 'ok' || page.verdict.tone === 'alert' ? page.verdict.tone : 'neutral'}">` +
      `<div class="badge">${e(page.verdict.headline)}</div><div>` +
      `${page.verdict.summary ? `<p>${e(page.verdict.summary)}</p>` : ''}` +
      `${page.verdict.facts?.length ? `<dl class="facts">${page.verdict.facts.map((f) => `<div><dt>${e(f.label)}</dt><dd>${e(f.value)}</dd></div>`).join('')}</dl>` : ''}` +
      `</div></section>`
    : '';
  const caption = page.imageCaption ?? `The analysed image, ${figures.image.width}x${figures.image.height} pixels.`;
  const side = `${figures.overall ? panel(figures.overall) : ''}${scores(main)}`;
  const lead =
    `<div class="lead${side ? '' : ' single'}">` +
    `<figure class="photo card">${img(figures.image.src, figures.image.width, figures.image.height, 'The analysed image')}<figcaption>${e(caption)}</figcaption></figure>` +
    `${side ? `<div class="side">${side}</div>` : ''}</div>`;
  const maps =
    `<h2>Method maps</h2><p class="hint">${e(page.mapsIntro ?? MAPS_INTRO)}</p>` +
    `<div class="grid">${main.map(panel).join('')}</div>` +
    (further.length ? `<details><summary>Further maps (${further.length})</summary><div class="grid">${further.map(panel).join('')}</div></details>` : '');
  return (
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${REPORT_CONTENT_SECURITY_POLICY}">` +
    `<meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${e(page.title)}</title><style>${REPORT_CSS}</style></head><body>` +
    `<header><p class="kicker">Forensic image report</p><h1>${e(page.title)}</h1>` +
    `${page.subtitle ? `<p class="sub">${e(page.subtitle)}</p>` : ''}` +
    `${page.tags?.length ? `<ul class="tags">${page.tags.map((t) => `<li>${e(t)}</li>`).join('')}</ul>` : ''}</header>` +
    `<main>${verdict}${lead}${maps}${(page.sections ?? []).map(section).join('')}</main>` +
    `${page.footer?.length ? `<footer>${page.footer.map((l) => `<p>${e(l)}</p>`).join('')}</footer>` : ''}` +
    `</body></html>\n`
  );
}
