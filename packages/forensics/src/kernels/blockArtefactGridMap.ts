import { dominantPhase, gridEvidenceOfPixels } from '../jpeg/jpegGrid.js';
import { largestOutlierRegion } from '../internal/outlierRegion.js';
import type { KernelResult, PixelBuffer } from '../types.js';
import { expectIntegerInRange, expectMinimumSize, expectPixelBuffer } from '../validate.js';

export interface BlockArtefactGridOptions {
  /**
   * Half-width, in 8x8 cells, of the window over which each cell's grid evidence is pooled.
   * @default 2
   */
  radius?: number;
}

export const blockArtefactGridDefaults: Readonly<Required<BlockArtefactGridOptions>> = Object.freeze({ radius: 2 });

/** Box sums of per-cell, per-phase evidence over (2r + 1)^2 cells, via one summed-area table per phase. */
function windowSums(evidence: Float32Array, cellsX: number, cellsY: number, r: number): Float64Array {
  const W = cellsX + 1;
  const sat = new Float64Array(W * (cellsY + 1) * 8);
  for (let y = 0; y < cellsY; y++) {
    for (let x = 0; x < cellsX; x++) {
      for (let p = 0; p < 8; p++) {
        const i = ((y + 1) * W + x + 1) * 8 + p;
        sat[i] = evidence[(y * cellsX + x) * 8 + p]! + sat[i - 8]! + sat[i - W * 8]! - sat[i - W * 8 - 8]!;
      }
    }
  }
  const out = new Float64Array(cellsX * cellsY * 8);
  for (let y = 0; y < cellsY; y++) {
    const y0 = Math.max(0, y - r), y1 = Math.min(cellsY, y + r + 1);
    for (let x = 0; x < cellsX; x++) {
      const x0 = Math.max(0, x - r), x1 = Math.min(cellsX, x + r + 1);
      for (let p = 0; p < 8; p++) {
        out[(y * cellsX + x) * 8 + p] = sat[(y1 * W + x1) * 8 + p]! - sat[(y0 * W + x1) * 8 + p]! - sat[(y1 * W + x0) * 8 + p]! + sat[(y0 * W + x0) * 8 + p]!;
      }
    }
  }
  return out;
}

/**
 * How much the local blocking grid departs from the image's: per cell, (strongest other phase - the image's phase)
 * over the mean phase evidence of the window (floored at half the image's mean per window, so flat areas stay near
 * 0), averaged over columns and rows. Positive where another grid is stronger (a pasted, shifted JPEG) or the
 * image's grid is missing; negative where the image's grid is clear.
 */
function misalignment(sums: Float64Array, cells: number, phase: number, floor: number, out: Float32Array): void {
  for (let i = 0; i < cells; i++) {
    let total = 0, other = 0;
    for (let p = 0; p < 8; p++) {
      const s = sums[i * 8 + p]!;
      total += s;
      if (p !== phase && s > other) other = s;
    }
    out[i]! += (0.5 * (other - sums[i * 8 + phase]!)) / Math.max(total / 8, floor);
  }
}

/**
 * JPEG grid misalignment map after the block artefact grid of Li, Yuan and Yu 2009 (Signal Processing 89(9)
 * 1821-1829): blocking steps per cell and grid phase (`gridEvidence`), the image's grid from the whole image, and per
 * 8x8 cell how strongly a window around it prefers another grid or lacks one. Map `grid-misalignment` (cell 8);
 * score: largest 4-connected region of cells with robust z > 2 as a fraction of the cells.
 */
export function blockArtefactGridMap(image: PixelBuffer, options: BlockArtefactGridOptions = {}): KernelResult {
  expectPixelBuffer('image', image);
  expectMinimumSize('image', image, 16);
  const o = { ...blockArtefactGridDefaults, ...options };
  expectIntegerInRange('radius', o.radius, 0, 64);
  const { width, height } = image;
  const ev = gridEvidenceOfPixels(image);
  const cells = ev.cellsX * ev.cellsY;
  const window = (2 * o.radius + 1) ** 2;
  const map = new Float32Array(cells);
  const stats: Record<string, number> = {};
  for (const [name, evidence] of [['X', ev.columns], ['Y', ev.rows]] as const) {
    const { phase, contrast, totals } = dominantPhase(evidence);
    const floor = (0.5 * window * totals.reduce((s, v) => s + v, 0)) / 8 / cells;
    misalignment(windowSums(evidence, ev.cellsX, ev.cellsY, o.radius), cells, phase, Math.max(floor, 1e-6), map);
    stats[`offset${name}`] = phase;
    stats[`gridContrast${name}`] = contrast;
  }
  const score = largestOutlierRegion(map, ev.cellsX, ev.cellsY, 2, false, 0.05);
  return { maps: [{ name: 'grid-misalignment', data: map, width: ev.cellsX, height: ev.cellsY, cellSize: 8, displayRange: [-1, 1] }], stats, score };
}
