// Robustness of the AI-image score (0..100) to the ways images travel: JPEG re-compression (quality 70 to 95),
// resizing (0.5x to 1.5x, Lanczos-3), a centre crop of 70% of each side, and a screenshot (shown at 80% on a
// screen, captured as PNG). For each version and transform: the share of images whose score moves by less than 10
// points, and the 95th percentile of the move. Used by evaluate.mjs.
import { createRequire } from 'node:module';

const sharp = createRequire(new URL('../../packages/classifiers/package.json', import.meta.url))('sharp');

export const TRANSFORMS = {
  'jpeg q70': (img) => img.jpeg({ quality: 70 }),
  'jpeg q80': (img) => img.jpeg({ quality: 80 }),
  'jpeg q95': (img) => img.jpeg({ quality: 95 }),
  'resize 0.5x': (img, w) => img.resize(Math.round(w * 0.5), null, { kernel: 'lanczos3' }).png(),
  'resize 0.75x': (img, w) => img.resize(Math.round(w * 0.75), null, { kernel: 'lanczos3' }).png(),
  'resize 1.5x': (img, w) => img.resize(Math.round(w * 1.5), null, { kernel: 'lanczos3' }).png(),
  'crop 70%': (img, w, h) => img.extract({ left: Math.round(w * 0.15), top: Math.round(h * 0.15), width: Math.round(w * 0.7), height: Math.round(h * 0.7) }).png(),
  screenshot: (img, w) => img.resize(Math.round(w * 0.8), null, { kernel: 'cubic' }).png({ compressionLevel: 6 }),
};

/** Prints the table for `images` (encoded bytes) and `versions`. */
export async function printRobustness(classifier, images, versions) {
  const variants = [];
  for (const bytes of images) {
    const { width, height } = (await sharp(bytes).metadata()).autoOrient;
    const v = { original: bytes };
    for (const [name, make] of Object.entries(TRANSFORMS)) {
      // Halving an image under 512 px would take it below the API's 256 px minimum: left out.
      const belowMinimum = name === 'resize 0.5x' && Math.min(width, height) < 512;
      v[name] = belowMinimum ? null : await make(sharp(bytes).rotate(), width, height).toBuffer();
    }
    variants.push(v);
  }
  console.log(`\nRobustness: share of images whose score moves by less than 10 points / 95th percentile of the move (${images.length} images)`);
  console.log('version', ...Object.keys(TRANSFORMS).map((k) => k.padStart(14)));
  for (const version of versions) {
    const moves = Object.fromEntries(Object.keys(TRANSFORMS).map((k) => [k, []]));
    for (const v of variants) {
      const base = (await classifier.classify(v.original, { version })).score;
      for (const k of Object.keys(TRANSFORMS)) {
        if (v[k] !== null) moves[k].push(Math.abs((await classifier.classify(v[k], { version })).score - base));
      }
    }
    const cell = (xs) => {
      const s = [...xs].sort((a, b) => a - b);
      return `${(s.filter((d) => d < 10).length / s.length).toFixed(3)} / ${String(s[Math.floor(0.95 * (s.length - 1))]).padStart(3)}`;
    };
    console.log(String(version).padEnd(7), ...Object.values(moves).map((xs) => cell(xs).padStart(14)));
  }
}
