import { recompressBandRows, recompressJpeg, recompressPlan } from './decodeImage.js';
import type { RecompressJpegOptions } from './decodeImage.js';
import { recycledFloat32 } from './internal/recycledMemory.js';
import { errorLevelAnalysis, errorLevelBand, errorLevelFromBands, errorLevelOptions, errorLevelsExact } from './kernels/errorLevelAnalysis.js';
import type { ErrorLevelAnalysisOptions, ErrorLevelBand } from './kernels/errorLevelAnalysis.js';
import type { KernelResult, PixelBuffer } from './types.js';

/**
 * `errorLevelAnalysis(image, await recompressJpeg(image, roundTrip), options)`, the same result, without the round
 * trip's pixels ever joined into one image: each of `recompressJpeg`'s row bands is compared with the image as soon
 * as sharp hands it back (while the other bands are still in sharp's threads), its rows of the map written in place.
 * What this saves is what the two calls do beyond the codecs: a shared buffer of the whole round trip (page faults
 * and a copy of every byte) and a pass over both images after the last band. The bands merge exactly
 * (`errorLevelFromBands`): they start on rows that are multiples of 16, so on block rows for the usual block sizes.
 * Other block sizes, single-band images and float pixels take the two calls.
 *
 * With `recycle`, the banded path's `ela` map is in shared memory that is used again for a later map once nothing of
 * this thread refers to it any more (`recycledFloat32`: no fresh pages to fault in, about 12k of them at 12 MP): only
 * for a caller that keeps a reference on this thread for as long as any other thread reads the map (or posts a copy).
 * Without it (the default) the map is a plain buffer of its own.
 */
export async function errorLevelRoundTrip(image: PixelBuffer, options: ErrorLevelAnalysisOptions = {}, roundTrip: RecompressJpegOptions = {}, recycle = false): Promise<KernelResult> {
  const plan = recompressPlan(image, roundTrip);
  const o = errorLevelOptions(image, image, options);
  if (plan.bands.length <= 1 || plan.bands.some((band) => band.y0 % o.blockSize !== 0) || !errorLevelsExact(image, image, o)) {
    return errorLevelAnalysis(image, await recompressJpeg(image, roundTrip), options);
  }
  const { width, channels } = image;
  const row = width * channels;
  const original = image.data as Uint8Array;
  let map: Float32Array | undefined;
  const parts = await Promise.all(plan.bands.map(async (band): Promise<ErrorLevelBand> => {
    const rows = band.y1 - band.y0;
    const recompressed = await recompressBandRows(image, plan.quality, band);
    // Taken when the first band is back, not before the round trips: by then the collector has more often taken a map
    // dropped just before this call, whose memory this one then reuses. Every element is written by the bands (they
    // cover the rows), so a recycled buffer needs no clearing.
    map ??= recycle ? recycledFloat32(width * image.height) : new Float32Array(width * image.height);
    const own: PixelBuffer = { data: original.subarray(band.y0 * row, band.y1 * row), width, height: rows, channels };
    return errorLevelBand(own, { data: recompressed, width, height: rows, channels }, o, 0, Math.ceil(rows / o.blockSize), map.subarray(band.y0 * width, band.y1 * width));
  }));
  return errorLevelFromBands(image, parts, o, map!);
}
