import type { PixelBuffer } from '../types.js';
import { align16, wasmModule } from '../internal/wasm.js';
import type { WasmModule } from '../internal/wasm.js';

/**
 * Blocking-artefact evidence per 8x8 cell and grid phase, after the block artefact grid (BAG) of Li, Yuan and Yu
 * 2009, "Passive detection of doctored JPEG image via block artifact grid extraction", Signal Processing 89(9):
 * a step across a JPEG block boundary stands above the steps beside it. For the boundary between columns x and x + 1,
 * e = min(cap, max(0, |Y(x+1) - Y(x)| - (|Y(x) - Y(x-1)| + |Y(x+2) - Y(x+1)|) / 2)) is added to phase (x + 1) mod 8
 * of the cell holding x; the same down the rows. Edges are tamed by the cap (the paper uses a median filter).
 */
export interface GridEvidence {
  /** cellsX * cellsY * 8: horizontal (column) phase evidence per cell. */
  columns: Float32Array;
  /** cellsX * cellsY * 8: vertical (row) phase evidence per cell. */
  rows: Float32Array;
  cellsX: number;
  cellsY: number;
}

/** Steps above this (grey levels) are edges, not blocking: each counts at most this much. */
const STEP_CAP = 6;

export function gridEvidence(luma: Float32Array, width: number, height: number): GridEvidence {
  const cellsX = Math.ceil(width / 8), cellsY = Math.ceil(height / 8);
  const columns = new Float32Array(cellsX * cellsY * 8), rows = new Float32Array(cellsX * cellsY * 8);
  // Each step |Y(x+1) - Y(x)| is computed once and kept while the three boundaries that read it pass (the same
  // numbers as computing it each time, a third of the work).
  for (let y = 0; y < height; y++) {
    const r = y * width, cy = (y >> 3) * cellsX;
    if (width < 4) break;
    let before = Math.abs(luma[r + 1]! - luma[r]!), d = Math.abs(luma[r + 2]! - luma[r + 1]!);
    for (let x = 1; x + 2 < width; x++) {
      const after = Math.abs(luma[r + x + 2]! - luma[r + x + 1]!);
      const e = d - (before + after) / 2;
      if (e > 0) columns[(cy + (x >> 3)) * 8 + ((x + 1) & 7)]! += e < STEP_CAP ? e : STEP_CAP;
      before = d;
      d = after;
    }
  }
  if (height >= 4) {
    // Row steps |Y(y+1, x) - Y(y, x)| for the rows above, at and below each boundary, rotated down the image.
    let above = new Float64Array(width), at = new Float64Array(width), below = new Float64Array(width);
    for (let x = 0; x < width; x++) { above[x] = Math.abs(luma[width + x]! - luma[x]!); at[x] = Math.abs(luma[2 * width + x]! - luma[width + x]!); }
    for (let y = 1; y + 2 < height; y++) {
      const r = y * width, cy = (y >> 3) * cellsX, phase = (y + 1) & 7;
      for (let x = 0; x < width; x++) {
        const b = Math.abs(luma[r + 2 * width + x]! - luma[r + width + x]!);
        below[x] = b;
        const e = at[x]! - (above[x]! + b) / 2;
        if (e > 0) rows[(cy + (x >> 3)) * 8 + phase]! += e < STEP_CAP ? e : STEP_CAP;
      }
      const t = above;
      above = at;
      at = below;
      below = t;
    }
  }
  return { columns, rows, cellsX, cellsY };
}

/**
 * `gridEvidence(jpegLuma(image), ...)` without the luma plane: each row's luma is computed as the passes reach it (the
 * same float32 values as `jpegLuma`) into three rows kept in turn, and each evidence cell gets the same terms in the
 * same order (a column cell its rows top to bottom, a row cell its columns left to right), so the same evidence to the
 * bit, in one streaming pass over the pixels instead of a 4-byte-per-pixel plane written and read three times.
 */
