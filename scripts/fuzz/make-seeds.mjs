// Writes the seed images of the fuzzer to fixtures/fuzz (made here, Apache-2.0 with the repository): small photo-like
// images (gradients and fixed-seed noise) in each format the image endpoints read, at the 256x256 minimum and beside
// it, one declaring AI generation in its XMP. Run: npm run build && node scripts/fuzz/make-seeds.mjs
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const sharp = createRequire(join(root, 'packages/classifiers/package.json'))('sharp');
const out = join(root, 'fixtures/fuzz');

const AI_XMP =
  '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">' +
  '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about=""' +
  ' xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"' +
  ' Iptc4xmpExt:DigitalSourceType="http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia"/>' +
  '</rdf:RDF></x:xmpmeta><?xpacket end="w"?>';

function pixels(width, height) {
  const data = Buffer.alloc(width * height * 3);
  let seed = 7;
  const noise = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32 - 0.5) * 10;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      data[i] = Math.max(0, Math.min(255, 80 + (x / width) * 120 + noise()));
      data[i + 1] = Math.max(0, Math.min(255, 60 + (y / height) * 140 + noise()));
      data[i + 2] = Math.max(0, Math.min(255, 140 + 60 * Math.sin(x / 20) + noise()));
    }
  }
  return sharp(data, { raw: { width, height, channels: 3 } });
}

writeFileSync(join(out, 'photo-256.jpg'), await pixels(256, 256).withExif({ IFD0: { Make: 'Fuzz', Model: 'Seed' } }).jpeg({ quality: 80 }).toBuffer());
writeFileSync(join(out, 'photo-320x256.webp'), await pixels(320, 256).webp({ quality: 70 }).toBuffer());
writeFileSync(join(out, 'photo-256-ai.png'), await pixels(256, 256).withXmp(AI_XMP).png({ compressionLevel: 9, palette: true }).toBuffer());
writeFileSync(join(out, 'photo-200x180.png'), await pixels(200, 180).png({ compressionLevel: 9, palette: true }).toBuffer());
writeFileSync(join(out, 'photo-256-progressive.jpg'), await pixels(256, 300).rotate(90).jpeg({ quality: 60, progressive: true }).toBuffer());
