// Writes the column names of every feature block and the SHA-256 of the backbone files for train.py.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { backboneDigest } from '../../dist/aiImage/backbones.js';
import { featureNames } from '../../dist/aiImage/features.js';

const OUT = resolve(import.meta.dirname, '../out/ai-image');
mkdirSync(OUT, { recursive: true });
const blocks = ['handcrafted', 'mobilenet_v2', 'inception_v3'];
writeFileSync(
  join(OUT, 'names.json'),
  JSON.stringify({
    names: Object.fromEntries(blocks.map((b) => [b, featureNames(b)])),
    digests: { mobilenet_v2: backboneDigest('mobilenet_v2'), inception_v3: backboneDigest('inception_v3') },
  }),
);
console.log('wrote names.json');
