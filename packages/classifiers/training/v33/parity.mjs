// Checks that the runtime (src/aiText/charLm.ts, onnxruntime on out/v33/lm/lm.onnx with its card) gives the nine
// LM_FEATURE_NAMES that lm_features.py computed in Python for the first N sample rows. Exits 1 on a difference
// over TOL. Usage: node packages/classifiers/training/v33/parity.mjs [N]   (after lm_features.py)
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CharLm } from '../../dist/index.js';
import { OUT_DIR } from '../paths.mjs';

const TOL = 2e-3;
const dir = resolve(OUT_DIR, 'v33');
const count = Number(process.argv[2] ?? 40);
const card = JSON.parse(readFileSync(resolve(dir, 'lm', 'lm.json'), 'utf8'));
const lm = await CharLm.load(resolve(dir, 'lm'), card);
const { names } = JSON.parse(readFileSync(resolve(dir, 'lm-features.json'), 'utf8'));
// .npy: magic, version, header length (uint16 LE), header, then float32 data in C order.
const npy = readFileSync(resolve(dir, 'lm-features.npy'));
const headerLength = npy.readUInt16LE(8);
const data = new Float32Array(npy.buffer.slice(npy.byteOffset + 10 + headerLength, npy.byteOffset + npy.length));
const lines = readFileSync(resolve(dir, 'sample.jsonl'), 'utf8').split('\n');
let checked = 0;
let worst = 0;
for (let i = 0; i < lines.length && checked < count; i++) {
  if (!lines[i]) continue;
  const python = data.subarray(i * names.length, i * names.length + 9);
  if (Number.isNaN(python[0])) continue;
  const { canonical } = JSON.parse(lines[i]);
  const trace = await lm.trace(canonical);
  const node = lm.rangeFeatures(trace, 0, canonical.length);
  for (let j = 0; j < 9; j++) worst = Math.max(worst, Math.abs(node[j] - python[j]) / Math.max(1, Math.abs(python[j])));
  checked++;
}
console.log(`${checked} rows, largest relative difference ${worst.toExponential(2)} (tolerance ${TOL})`);
process.exit(worst <= TOL ? 0 : 1);
