/** Interleaved pixels, row-major, `channels` samples per pixel. Uint8 samples are 0..255; Float32 samples use the same scale. */
export interface PixelBuffer {
  data: Float32Array | Uint8Array;
  width: number;
  height: number;
  channels: number;
}

/** A single-channel map over the image. One cell covers `cellSize` x `cellSize` pixels (1 for per-pixel maps). */
export interface ForensicMap {
  /** What the map holds, e.g. `ela`, `noise-sigma`, `tamper-probability`. */
  name: string;
  data: Float32Array;
  width: number;
  height: number;
  /** Pixels per map cell along each axis; 0 for maps that are not over the image plane (spectra). */
  cellSize: number;
  /** Values a renderer should map to the two ends of the colour scale. */
  displayRange: [number, number];
}

/** What every kernel returns: its maps, named scalar statistics, and a per-image anomaly score in [0, 1]. */
export interface KernelResult {
  maps: ForensicMap[];
  stats: Record<string, number>;
  /** 0 = nothing anomalous, 1 = strongly anomalous; each kernel's README section gives its formula. */
  score: number;
}
