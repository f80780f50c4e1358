/**
 * Daubechies scaling filter with 8 vanishing moments ("db8", 16 taps), normalised to sum sqrt(2): I. Daubechies,
 * Ten Lectures on Wavelets (SIAM 1992), section 6.1. Computed by spectral factorisation with
 * scripts/forensics/daubechies-filter.py (prints these digits).
 */
export const DB8_SCALING: readonly number[] = [
  0.054415842243147973, 0.3128715909145367, 0.67563073629773063, 0.58535468365439991, -0.015829105256740732,
  -0.28401554296203174, 0.00047248457385080429, 0.12874742662057506, -0.017369301001849868, -0.044088253930844867,
  0.013981027917414146, 0.0087460940474145682, -0.0048703529934568052, -0.00039174037337722157,
  0.00067544940645128892, -0.00011747678412489885,
];

/** Decomposition high-pass filter: g[k] = (-1)^(k+1) h[k] (quadrature mirror of the scaling filter). */
export const DB8_DECOMPOSITION_HIGH: Float64Array = Float64Array.from(DB8_SCALING, (h, k) => (k % 2 === 0 ? -h : h));
