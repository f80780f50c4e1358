import type { KernelOutcome } from '@content-analysis/forensics';
import type { ImageMetadataResult } from '@content-analysis/image-metadata';

/** One entry of `tools_used_analysis`. */
export interface ToolReport {
  id: 'classify_image' | 'extract_metadata' | 'ela_image' | 'residual_noise_maps' | 'edge_anomaly_heat_map' | 'cfa_pattern_analysis';
  analysis: string;
  result: Record<string, unknown>;
}

const pct = (x: number | undefined): string => `${Math.round((x ?? 0) * 1000) / 10}%`;
const num = (x: number | undefined, digits = 2): string => (x === undefined || !Number.isFinite(x) ? 'n/a' : String(Math.round(x * 10 ** digits) / 10 ** digits));

type Completed = Extract<KernelOutcome, { state: 'completed' }>;

/** A kernel's outcome without its pixel maps (those go to the CLI's heatmap files): score, statistics, map shapes. */
function kernelSummary(outcome: KernelOutcome): Record<string, unknown> {
  if (outcome.state === 'errored') return { kernel: outcome.id, version: outcome.version, error: outcome.error };
  return {
    kernel: outcome.id,
    version: outcome.version,
    score: outcome.result.score,
    stats: outcome.result.stats,
    maps: outcome.result.maps.map((m) => ({ name: m.name, width: m.width, height: m.height, cell_size: m.cellSize })),
    ms: Math.round(outcome.ms),
  };
}

function failed(outcome: KernelOutcome): string | undefined {
  return outcome.state === 'errored' ? `The ${outcome.id} kernel failed on this image (${outcome.error.message}).` : undefined;
}

function elaSentence(o: Completed, quality: number): string {
  const s = o.result.stats;
  return (
    `Error level analysis (the image re-saved as JPEG at quality ${quality}, per-pixel difference): mean error level ` +
    `${num(s.mean, 1)}, 99th percentile ${num(s.p99, 0)}; ${pct(s.outlierBlockFraction)} of the 16x16 blocks stand out ` +
    `from the rest of the image (anomaly score ${num(o.result.score)}).`
  );
}

function noiseSentence(wavelet: Completed | undefined, median: Completed | undefined): string {
  const parts: string[] = [];
  if (wavelet) {
    const s = wavelet.result.stats;
    parts.push(
      `Wavelet noise estimate per block (NOI1, Mahdian and Saic 2009): median sigma ${num(s.medianSigma)}, 99th percentile ` +
        `${num(s.p99Sigma)}; ${pct(s.inconsistentBlockFraction)} of blocks have noise inconsistent with the rest.`,
    );
  }
  if (median) {
    const s = median.result.stats;
    parts.push(
      `Median-filter residual: mean ${num(s.meanResidual)}; ${pct(s.inconsistentBlockFraction)} of blocks are inconsistent.`,
    );
  }
  return parts.join(' ');
}

function cfaSentence(variance: Completed | undefined, reinterpolation: Completed | undefined): string {
  const parts: string[] = [];
  if (variance) {
    parts.push(`Demosaicing traces (Ferrara et al. 2012 local-variance feature) are absent in ${pct(variance.result.stats.flaggedBlockFraction)} of blocks.`);
  }
  if (reinterpolation) {
    parts.push(`The re-interpolation test (Dirik and Memon 2009) finds no colour filter array pattern in ${pct(reinterpolation.result.stats.absentBlockFraction)} of textured blocks.`);
  }
  parts.push('Missing traces are expected after resizing or recompression and are not by themselves evidence of editing.');
  return parts.join(' ');
}

function edgeSentence(o: Completed): string {
  const s = o.result.stats;
  return (
    `Edge sharpness and JPEG blocking: ${pct(s.anomalousBlockFraction)} of blocks are inconsistent with the rest of the ` +
    `image (median edge strength ${num(s.medianEdgeStrength, 1)}, median blocking ${num(s.medianBlocking)}).`
  );
}

