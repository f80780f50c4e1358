// Computes the models' input features with the package's own TypeScript code (dist/) and writes them to
// training/.data/ (ignored by git) for train_*.py. Usage: node training/dumpFeatures.mjs [entailment|checkworthiness]
process.env.DOTENV_CONFIG_QUIET = 'true';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  alignPair, checkWorthinessFeatures, CHECK_WORTHINESS_FEATURE_COUNT, entailmentFeatures, ENTAILMENT_FEATURE_COUNT, loadWordVectors,
} from '../dist/index.js';
import { checkWorthinessSentences, nliPairs, requireFactcheckRoot } from './datasets.mjs';
import { feverNeutralPairs, feverSelfPairs } from './feverNeutralPairs.mjs';

const root = requireFactcheckRoot();
const out = fileURLToPath(new URL('.data/', import.meta.url));
mkdirSync(out, { recursive: true });
const vectors = loadWordVectors();
const which = process.argv[2] ?? 'all';

function write(name, rows, width, featuresOf) {
  const data = new Float32Array(rows.length * width);
  const started = Date.now();
  rows.forEach((row, i) => data.set(featuresOf(row), i * width));
  writeFileSync(join(out, `${name}.f32`), Buffer.from(data.buffer));
  writeFileSync(join(out, `${name}.json`), JSON.stringify({ width, rows: rows.map(({ source, split, label }) => ({ source, split, label })) }));
  console.log(`${name}: ${rows.length} rows x ${width} features in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (which === 'all' || which === 'entailment') {
  // Premise = evidence, hypothesis = claim. Very long FEVER evidence is cut to 1,500 characters, as passages are.
  const pairs = nliPairs(root);
  write('entailment', [...pairs, ...feverNeutralPairs(pairs), ...feverSelfPairs(pairs)], ENTAILMENT_FEATURE_COUNT, (p) =>
    entailmentFeatures(alignPair(p.hypothesis, p.premise.slice(0, 1500), vectors)));
}
if (which === 'all' || which === 'checkworthiness') {
  write('checkworthiness', checkWorthinessSentences(root), CHECK_WORTHINESS_FEATURE_COUNT, (s) =>
    checkWorthinessFeatures(s.text, vectors));
}
