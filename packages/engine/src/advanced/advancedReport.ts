import { kernelReportMaps, reportFigures, reportHtml } from '@content-analysis/forensics';
import type { ForensicMap, KernelOutcome, ReportFigures, ReportMapInput, ReportSection } from '@content-analysis/forensics';

/** The field of an advanced result that carries the report's figures when the request asked for `report: "html"`. */
export const REPORT_FIGURES_FIELD = 'report_figures';

/** What {@link advancedReportFigures} draws from: an analysis of `analyzeImageAuthenticity` (a fused map when it has one). */
export interface ReportableAnalysis {
  kernels: readonly KernelOutcome[];
  /** The fused localisation map, when the analysis makes one: a float map or a ready report map. @default none */
  fused?: ForensicMap | ReportMapInput;
}

function isForensicMap(value: unknown): value is ForensicMap {
  const m = value as ForensicMap | null;
  return typeof m === 'object' && m !== null && m.data instanceof Float32Array && typeof m.width === 'number' && typeof m.cellSize === 'number';
}

function overallOf(fused: ReportableAnalysis['fused']): ReportMapInput | undefined {
  if (fused === undefined) return undefined;
  if (!isForensicMap(fused)) return fused;
  return {
    name: 'Fused map',
    detail: `${fused.name}, ${fused.width}x${fused.height} cells of ${fused.cellSize} px`,
    map: fused,
    scaleLabel: fused.name,
  };
}

/**
 * The figures of the HTML report of an advanced analysis: the image as the kernels read it, every kernel's maps (with
 * the ones a new kernel brings) and the fused map when the analysis has one. Plain JSON, so an analysis worker can
 * send them to the node that answers.
 */
export async function advancedReportFigures(bytes: Uint8Array, analysis: ReportableAnalysis): Promise<ReportFigures> {
  const overall = overallOf(analysis.fused);
  return reportFigures({ image: bytes, maps: kernelReportMaps(analysis.kernels), ...(overall ? { overall } : {}) });
}

const MAX_ROWS = 400;
const MAX_VALUE = 600;