function metadataSentence(m: ImageMetadataResult): string {
  const parts = [`${m.mime_type}, ${m.metadata.width}x${m.metadata.height} pixels.`];
  const exif = m.exif as Record<string, unknown>;
  if (typeof exif.Make === 'string' || typeof exif.Model === 'string') {
    parts.push(`Camera EXIF: ${[exif.Make, exif.Model].filter((v) => typeof v === 'string').join(' ')}${typeof exif.DateTimeOriginal === 'string' ? `, taken ${exif.DateTimeOriginal}` : ''}.`);
  } else {
    parts.push('No camera EXIF.');
  }
  const c2pa = m.c2pa as Record<string, unknown>;
  const state = c2pa.validation_state;
  if (state === undefined) parts.push('No C2PA content credentials.');
  else if (state === 'valid') parts.push(`C2PA content credentials are present and valid${claimGenerator(c2pa)}.`);
  else if (state === 'unverified') parts.push('The C2PA manifest is stored remotely (cloud manifest) and was not fetched, so it is unverified.');
  else parts.push(`C2PA content credentials are present but INVALID (${validationCodes(c2pa).join(', ') || 'no code given'}).`);
  const issuers = Object.entries(m.ai_watermark_issuers);
  if (issuers.length === 0) parts.push('No AI generation signal (C2PA digital source type, IPTC/XMP digital source type, generator metadata, invisible watermark).');
  else parts.push(`AI generation signals: ${issuers.map(([issuer, v]) => `${issuer} (${v.strength}: ${v.signals.map((s) => s.signal).join(', ')})`).join('; ')}.`);
  return parts.join(' ');
}

function claimGenerator(c2pa: Record<string, unknown>): string {
  const active = c2pa.active_manifest as { claim_generator?: unknown } | undefined;
  return typeof active?.claim_generator === 'string' ? `, made by ${active.claim_generator}` : '';
}

/** Failure codes of an invalid C2PA store. */
export function validationCodes(c2pa: Record<string, unknown>): string[] {
  const status = c2pa.validation_status;
  return Array.isArray(status) ? status.map((s) => String((s as { code?: unknown }).code ?? s)) : [];
}

/** The `tools_used_analysis` entries of the metadata and forensic tools, each with its measured numbers. */
export function toolReports(metadata: ImageMetadataResult, kernels: KernelOutcome[], elaQuality: number): ToolReport[] {
  const byId = new Map(kernels.map((k) => [k.id, k]));
  const completed = (id: string) => {
    const k = byId.get(id as KernelOutcome['id']);
    return k?.state === 'completed' ? k : undefined;
  };
  const summaries = (...ids: string[]) => ({ kernels: ids.map((id) => byId.get(id as KernelOutcome['id'])).filter((k) => k !== undefined).map(kernelSummary) });
  const reports: ToolReport[] = [
    {
      id: 'extract_metadata',
      analysis: metadataSentence(metadata),
      result: {
        mime_type: metadata.mime_type,
        metadata: metadata.metadata,
        exif: metadata.exif,
        c2pa: metadata.c2pa,
        ai_watermark_detected: metadata.ai_watermark_detected,
        ai_watermark_issuers: metadata.ai_watermark_issuers,
        ...(metadata.errors.length ? { errors: metadata.errors } : {}),
      },
    },
  ];
  const ela = byId.get('ela');
  if (ela) reports.push({ id: 'ela_image', analysis: failed(ela) ?? elaSentence(ela as Completed, elaQuality), result: summaries('ela') });
  if (byId.has('wavelet-noise') || byId.has('median-residual')) {
    const sentence = noiseSentence(completed('wavelet-noise'), completed('median-residual'));
    reports.push({
      id: 'residual_noise_maps',
      analysis: sentence || (failed(byId.get('wavelet-noise')!) ?? 'The noise kernels failed on this image.'),
      result: summaries('wavelet-noise', 'median-residual'),
    });
  }
  const edge = byId.get('edge-anomaly');
  if (edge) reports.push({ id: 'edge_anomaly_heat_map', analysis: failed(edge) ?? edgeSentence(edge as Completed), result: summaries('edge-anomaly') });
  if (byId.has('cfa-variance') || byId.has('cfa-reinterpolation')) {
    reports.push({
      id: 'cfa_pattern_analysis',
      analysis: cfaSentence(completed('cfa-variance'), completed('cfa-reinterpolation')),
      result: summaries('cfa-variance', 'cfa-reinterpolation'),
    });
  }
  return reports;
}
