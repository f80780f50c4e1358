import { sharp } from '../runtime/lazySharp.js';
import { InvalidInputError } from '../errors.js';
import { enlargeToSide, normalisedSquare } from './prepare.js';
import type { RawRgb } from './prepare.js';

/**
 * The view the artefact features of model versions 6 and 7 read: the centre 512 x 512 square of the image at its own
 * resolution (256 x 256 for images whose shorter side is below 512; images under 256 px are enlarged to it), through
 * a JPEG quality 90, 4:2:0 round trip so that PNG and JPEG inputs share one last compression. Nothing is reduced:
 * reducing a 12 MP camera photo to 512 px averages its sensor noise away and leaves a clean picture that looks like a
 * generator's (a first model on the reduced view of the earlier versions flagged 54% of the camera originals left out
 * of its training, against 29% on this one); generators' own traces are also strongest at their native resolution.
 * Co-occurrence statistics need many residuals, hence the large square; its tiles are split into texture-rich and
 * texture-poor halves (artefactFeatures.ts).
 */
export interface ArtefactViewSpec {
  /** Larger images are reduced until their shorter side is this; `Infinity` (versions 6 and 7): never reduced. */
  maxSide: number;
  /** Side of the centre square when the image allows (else 256). */
  crop: number;
  /** JPEG quality of the normalising round trip. */
  jpegQuality: number;
}

export const ARTEFACT_VIEW: ArtefactViewSpec = { maxSide: Infinity, crop: 512, jpegQuality: 90 };

/** Crop side used when the shorter side is below `crop`; smaller images are enlarged to it. */
const SMALL_CROP = 256;

/** A square luma plane: `size` x `size` values in 0..255, row-major. */
export interface LumaView {
  size: number;
  y: Float32Array;
}

/**
 * Decodes an image and returns the luma of its centre square as {@link ArtefactViewSpec} describes (`spec` other
 * than the default only for experiments: the shipped model was trained on {@link ARTEFACT_VIEW}).
 *
 * @throws InvalidInputError on `image` when sharp cannot decode the bytes.
 */
export async function prepareArtefactView(image: Uint8Array, spec: ArtefactViewSpec = ARTEFACT_VIEW): Promise<LumaView> {
  const fail = (error: unknown): never => {
    throw new InvalidInputError('image', 'a decodable JPEG, PNG, WebP, GIF, TIFF or AVIF image', image, { cause: error });
  };
  const input = () => sharp(image, { failOn: 'error', limitInputPixels: 268_402_689 });
  if (!Number.isFinite(spec.maxSide)) {
    // Native resolution: a large image's centre square is cut before decoding the rest into memory (the same pixels
    // as decoding everything and cutting afterwards, at a fraction of the memory of a 12 MP picture).
    const meta = await input().metadata().catch(fail);
    const { width, height } = meta.autoOrient ?? meta;
    if (width !== undefined && height !== undefined && Math.min(width, height) >= spec.crop) {
      const size = spec.crop;
      const rgb = await input()
        .rotate()
        .extract({ left: (width - size) >> 1, top: (height - size) >> 1, width: size, height: size })
        .flatten({ background: '#ffffff' })
        .toColourspace('srgb')
        .removeAlpha()
        .raw()
        .toBuffer()
        .catch(fail);
      return lumaView({ data: rgb, width: size, height: size }, size, spec.jpegQuality);
    }
  }
  let decoded: RawRgb;
  try {
    const pipeline = input().rotate().flatten({ background: '#ffffff' }).toColourspace('srgb');
    if (Number.isFinite(spec.maxSide)) {
      pipeline.resize({ width: spec.maxSide, height: spec.maxSide, fit: 'outside', withoutEnlargement: true, kernel: 'lanczos3' });
    }
    const { data, info } = await pipeline.removeAlpha().raw().toBuffer({ resolveWithObject: true });
    decoded = { data, width: info.width, height: info.height };
  } catch (error) {
    return fail(error);
  }
  const pixels = await enlargeToSide(decoded, SMALL_CROP);
  return lumaView(pixels, Math.min(pixels.width, pixels.height) >= spec.crop ? spec.crop : SMALL_CROP, spec.jpegQuality);
}

/** The luma of the centre `size` square after the normalising JPEG round trip. */
async function lumaView(image: RawRgb, size: number, quality: number): Promise<LumaView> {
  const rgb = await normalisedSquare(image, (image.width - size) >> 1, (image.height - size) >> 1, size, quality);
  return { size, y: lumaOf(rgb, size * size) };
}

/** ITU-R BT.601 luma of interleaved 8-bit RGB. */
function lumaOf(rgb: Uint8Array, count: number): Float32Array {
  const y = new Float32Array(count);
  for (let i = 0; i < count; i++) y[i] = 0.299 * rgb[3 * i]! + 0.587 * rgb[3 * i + 1]! + 0.114 * rgb[3 * i + 2]!;
  return y;
}
