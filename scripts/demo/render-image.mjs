// Renders fixtures/demo/evening-harbour.jpg, the image `npm run demo` classifies: a vector drawing of a harbour at
// dusk (gradients, hills, a boat) with a fixed pseudo-random grain, 640x448, JPEG quality 88. Made for this project
// (its own licence); a computer drawing, neither a photograph nor the output of a generative model.
// Usage: node scripts/demo/render-image.mjs (after `npm run setup`: sharp is the classifiers package's dependency)
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const sharp = createRequire(new URL('../../packages/classifiers/package.json', import.meta.url))('sharp');
const out = fileURLToPath(new URL('../../fixtures/demo/evening-harbour.jpg', import.meta.url));
const [width, height] = [640, 448];

const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#1d2b53"/><stop offset="0.55" stop-color="#c0587e"/><stop offset="1" stop-color="#f6a55b"/>
    </linearGradient>
    <linearGradient id="sea" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#40577a"/><stop offset="1" stop-color="#0e1a2e"/>
    </linearGradient>
    <radialGradient id="sun"><stop offset="0" stop-color="#fff3c4"/><stop offset="1" stop-color="#f6a55b" stop-opacity="0"/></radialGradient>
  </defs>
  <rect width="${width}" height="300" fill="url(#sky)"/>
  <circle cx="420" cy="270" r="90" fill="url(#sun)"/>
  <circle cx="420" cy="280" r="34" fill="#ffe9a8"/>
  <path d="M0 250 C 90 190 170 230 250 205 S 400 240 470 215 S 590 200 640 230 L 640 300 L 0 300 Z" fill="#3b2c4f"/>
  <path d="M0 280 C 120 250 200 275 320 262 S 520 270 640 258 L 640 300 L 0 300 Z" fill="#2a2140"/>
  <rect y="300" width="${width}" height="${height - 300}" fill="url(#sea)"/>
  ${Array.from({ length: 14 }, (_, i) => `<rect x="${360 + ((i * 37) % 120)}" y="${306 + i * 9}" width="${70 - i * 3}" height="2" fill="#ffd98a" opacity="${0.7 - i * 0.04}"/>`).join('')}
  <path d="M150 352 L 250 352 L 236 372 L 166 372 Z" fill="#1b1424"/>
  <rect x="196" y="288" width="3" height="64" fill="#1b1424"/>
  <path d="M199 292 L 238 346 L 199 346 Z" fill="#e9dcc9"/>
  <path d="M196 300 L 164 346 L 196 346 Z" fill="#cdbfae"/>
  <rect x="40" y="330" width="90" height="6" fill="#1b1424"/>
  ${[48, 70, 92, 114].map((x) => `<rect x="${x}" y="336" width="4" height="40" fill="#1b1424"/>`).join('')}
</svg>`;

// Film-like grain from a fixed linear congruential sequence, so every run writes the same file.
const grain = Buffer.alloc(width * height * 3);
let state = 20261125;
for (let i = 0; i < grain.length; i++) {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  grain[i] = 118 + ((state >>> 24) % 21);
}
const drawing = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
const mixed = Buffer.alloc(drawing.length);
for (let i = 0; i < drawing.length; i++) mixed[i] = Math.max(0, Math.min(255, drawing[i] + grain[i] - 128));
await sharp(mixed, { raw: { width, height, channels: 3 } }).jpeg({ quality: 88, mozjpeg: false }).toFile(out);
console.log(`wrote ${out}`);
