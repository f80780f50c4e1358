// Property-based fuzzing of every endpoint (fast-check): generated requests and mutated raw inputs go to the HTTP
// API on 127.0.0.1, served by the built engine with its real classifiers; every URL the engine fetches is answered
// by a local resource server (no other address is reached). Per endpoint it prints the inputs tried, the statuses
// seen, the crashes and undocumented answers (both must be 0), and the heap and RSS after a forced collection
// before and after the endpoint's run. Exits 1 on any violation: an undocumented status or body, no answer, an
// unexpected 500, a charge on an error, a wrong charge, an unhandled rejection or uncaught exception, or memory
// not back within the tolerance.
// Run: npm run build && node scripts/fuzz/fuzz.mjs [--seed N] [--scale X] [--only endpoint,...]
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { MemoryLedger } from '../../packages/credits/dist/index.js';
import { Engine, FACT_CHECK_LANGUAGES, PLAGIARISM_LANGUAGES } from '../../packages/engine/dist/index.js';
import { createApiServer, listen } from '../../packages/server/dist/index.js';
import { endpointArbitraries, withCaller } from './lib/requests.mjs';
import { fuzzEndpoint, memoryAfterGc } from './lib/run.mjs';
import { loadSeeds } from './lib/seeds.mjs';
import { startTarget } from './lib/target.mjs';

/** Inputs per endpoint at scale 1: 10,200 in all. */
const RUNS = {
  'text-compare': 1500,
  'ai-content-detection': 1300,
  plagiarism: 1200,
  'plagiarism-v1': 900,
  'fact-checker': 1000,
  'image-detection': 1200,
  'image-detection-v1': 700,
  'advanced-image-detection': 800,
  'tool-server': 1600,
};
/** Heap after a forced collection may end at most this far above where the endpoint started. */
const HEAP_TOLERANCE = 32 * 1024 * 1024;
/** Resident memory may end at most this far above (allocators keep freed pages; model sessions stay loaded). */
const RSS_TOLERANCE = 256 * 1024 * 1024;
/** Inputs of each endpoint run before measuring, so that models and caches loaded on first use are not counted. */
const WARM_UP = 40;

const { values: args } = parseArgs({
  options: { seed: { type: 'string', default: '20261125' }, scale: { type: 'string', default: '1' }, only: { type: 'string' } },
});
const seed = Number(args.seed);
const scale = Number(args.scale);
const only = args.only?.split(',');

const fatal = [];
let running = 'start-up';
const describeError = (error) => (error instanceof Error ? `${error.name}: ${error.message}\n${error.stack}` : String(error));
process.on('unhandledRejection', (reason) => fatal.push(`unhandled rejection during ${running}: ${describeError(reason)}`));
process.on('uncaughtException', (error) => fatal.push(`uncaught exception during ${running}: ${describeError(error)}`));

const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)}`;
const seeds = loadSeeds();
const arbitraries = endpointArbitraries(fc, seeds, { plagiarism: PLAGIARISM_LANGUAGES, factCheck: FACT_CHECK_LANGUAGES });
const target = await startTarget({ Engine, MemoryLedger, createApiServer, listen });
console.log(`fuzz: seed ${seed}, scale ${scale}, ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}, node ${process.version}, server ${target.url}`);

const started = performance.now();
const start = memoryAfterGc();
const rows = [];
let violations = 0;
for (const [name, runs] of Object.entries(RUNS)) {
  if (only && !only.includes(name)) continue;
  running = name;
  const arbitrary = withCaller(fc, arbitraries[name]);
  await fuzzEndpoint(fc, target, arbitrary, { numRuns: WARM_UP, seed: seed + 1 });
  const before = memoryAfterGc();
  const t0 = performance.now();
  const report = await fuzzEndpoint(fc, target, arbitrary, {
    numRuns: Math.max(1, Math.round(runs * scale)),
    seed,
    onProblem: (p) => console.log(`  ${name}: ${p.problems.join('; ')}\n    case ${p.case}`),
  });
  const seconds = (performance.now() - t0) / 1000;
  const after = memoryAfterGc();
  const memoryOk = after.heapUsed - before.heapUsed <= HEAP_TOLERANCE && after.rss - before.rss <= RSS_TOLERANCE;
  violations += report.problems.length + (memoryOk ? 0 : 1);
  rows.push({ name, report, before, after, memoryOk, seconds });
  console.log(
    `${name}: ${report.tried} inputs in ${seconds.toFixed(0)} s; statuses ${Object.entries(report.statuses).map(([s, n]) => `${s}:${n}`).join(' ')}; ` +
      `crashes ${report.crashes}; undocumented ${report.undocumented}; other violations ${report.problems.length - report.crashes - report.undocumented}; ` +
      `heap ${mib(before.heapUsed)} -> ${mib(after.heapUsed)} MiB, rss ${mib(before.rss)} -> ${mib(after.rss)} MiB${memoryOk ? '' : ' (OVER TOLERANCE)'}`,
  );
}
running = 'shut-down';
await new Promise((resolve) => setTimeout(resolve, 500)); // late rejections of the last requests
await target.stop();
const end = memoryAfterGc();

console.log('\n| endpoint | inputs | statuses (count) | crashes | undocumented | other violations | heap MiB before -> after | RSS MiB before -> after |');
console.log('|---|---|---|---|---|---|---|---|');
for (const { name, report, before, after } of rows) {
  console.log(
    `| ${name} | ${report.tried} | ${Object.entries(report.statuses).map(([s, n]) => `${s}: ${n}`).join(', ')} | ${report.crashes} | ${report.undocumented} | ` +
      `${report.problems.length - report.crashes - report.undocumented} | ${mib(before.heapUsed)} -> ${mib(after.heapUsed)} | ${mib(before.rss)} -> ${mib(after.rss)} |`,
  );
}
const total = rows.reduce((n, r) => n + r.report.tried, 0);
console.log(
  `\n${total} inputs in ${((performance.now() - started) / 1000).toFixed(0)} s; heap ${mib(start.heapUsed)} -> ${mib(end.heapUsed)} MiB, ` +
    `rss ${mib(start.rss)} -> ${mib(end.rss)} MiB over the whole run; server log entries ${target.logged.length}; ` +
    `tolerances: heap +${mib(HEAP_TOLERANCE)} MiB, rss +${mib(RSS_TOLERANCE)} MiB per endpoint`,
);
for (const entry of target.logged.slice(0, 5)) console.log(`server log: ${entry.message}: ${entry.error?.stack ?? entry.error}`);
for (const f of fatal) console.log(f);
violations += fatal.length;
if (violations > 0) {
  console.log(`FAILED: ${violations} violation(s)`);
  process.exit(1);
}
console.log('OK: every answer documented, no crash, nothing charged on an error, memory within tolerance');
process.exit(0);
