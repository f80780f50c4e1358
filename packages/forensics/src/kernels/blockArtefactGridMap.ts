import { gridEvidenceOfPixels, phaseOfTotals } from '../jpeg/jpegGrid.js';
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

/**
 * The summed-area table of per-cell, per-phase evidence ((cellsY + 1) x (cellsX + 1) x 8, a zero row and column
 * first), and the image-wide evidence per phase, summed in the evidence's own order (what `dominantPhase` sums).
 */
function summedAreas(evidence: Float32Array, cellsX: number, cellsY: number): { sat: Float64Array; totals: Float64Array } {
  const W8 = (cellsX + 1) * 8;
  const sat = new Float64Array(W8 * (cellsY + 1));
  const totals = new Float64Array(8);
  for (let y = 0, e = 0; y < cellsY; y++) {
    // i: this cell's phase 0 in the table; the cell to the left is 8 before, the one above W8 before.
    for (let x = 0, i = (y + 1) * W8 + 8; x < cellsX; x++) {
      for (let p = 0; p < 8; p++, i++, e++) {
        const v = evidence[e]!;
        totals[p]! += v;
        sat[i] = v + sat[i - 8]! + sat[i - W8]! - sat[i - W8 - 8]!;
      }
    }
  }
  return { sat, totals };
}

/**
 * How much the local blocking grid departs from the image's: per cell, the evidence of each phase summed over the
 * (2r + 1)^2 cells around it (clipped at the borders) from the summed-area table, then (strongest other phase - the
 * image's phase) over the mean phase evidence of the window (floored at half the image's mean per window, so flat
 * areas stay near 0), added to `out` (columns and rows are averaged there). Positive where another grid is stronger
 * (a pasted, shifted JPEG) or the image's grid is missing; negative where the image's grid is clear.
 */
function misalignment(sat: Float64Array, cellsX: number, cellsY: number, r: number, phase: number, floor: number, out: Float32Array): void {
  const W8 = (cellsX + 1) * 8;
  for (let y = 0; y < cellsY; y++) {
    const y0 = Math.max(0, y - r) * W8, y1 = Math.min(cellsY, y + r + 1) * W8;
    for (let x = 0; x < cellsX; x++) {
      const x0 = Math.max(0, x - r) * 8, x1 = Math.min(cellsX, x + r + 1) * 8;
      let total = 0, other = 0, own = 0;
      for (let p = 0; p < 8; p++) {
        const s = sat[y1 + x1 + p]! - sat[y0 + x1 + p]! - sat[y1 + x0 + p]! + sat[y0 + x0 + p]!;
        total += s;
        if (p === phase) own = s;
        else if (s > other) other = s;
      }
      out[y * cellsX + x]! += (0.5 * (other - own)) / Math.max(total / 8, floor);
    }
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
    const { sat, totals: sums } = summedAreas(evidence, ev.cellsX, ev.cellsY);
    const { phase, contrast, totals } = phaseOfTotals(sums);
    const floor = (0.5 * window * totals.reduce((s, v) => s + v, 0)) / 8 / cells;
    misalignment(sat, ev.cellsX, ev.cellsY, o.radius, phase, Math.max(floor, 1e-6), map);
    stats[`offset${name}`] = phase;
    stats[`gridContrast${name}`] = contrast;
  }
  const score = largestOutlierRegion(map, ev.cellsX, ev.cellsY, 2, false, 0.05);
  return { maps: [{ name: 'grid-misalignment', data: map, width: ev.cellsX, height: ev.cellsY, cellSize: 8, displayRange: [-1, 1] }], stats, score };
}
