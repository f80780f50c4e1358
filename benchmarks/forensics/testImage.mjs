/** A photo-like test JPEG: smooth colour field with texture and noise, encoded at quality 92 by `sharp`. */
export async function testJpeg(sharp, width, height) {
  const rgb = new Uint8Array(width * height * 3);
  let s = 12345;
  const rand = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) for (let c = 0; c < 3; c++) {
    const v = 128 + 60 * Math.sin(x / (70 + 20 * c) + y / 90) + 25 * Math.sin((x * y) / 5000) + 8 * (rand() - 0.5);
    rgb[(y * width + x) * 3 + c] = Math.max(0, Math.min(255, v));
  }
  return sharp(rgb, { raw: { width, height, channels: 3 } }).jpeg({ quality: 92 }).toBuffer();
}
