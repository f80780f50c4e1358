#!/usr/bin/env node
// `npm run demo` (after setup): the engine's main jobs on the bundled fixtures, offline, one summary line each:
// AI text detection on fixtures/demo/*.txt, AI image detection on fixtures/demo/evening-harbour.jpg, and text
// compare of fixtures/text-compare/original.txt against revised.txt (`demoJobs`, packages/cli/src/demo.ts).
// `--json` prints the full results instead of the summary.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoJobs, runDemo } from '../packages/cli/dist/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const started = performance.now();
const lines = await runDemo(demoJobs(root));
if (process.argv.includes('--json')) {
  console.log(JSON.stringify(lines.map(({ job, result }) => ({ job, result })), null, 2));
} else {
  console.log('content-analysis demo: bundled fixtures, offline, no account (human scores: 0 = AI, 100 = human)');
  for (const { line, ms } of lines) console.log(`${line}  [${(ms / 1000).toFixed(1)} s]`);
  console.log(
    `${lines.length} jobs in ${((performance.now() - started) / 1000).toFixed(1)} s. What the inputs are: ` +
      'fixtures/demo/README.md; how far to trust the scores: packages/classifiers/README.md.',
  );
}
