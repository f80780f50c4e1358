#!/usr/bin/env node
// Copies the two backbones the AI-image versions 2-4 and legacy-5 read (MobileNetV2 and InceptionV3, TensorFlow.js
// layers format) and nsfwjs' MIT licence from the nsfwjs devDependency into vendor/nsfwjs/, so the published package
// carries the weights those versions need without nsfwjs itself, whose peer dependency @tensorflow/tfjs (273 MB) npm
// would install and nothing here uses. Only the versions in this package read them (the default and latest, model 9,
// do not), so they ship here, not in @content-analysis/classifiers, which finds them
// (src/aiImage/backbones.ts nsfwjsModelsDir). Runs as `prepack`; in the workspace the weights are read from nsfwjs.
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
// dist/cjs/models/mobilenet_v2.js -> the package folder (its package.json is not exported).
const nsfwjs = join(dirname(require.resolve('nsfwjs/models/mobilenet_v2')), '..', '..', '..');
const out = join(root, 'vendor', 'nsfwjs');
const { version } = JSON.parse(readFileSync(join(nsfwjs, 'package.json'), 'utf8'));
const stamp = join(out, 'VERSION');
// Left alone when it is already this version's copy: tests may be reading it while a pack runs.
if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === version) {
  console.log(`vendor-nsfwjs: ${out} already holds nsfwjs ${version}`);
} else {
  const aside = `${out}.${process.pid}.tmp`;
  rmSync(aside, { recursive: true, force: true });
  mkdirSync(join(aside, 'models'), { recursive: true });
  for (const name of ['mobilenet_v2', 'inception_v3']) cpSync(join(nsfwjs, 'dist', 'models', name), join(aside, 'models', name), { recursive: true });
  cpSync(join(nsfwjs, 'dist', 'models', 'package.json'), join(aside, 'models', 'package.json'));
  cpSync(join(nsfwjs, 'LICENSE'), join(aside, 'LICENSE'));
  writeFileSync(join(aside, 'VERSION'), `${version}\n`);
  rmSync(out, { recursive: true, force: true });
  renameSync(aside, out);
  console.log(`vendor-nsfwjs: nsfwjs ${version} models mobilenet_v2, inception_v3 -> ${out}`);
}