export function gridEvidenceOfPixels(image: PixelBuffer): GridEvidence {
  const module = image.data instanceof Uint8Array && image.width * image.height >= WASM_MIN_PIXELS ? wasmModule('gridEvidence') : undefined;
  return module ? gridEvidenceWasm(module, image) : gridEvidenceOfPixelsJs(image);
}

/** Images below this many pixels take the JavaScript path (a module call's copies would outweigh its gain). */
const WASM_MIN_PIXELS = 65_536;
/** Rows of 8x8 cells per call of the module: a few megabytes of its memory at any image size. */
const CHUNK_CELL_ROWS = 16;

/** How often the WebAssembly evidence ran in this thread (tests check it did). */
export let wasmEvidenceCalls = 0;

/**
 * `gridEvidenceOfPixels` in WebAssembly (`assembly/gridEvidence.ts`), the very same evidence: chunks of CHUNK_CELL_ROWS
 * cell rows, each with its pixel rows and the one above and two below copied into the module's memory and its
 * evidence copied out (every evidence cell is summed within one chunk, in the JavaScript order).
 */
function gridEvidenceWasm(module: WasmModule, image: PixelBuffer): GridEvidence {
  const { width, height, channels } = image;
  const data = image.data as Uint8Array;
  const cellsX = Math.ceil(width / 8), cellsY = Math.ceil(height / 8);
  const columns = new Float32Array(cellsX * cellsY * 8), rows = new Float32Array(cellsX * cellsY * 8);
  const chunkCells = CHUNK_CELL_ROWS * cellsX * 8;
  const lumaArea = module.heapBase();
  const stepsArea = align16(lumaArea + 4 * 4 * width);
  const columnsArea = align16(stepsArea + 4 * 8 * width);
  const rowsArea = align16(columnsArea + 4 * chunkCells);
  const inputArea = align16(rowsArea + 4 * chunkCells);
  module.reserve(inputArea + (8 * CHUNK_CELL_ROWS + 3) * width * channels + 16);
  const evidence = module.function<(input: number, channels: number, width: number, height: number, first: number, rows: number, c0: number, c1: number, cellsX: number, luma: number, steps: number, columns: number, rowsOut: number) => void>('evidence');
  const buffer = module.memory.buffer, bytes = new Uint8Array(buffer), floats = new Float32Array(buffer);
  wasmEvidenceCalls++;
  for (let c0 = 0; c0 < cellsY; c0 += CHUNK_CELL_ROWS) {
    const c1 = Math.min(cellsY, c0 + CHUNK_CELL_ROWS);
    const first = Math.max(0, 8 * c0 - 1), last = Math.min(height, 8 * c1 + 2);
    bytes.set(data.subarray(first * width * channels, last * width * channels), inputArea);
    evidence(inputArea, channels, width, height, first, last - first, c0, c1, cellsX, lumaArea, stepsArea, columnsArea, rowsArea);
    const n = (c1 - c0) * cellsX * 8;
    columns.set(floats.subarray(columnsArea >> 2, (columnsArea >> 2) + n), c0 * cellsX * 8);
    rows.set(floats.subarray(rowsArea >> 2, (rowsArea >> 2) + n), c0 * cellsX * 8);
  }
  return { columns, rows, cellsX, cellsY };
}

/** `gridEvidenceOfPixels` in JavaScript (any pixels; small images). */
export function gridEvidenceOfPixelsJs(image: PixelBuffer): GridEvidence {
  const { width, height } = image;
  const cellsX = Math.ceil(width / 8), cellsY = Math.ceil(height / 8);
  const columns = new Float32Array(cellsX * cellsY * 8), rows = new Float32Array(cellsX * cellsY * 8);
  const ring = [new Float32Array(width), new Float32Array(width), new Float32Array(width)];
  let above = new Float64Array(width), at = new Float64Array(width);
  for (let y = 0; y < height; y++) {
    const luma = ring[y % 3]!;
    lumaRow(image, y, luma);
    if (width >= 4) columnSteps(luma, width, (y >> 3) * cellsX, columns);
    if (height < 4) continue;
    const previous = ring[(y + 2) % 3]!;
    if (y === 2) {
      const first = ring[0]!;
      for (let x = 0; x < width; x++) { above[x] = Math.abs(previous[x]! - first[x]!); at[x] = Math.abs(luma[x]! - previous[x]!); }
    } else if (y >= 3) {
      // The boundary below row y - 2: steps above (rows y-3, y-2), at (y-2, y-1) and below (y-1, y) it.
      const r = y - 2, cy = (r >> 3) * cellsX, phase = (r + 1) & 7;
      const below = above;
      for (let x = 0; x < width; x++) {
        const b = Math.abs(luma[x]! - previous[x]!);
        const e = at[x]! - (above[x]! + b) / 2;
        below[x] = b;
        if (e > 0) rows[(cy + (x >> 3)) * 8 + phase]! += e < STEP_CAP ? e : STEP_CAP;
      }
      above = at;
      at = below;
    }
  }
  return { columns, rows, cellsX, cellsY };
}

