import { describe, expect, it } from 'vitest';
import { DB8_DECOMPOSITION_HIGH } from '../src/internal/db8.js';
import { StreamedDetail16, analyseColumns, analyseRows } from '../src/internal/dwt.js';
import { studioLuma } from '../src/internal/luma.js';
import { rng } from './synthetic.js';

// The wavelet noise streams HH1 through a ring of 16 row-filtered lines: it must equal the plain row pass then column
// pass over whole planes, including images shorter than the filter (reflections repeat rows) and odd sizes.
describe('StreamedDetail16', () => {
  for (const [width, height] of [[40, 9], [37, 16], [64, 33], [50, 71]] as const) {
    it(`equals analyseColumns(analyseRows(...)) on ${width}x${height}`, () => {
      const random = rng(width * height);
      const image = { data: Uint8Array.from({ length: width * height * 3 }, () => Math.floor(random() * 256)), width, height, channels: 3 };
      const f = DB8_DECOMPOSITION_HIGH;
      const keep = Math.floor((width + 15) / 2), outs = Math.floor((height + 15) / 2);
      for (const round of [true, false]) {
        const plane = studioLuma(image, round);
        const reference = analyseColumns(analyseRows(plane, width, height, f, keep), keep, height, f, outs);
        for (const luma of [undefined, plane]) {
          const streamed = new StreamedDetail16(image, round, f, keep, luma);
          const got = new Float32Array(keep * outs);
          for (let o = 0; o < outs; o++) streamed.detailRow(o, got, o * keep);
          expect(Array.from(got)).toEqual(Array.from(reference));
        }
      }
    });
  }
});