function shown(value: unknown): string {
  if (value instanceof Uint8Array) return `(${value.length} bytes)`;
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE)}... (${text.length} characters)` : text;
}

/** Nested metadata as `a.b[2].c` / value rows: arrays of plain values on one row, long values cut, at most 400 rows. */
export function metadataRows(value: unknown, prefix = ''): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  let omitted = 0;
  const walk = (v: unknown, path: string, depth: number): void => {
    if (rows.length >= MAX_ROWS) { omitted++; return; }
    const plainArray = Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object');
    if (v !== null && typeof v === 'object' && !(v instanceof Uint8Array) && !plainArray && depth < 8) {
      const entries = Array.isArray(v) ? v.map((x, i) => [`[${i}]`, x] as const) : Object.entries(v).map(([k, x]) => [k, x] as const);
      if (entries.length === 0) { rows.push([path || '(empty)', Array.isArray(v) ? '[]' : '{}']); return; }
      for (const [k, x] of entries) walk(x, k.startsWith('[') ? `${path}${k}` : path ? `${path}.${k}` : k, depth + 1);
      return;
    }
    rows.push([path || '(value)', plainArray ? (v as unknown[]).map(shown).join(', ') : shown(v)]);
  };
  walk(value, prefix, 0);
  if (omitted) rows.push(['...', `${omitted} more fields (see the JSON result)`]);
  return rows;
}

/** The advanced result's fields the page reads (the API's result, with or without the credit fields). */
interface AdvancedResultFields {
  title?: unknown; tags?: unknown; label?: unknown; confidence?: unknown; authenticity?: unknown; conclusion?: unknown;
  analysis?: unknown; tools_used_analysis?: unknown; cost?: unknown; balance?: unknown;
}

const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);

/**
 * The HTML report of an advanced analysis: the decision as the analysis gives it (authenticity, label, confidence,
 * conclusion), the image and the maps of `figures`, each tool's finding, the metadata (technical, EXIF/XMP/IPTC,
 * C2PA, AI signals), the full analysis text and the JSON result. `generated` dates the page.
 */
export function advancedReportHtml(result: AdvancedResultFields & Record<string, unknown>, figures: ReportFigures, generated = new Date()): string {
  const tools = Array.isArray(result.tools_used_analysis) ? (result.tools_used_analysis as Array<{ id?: unknown; analysis?: unknown; result?: unknown }>) : [];
  const metadata = (tools.find((t) => t.id === 'extract_metadata')?.result ?? {}) as Record<string, unknown>;
  const technical = (metadata.metadata ?? {}) as Record<string, unknown>;
  const authenticity = str(result.authenticity, 'Unknown');
  const credits = [
    typeof result.cost === 'number' ? `Cost: ${result.cost} credits` : '',
    typeof result.balance === 'number' ? `balance after the charge: ${result.balance} credits` : '',
  ].filter(Boolean).join('; ');
  const { [REPORT_FIGURES_FIELD]: _figures, ...json } = result;
  const table = (rows: Array<[string, string]>): Pick<ReportSection, 'table' | 'paragraphs'> =>
    (rows.length === 1 && /^\{\}$|^\[\]$/.test(rows[0]![1]) ? { paragraphs: ['None in this file.'] } : { table: rows });
  const sections: ReportSection[] = [
    { heading: 'Findings per tool', items: tools.map((t) => ({ term: str(t.id, '?'), text: str(t.analysis) })) },
    { heading: 'Image metadata', table: metadataRows({ mime_type: metadata.mime_type, ...technical }) },
    { heading: 'EXIF, XMP and IPTC', ...table(metadataRows(metadata.exif ?? {})) },
    { heading: 'Content credentials (C2PA)', ...table(metadataRows(metadata.c2pa ?? {})) },
    {
      heading: 'AI generation signals',
      table: [['ai_watermark_detected', String(metadata.ai_watermark_detected ?? false)], ...metadataRows(metadata.ai_watermark_issuers ?? {}, 'ai_watermark_issuers')],
    },
    ...(Array.isArray(metadata.errors) && metadata.errors.length ? [{ heading: 'Metadata read errors', table: metadataRows(metadata.errors) }] : []),
    { heading: 'Full analysis', preformatted: str(result.analysis), folded: true },
    { heading: 'JSON result', preformatted: JSON.stringify(json, null, 2), folded: true },
  ];
  return reportHtml({
    title: str(result.title, 'Image'),
    subtitle: `Advanced image detection, generated ${generated.toISOString().replace('T', ' ').slice(0, 16)} UTC`,
    tags: Array.isArray(result.tags) ? result.tags.map((t) => String(t)) : [],
    verdict: {
      headline: authenticity,
      tone: authenticity === 'Manipulated' ? 'alert' : authenticity === 'Authentic' ? 'ok' : 'neutral',
      summary: str(result.conclusion),
      facts: [
        { label: 'Authenticity', value: authenticity },
        { label: 'Label', value: str(result.label, 'n/a') },
        { label: 'Confidence', value: str(result.confidence, 'n/a') },
        ...(typeof result.cost === 'number' ? [{ label: 'Cost', value: `${result.cost} credits` }] : []),
        ...(typeof result.balance === 'number' ? [{ label: 'Balance', value: `${result.balance} credits` }] : []),
      ],
    },
    figures,
    mapsIntro:
      'Each heat map covers the image; every method has its own colour scale and range, printed under it (bright = ' +
      "high values; values beyond a scale's ends take the end colours). A method's score is its per-image anomaly " +
      'score: 0 = nothing anomalous, 1 = strongly anomalous.',
    imageCaption:
      `${str(metadata.mime_type, 'image')}, ${figures.image.width}x${figures.image.height} pixels, as stored ` +
      '(EXIF orientation not applied: the maps are on the same pixel grid).',
    sections,
    footer: [
      ...(credits ? [`${credits}.`] : []),
      'Made by content-analysis. Self-contained page: every image is embedded, no script runs and nothing is fetched.',
      'A heat map shows where a method measured unusual values; it is evidence to weigh, not a verdict by itself.',
    ],
  });
}

/** Whether a result carries report figures (it was asked with `report: "html"`). */
export function hasReportFigures(result: Record<string, unknown>): result is Record<string, unknown> & { report_figures: ReportFigures } {
  const f = result[REPORT_FIGURES_FIELD] as ReportFigures | undefined;
  return typeof f === 'object' && f !== null && typeof f.image?.src === 'string' && Array.isArray(f.maps);
}