/** The column steps of one luma row into `columns` (`gridEvidence`'s first pass, for the row of cells at `cy`). */
function columnSteps(luma: Float32Array, width: number, cy: number, columns: Float32Array): void {
  let before = Math.abs(luma[1]! - luma[0]!), d = Math.abs(luma[2]! - luma[1]!);
  for (let x = 1; x + 2 < width; x++) {
    const after = Math.abs(luma[x + 2]! - luma[x + 1]!);
    const e = d - (before + after) / 2;
    if (e > 0) columns[(cy + (x >> 3)) * 8 + ((x + 1) & 7)]! += e < STEP_CAP ? e : STEP_CAP;
    before = d;
    d = after;
  }
}

/** Row y of `jpegLuma(image)` into `out`. */
function lumaRow(image: PixelBuffer, y: number, out: Float32Array): void {
  const { data, width, channels } = image;
  let p = y * width * channels;
  if (channels >= 3) for (let x = 0; x < width; x++, p += channels) out[x] = 0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]! - 128;
  else for (let x = 0; x < width; x++, p += channels) out[x] = data[p]! - 128;
}

/** Image-wide evidence per phase, the phase with most, and its contrast (best - median) / mean (0 = no grid). */
export function dominantPhase(evidence: Float32Array): { phase: number; contrast: number; totals: Float64Array } {
  const totals = new Float64Array(8);
  for (let i = 0; i < evidence.length; i++) totals[i & 7]! += evidence[i]!;
  return phaseOfTotals(totals);
}

/** `dominantPhase` of the image-wide evidence per phase `totals` (summed in the evidence's order). */
export function phaseOfTotals(totals: Float64Array): { phase: number; contrast: number; totals: Float64Array } {
  let phase = 0;
  for (let p = 1; p < 8; p++) if (totals[p]! > totals[phase]!) phase = p;
  const sorted = Array.from(totals).sort((a, b) => a - b);
  const mean = sorted.reduce((s, v) => s + v, 0) / 8;
  const median = (sorted[3]! + sorted[4]!) / 2;
  return { phase, contrast: mean > 0 ? (totals[phase]! - median) / mean : 0, totals };
}

/** Phase contrast below which no grid counts as found. */
const MIN_GRID_CONTRAST = 0.1;

/**
 * The JPEG grid origin (offsetX, offsetY in 0..7) of a luma plane from its blocking artefacts, and how clear it is.
 * A block starting at x means a boundary before x, so the offset is the dominant column phase.
 */
export function estimateJpegGrid(luma: Float32Array, width: number, height: number): { offsetX: number; offsetY: number; contrastX: number; contrastY: number; evidence: GridEvidence } {
  const evidence = gridEvidence(luma, width, height);
  const cx = dominantPhase(evidence.columns), cy = dominantPhase(evidence.rows);
  // Without a clear grid the image origin is the likeliest (an uncropped JPEG's).
  const phase = (p: { phase: number; contrast: number }) => (p.contrast >= MIN_GRID_CONTRAST ? p.phase : 0);
  return { offsetX: phase(cx), offsetY: phase(cy), contrastX: cx.contrast, contrastY: cy.contrast, evidence };
}
