// False positive rate per real photo source, as published, as shared (long side at most 1080 px, JPEG quality 75)
// and as a screenshot (80%, PNG), end to end through the shipped classifier, for the versions given (default:
// legacy-5, the model that answered as 5 until 2026-11-27; 7; and 5, the default, now model 9). The photos are the
// corpus's calibration split (the manifest's `split`): no version trained on them (legacy-5 never saw the corpus;
// 7 and 8 held them apart), but version 8's threshold was set on them, so its column here checks the runtime
// against train.py rather than the bound: the bound is read on train.py's leave-one-source-out table (card
// metrics.leave_source_out_real).
// Usage: node scripts/ai-image/heldout-sources.mjs [--per-source N] [--versions a,b,c]   (after npm run build and
// training/ai-image/v6/build-corpus.mjs)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAiImageClassifier } from '../../packages/classifiers/dist/index.js';
import { readManifest } from '../../packages/classifiers/training/ai-image/v6/manifest.mjs';
import { PROCESSINGS } from '../../packages/classifiers/training/ai-image/v6/processings.mjs';
import { CORPUS, spread } from './corpusTable.mjs';

const arg = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const perSource = Number(arg('--per-source', '40'));
const versions = arg('--versions', 'legacy-5,7,5').split(',');
const KINDS = ['original', 'asshared', 'screenshot'];

const manifest = readManifest(CORPUS).filter((r) => r.split === 'calibration');
const classifier = createAiImageClassifier({ threads: 2 });
const sources = [...new Set(manifest.map((r) => r.source))].sort();
const pct = (flags) => (flags.length === 0 ? '     -' : `${((100 * flags.filter(Boolean).length) / flags.length).toFixed(1).padStart(5)}%`);

console.log(`Real photos held apart (calibration split), up to ${perSource} per source: share flagged (ai_probability >= 0.5)`);
console.log('source'.padEnd(26), '   n', ...versions.flatMap((v) => KINDS.map((k) => `${v}:${k === 'original' ? 'published' : k === 'asshared' ? 'shared' : 'screen'}`.padStart(17))));
const totals = Object.fromEntries(versions.flatMap((v) => KINDS.map((k) => [`${v}:${k}`, []])));
for (const source of sources) {
  const rows = spread(manifest.filter((r) => r.source === source), perSource);
  const flags = Object.fromEntries(versions.flatMap((v) => KINDS.map((k) => [`${v}:${k}`, []])));
  for (const r of rows) {
    const bytes = readFileSync(join(CORPUS, r.file));
    for (const kind of KINDS) {
      const copy = await PROCESSINGS[kind](bytes, r.sha256);
      for (const v of versions) {
        const flagged = (await classifier.classify(copy, { version: v })).ai_probability >= 0.5;
        flags[`${v}:${kind}`].push(flagged);
        totals[`${v}:${kind}`].push(flagged);
      }
    }
  }
  console.log(source.padEnd(26), String(rows.length).padStart(4), ...Object.values(flags).map((f) => pct(f).padStart(17)));
}
console.log('all'.padEnd(26), String(totals[`${versions[0]}:original`].length).padStart(4), ...Object.values(totals).map((f) => pct(f).padStart(17)));
