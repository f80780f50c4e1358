import type { KernelId } from '../registry.js';

/** A logistic fusion of standardised kernel maps (`fuseMaps`) and the image-level threshold taken from it. */
export interface FusionModel {
  /** Weight per kernel of its standardised, pooled map. */
  weights: Partial<Record<KernelId, number>>;
  bias: number;
  /** Half-width in 8x8 cells of the window each standardised map is averaged over before weighting. */
  radius: number;
  /** Share of the fused map's highest cells averaged into the image-level score. */
  topShare: number;
  /** Image-level score at and above which the image is called manipulated. */
  threshold: number;
  /** Where the numbers come from. */
  provenance: string;
}

/**
 * Fitted by `node scripts/forensics/fit-fusion.mjs` (class-balanced logistic regression with L2 0.01 on every 8x8
 * cell of the 9 copy-move (Sp_S) tampered images of forgery-casia1-samples; radius chosen there by mean pixel AUC;
 * threshold: just above the highest score of their 9 originals, so that none of those is called manipulated; it flags
 * 1 of the 9 tampered images there: precision first, since the image-level scores barely separate).
 * The 9 splicing (Sp_D) images and their originals took no part: they are the held-out half the README reports on.
 */
export const FUSION_MODEL: FusionModel = {
  weights: {
    ela: 0.3671, 'wavelet-noise': 0.3949, 'median-residual': 0.0693, 'cfa-variance': -0.6947, 'cfa-reinterpolation': -0.6084,
    'edge-anomaly': 0.7588, 'dq-aligned': 0.6822, 'dq-nonaligned': 0, 'jpeg-grid': -0.6116, 'jpeg-ghost': 0.5963,
  },
  bias: -1.8374,
  radius: 3,
  topShare: 0.05,
  threshold: 0.9353,
  provenance: 'scripts/forensics/fit-fusion.mjs on forgery-casia1-samples Sp_S (9 tampered, 9 originals), 2026-11-27',
};
