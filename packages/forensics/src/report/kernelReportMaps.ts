import type { KernelOutcome } from '../analyzeImage.js';
import { kernelRegistry } from '../registry.js';
import type { ForensicMap } from '../types.js';
import type { ReportMapInput } from './reportFigures.js';

interface MethodLabels {
  title: string;
  /** The map drawn in the main grid; the kernel's other maps go among the further maps. */
  primary: string;
  /** What each map's values are, for its colour scale. */
  scales: Record<string, string>;
}

/** Titles and colour-scale labels of the kernels this package ships; any other kernel is shown under its ids. */
const METHOD_LABELS: Record<string, MethodLabels> = {
  ela: {
    title: 'Error level analysis',
    primary: 'ela',
    scales: {
      ela: 'error level: scaled mean RGB difference to a JPEG re-save',
      'ela-block-mean': 'mean error level of the block',
    },
  },
  'wavelet-noise': {
    title: 'Wavelet noise (NOI1)',
    primary: 'noise-sigma',
    scales: { 'noise-sigma': 'noise sigma of the block: median |HH1| / 0.6745 (grey levels)' },
  },
  'median-residual': {
    title: 'Median-filter residual',
    primary: 'median-residual-block-mean',
    scales: {
      'median-residual-block-mean': 'mean |luma - 3x3 median| of the block (grey levels)',
      'median-residual': '|luma - 3x3 median| (grey levels)',
    },
  },
  'cfa-variance': {
    title: 'Demosaicing traces (CFA1)',
    primary: 'no-cfa-probability',
    scales: {
      'no-cfa-probability': 'probability that the block lacks a demosaicing trace',
      'cfa-feature': 'log ratio of acquired to interpolated green variance',
    },
  },
  'cfa-reinterpolation': {
    title: 'CFA re-interpolation (CFA2)',
    primary: 'cfa-layout-preference',
    scales: {
      'cfa-layout-preference': 'green error share of the best Bayer layout (0 = trace intact, 0.25 = none)',
      'cfa-green-error-share': 'green share of the re-interpolation error, eG / (eR + eG + eB)',
    },
  },
  'edge-anomaly': {
    title: 'Edge anomaly',
    primary: 'edge-anomaly',
    scales: {
      'edge-anomaly': 'larger robust |z| of edge sharpness and JPEG blocking against the neighbourhood',
      'edge-strength': 'mean Sobel edge strength',
      'sharpness-inconsistency': 'robust |z| of edge sharpness against the neighbourhood',
      'blocking-inconsistency': 'robust |z| of JPEG blocking against the neighbourhood',
    },
  },
  'dq-aligned': {
    title: 'Aligned double quantisation',
    primary: 'adq-single-probability',
    scales: { 'adq-single-probability': 'probability that the block was JPEG-compressed once (Bianchi and Piva 2012)' },
  },
  'dq-nonaligned': {
    title: 'Non-aligned double quantisation',
    primary: 'nadq-absent-probability',
    scales: { 'nadq-absent-probability': 'probability that the block lacks the first compression\'s shifted grid' },
  },
  'jpeg-grid': {
    title: 'JPEG grid (block artefact grid)',
    primary: 'grid-misalignment',
    scales: { 'grid-misalignment': 'how much another 8x8 grid phase dominates locally (Li, Yuan and Yu 2009)' },
  },
  'jpeg-ghost': {
    title: 'JPEG ghosts',
    primary: 'ghost-dip',
    scales: { 'ghost-dip': 'largest dip below the image\'s requantisation curve (Farid 2009)' },
  },
};

function cells(map: ForensicMap): string {
  return map.cellSize === 1 ? `${map.width}x${map.height} pixels` : `${map.width}x${map.height} blocks of ${map.cellSize} px`;
}

/**
 * The maps of an analysis as report panels: per kernel its main map in the grid (each with its own range and colour
 * scale), its other maps among the further maps, and a kernel that failed as a panel saying why. Kernels this
 * function does not know (a new method) are shown under their ids with their first map as the main one; maps not
 * over the image plane (the spectrum) are left out.
 */
export function kernelReportMaps(kernels: readonly KernelOutcome[]): ReportMapInput[] {
  const primary: ReportMapInput[] = [];
  const further: ReportMapInput[] = [];
  for (const outcome of kernels) {
    const labels = METHOD_LABELS[outcome.id];
    const title = labels?.title ?? outcome.id;
    const tool = (kernelRegistry as Record<string, { tool?: string } | undefined>)[outcome.id]?.tool;
    const ids = tool ? `${tool} · ${outcome.id}` : outcome.id;
    if (outcome.state === 'errored') {
      primary.push({ name: title, detail: ids, error: `${outcome.error.message} (${outcome.error.code})` });
      continue;
    }
    const maps = outcome.result.maps.filter((m) => m.cellSize > 0);
    const main = maps.find((m) => m.name === labels?.primary) ?? maps[0];
    for (const map of maps) {
      const isMain = map === main;
      const entry: ReportMapInput = {
        name: isMain ? title : `${title}: ${map.name}`,
        detail: isMain ? ids : `${ids} · ${map.name}`,
        map,
        scaleLabel: labels?.scales[map.name] ?? map.name,
        note: isMain ? `Score ${outcome.result.score.toFixed(2)} · map ${map.name}, ${cells(map)}` : cells(map),
        ...(isMain ? { score: outcome.result.score } : { secondary: true }),
      };
      (isMain ? primary : further).push(entry);
    }
  }
  return [...primary, ...further];
}
