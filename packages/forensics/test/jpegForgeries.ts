import sharp from 'sharp';

/** Size of the synthetic forgeries and the 8-aligned tampered rectangle [x0, y0, x1, y1). */
export const W = 512, H = 384;
export const RECT: readonly [number, number, number, number] = [192, 128, 320, 256];

/** A textured RGB test image: two sinusoid layers per channel and uniform noise (a Laplacian-like DCT histogram). */
export function texturedImage(seed = 7): Uint8Array {
  let s = seed >>> 0;
  const random = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296;
  const out = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      for (let c = 0; c < 3; c++) {
        const v = 128 + 40 * Math.sin(x * 0.05 + c) * Math.cos(y * 0.03) + 25 * Math.sin((x + y) * 0.13 + c * 2) + (random() - 0.5) * 30;
        out[(y * W + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(v)));
      }
    }
  }
  return out;
}

export function jpeg(pixels: Uint8Array, quality: number, options: { width?: number; height?: number; progressive?: boolean } = {}): Promise<Buffer> {
  return sharp(Buffer.from(pixels), { raw: { width: options.width ?? W, height: options.height ?? H, channels: 3 } })
    .jpeg({ quality, progressive: options.progressive ?? false }).toBuffer();
}

export async function decodeRgb(bytes: Buffer): Promise<Uint8Array> {
  return Uint8Array.from(await sharp(bytes).removeAlpha().raw().toBuffer());
}

/** `background` with RECT taken from `region`. */
export function composite(background: Uint8Array, region: Uint8Array): Uint8Array {
  const out = Uint8Array.from(background);
  for (let y = RECT[1]; y < RECT[3]; y++) for (let x = RECT[0]; x < RECT[2]; x++) for (let c = 0; c < 3; c++) out[(y * W + x) * 3 + c] = region[(y * W + x) * 3 + c]!;
  return out;
}

/** The image moved up-left by (dx, dy) pixels (edge pixels repeated): its JPEG grid then starts at (8 - dx, 8 - dy). */
export function shifted(pixels: Uint8Array, dx: number, dy: number): Uint8Array {
  const out = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) for (let c = 0; c < 3; c++) out[(y * W + x) * 3 + c] = pixels[(Math.min(H - 1, y + dy) * W + Math.min(W - 1, x + dx)) * 3 + c]!;
  return out;
}

/** 1 inside RECT, 0 elsewhere. */
export function rectMask(): Uint8Array {
  const mask = new Uint8Array(W * H);
  for (let y = RECT[1]; y < RECT[3]; y++) mask.fill(1, y * W + RECT[0], y * W + RECT[2]);
  return mask;
}
