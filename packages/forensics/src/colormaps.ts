/**
 * Perceptually uniform colour maps of matplotlib (van der Walt and Smith 2015, "viridis", "inferno"), evaluated from
 * degree-6 polynomial fits per channel by Matt Zucker (2019, shadertoy.com/view/WlfXRN, CC0), and tabulated to 256
 * RGB entries. The test compares entries with matplotlib's published tables.
 */
const FITS = {
  viridis: [
    [0.2777273272234177, 0.005407344544966578, 0.3340998053353061],
    [0.1050930431085774, 1.404613529898575, 1.384590162594685],
    [-0.3308618287255563, 0.214847559468213, 0.09509516302823659],
    [-4.634230498983486, -5.799100973351585, -19.33244095627987],
    [6.228269936347081, 14.17993336680509, 56.69055260068105],
    [4.776384997670288, -13.74514537774601, -65.35303263337234],
    [-5.435455855934631, 4.645852612178535, 26.3124352495832],
  ],
  inferno: [
    [0.0002189403691192265, 0.001651004631001012, -0.01948089843709184],
    [0.1065134194856116, 0.5639564367884091, 3.932712388889277],
    [11.60249308247187, -3.972853965665698, -15.9423941062914],
    [-41.70399613139459, 17.43639888205313, 44.35414519872813],
    [77.162935699427, -33.40235894210092, -81.80730925738993],
    [-71.31942824499214, 32.62606426397723, 73.20951985803202],
    [25.13112622477341, -12.24266895238567, -23.07032500287172],
  ],
} as const;

export type ColormapName = keyof typeof FITS;
export const COLORMAP_NAMES: readonly ColormapName[] = ['viridis', 'inferno'];

const tables = new Map<ColormapName, Uint8Array>();

/** 256 x RGB table of the colour map (entry i for t = i / 255). */
export function colormapTable(name: ColormapName): Uint8Array {
  let table = tables.get(name);
  if (table) return table;
  const c = FITS[name];
  table = new Uint8Array(256 * 3);
  for (let i = 0; i < 256; i++) {
    const t = i / 255;
    for (let ch = 0; ch < 3; ch++) {
      let v = 0;
      for (let k = 6; k >= 0; k--) v = v * t + c[k]![ch]!;
      table[i * 3 + ch] = Math.round(255 * Math.min(1, Math.max(0, v)));
    }
  }
  tables.set(name, table);
  return table;
}
