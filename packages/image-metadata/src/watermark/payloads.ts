/** A known invisible-watermark payload and who embeds it. */
export interface WatermarkPayload {
  id: 'sd1' | 'sd2' | 'sdxl' | 'flux';
  issuer: string;
  bits: Uint8Array;
}

function bytesToBits(text: string): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  const bits = new Uint8Array(bytes.length * 8);
  bytes.forEach((byte, i) => { for (let b = 0; b < 8; b++) bits[i * 8 + b] = (byte >> (7 - b)) & 1; });
  return bits;
}

/** `[int(b) for b in bin(x)[2:]]`: Python drops leading zeros, so FLUX's 48-bit literal yields 46 bits. */
function pythonBinBits(value: bigint): Uint8Array {
  return Uint8Array.from(value.toString(2), (c) => (c === '1' ? 1 : 0));
}

/** Payloads of the public reference pipelines (CompVis, Stability AI, Black Forest Labs). */
export const WATERMARK_PAYLOADS: readonly WatermarkPayload[] = [
  { id: 'sd1', issuer: 'Stable Diffusion 1 (CompVis)', bits: bytesToBits('StableDiffusionV1') },
  { id: 'sd2', issuer: 'Stable Diffusion 2 (Stability AI)', bits: bytesToBits('SDV2') },
  { id: 'sdxl', issuer: 'Stable Diffusion XL (Stability AI)', bits: pythonBinBits(0b101100111110110010010000011110111011000110011110n) },
  { id: 'flux', issuer: 'FLUX (Black Forest Labs)', bits: pythonBinBits(0b001010101111111010000111100111001111010100101110n) },
];
