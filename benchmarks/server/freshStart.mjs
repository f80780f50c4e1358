// GET /health latency of a freshly started `content-analysis serve` under AI-text load: the operator's view, the CLI's
// own process (SQLite ledger in a temporary folder, the account made with the CLI), with the warm start (the
// default: models load before the node prints that it listens) and without it (`--no-warm`, the baseline: models load
// on the first request), measured in the same run. As soon as the node prints its address, rounds of `--requests`
// concurrent `--chars`-character POST /v2/ai-content-detection run for `--seconds`, while this process polls GET
// /health every 10 ms (one at a time) and scrapes GET /metrics once mid-run and once at the end.
// Usage: node scripts/setup.mjs && node benchmarks/server/freshStart.mjs [--requests 50] [--chars 10000] [--seconds 5]
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { readLoopDelay } from '../lib/loopDelay.mjs';
import { proseOf } from '../lib/prose.mjs';
import { humanProse, humanTexts } from '../lib/realInputs.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`Expected positive integer for --${name} but received ${process.argv[at + 1]}`);
  return value;
};
/** A string option: `--name value`, or the fallback. */
const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
};
const requests = arg('requests', 50);
const chars = arg('chars', 10_000);
const seconds = arg('seconds', 5);
const BIN = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** `content-analysis …` as the operator types it; its JSON answer. */
function cli(args) {
  return JSON.parse(execFileSync(process.execPath, [BIN, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
}

async function measure(warm, text) {
  const dir = mkdtempSync(join(tmpdir(), 'ca-fresh-start-'));
  const db = join(dir, 'ledger.sqlite');
  // One token per concurrent request: each client stays within the default rate limit (burst 60, 10 a second).
  cli(['accounts', 'create', 'bench', '--credits', '1000000000', '--db', db]);
  const { SqliteLedger } = await import('../../packages/credits/dist/index.js');
  const ledger = new SqliteLedger({ path: db });
  const tokens = [];
  for (let i = 0; i < requests; i++) tokens.push((await ledger.createToken('bench')).token);
  await ledger.close();
  const started = performance.now();
  // --node-args '--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server (its profile is written when it stops).
  const nodeArgs = option('node-args', '').split(' ').filter(Boolean);
  const preload = fileURLToPath(new URL('../lib/loopDelayPreload.mjs', import.meta.url));
  const child = spawn(process.execPath, [...nodeArgs, '--import', preload, BIN, 'serve', '--port', '0', '--db', db, '--index', join(dir, 'sources.sqlite'), ...(warm ? [] : ['--no-warm'])],
    { stdio: ['ignore', 'pipe', 'ignore', 'ipc'] });
  try {
    let url;
    for await (const line of createInterface({ input: child.stdout })) {
      url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
      if (url) break;
    }
    if (!url) throw new Error('serve exited before listening');
    const startMs = performance.now() - started;
    const post = (token) => fetch(`${url}/v2/ai-content-detection`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ text }),
    }).then(async (r) => { await r.arrayBuffer(); return r.status; });
    // A first scrape starts the window of the event-loop delay that /metrics reports (prom-client resets it at each).
    await (await fetch(`${url}/metrics`)).text();
    await readLoopDelay(child);
    const machineLoad = loadavg()[0];
    const loadStart = performance.now();
    const statuses = [];
    let rounds = 0;
    let loading = true;
    const load = (async () => {
      while (performance.now() - loadStart < seconds * 1000) {
        statuses.push(...(await Promise.all(tokens.map(post))));
        rounds++;
      }
      loading = false;
    })();
    const health = [];
    let midScrape;
    // Bounded: stops with the load, or after two minutes whatever happens.
    while (loading && performance.now() - loadStart < 120_000) {
      const t = performance.now();
      const r = await fetch(`${url}/health`);
      await r.arrayBuffer();
      health.push(performance.now() - t);
      if (midScrape === undefined && performance.now() - loadStart > (seconds * 1000) / 2) midScrape = await (await fetch(`${url}/metrics`)).text();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await load;
    const loadSeconds = (performance.now() - loadStart) / 1000;
    const loop = await readLoopDelay(child);
    const endScrape = await (await fetch(`${url}/metrics`)).text();
    // The server's event-loop delay over each half of the run, as /metrics reports it (ms).
    const lag = (text, stat) => 1000 * Number(new RegExp(`^content_analysis_nodejs_eventloop_lag_${stat}_seconds (\\S+)$`, 'm').exec(text ?? '')?.[1] ?? NaN);
    const answered = (text) => Number(/content_analysis_http_requests_total\{route="\/v2\/ai-content-detection",method="POST",status="200"\} (\d+)/.exec(text ?? '')?.[1] ?? 0);
    health.sort((a, b) => a - b);
    return {
      mode: warm ? 'warm' : 'no-warm', startMs, samples: health.length, p50: quantile(health, 0.5), p99: quantile(health, 0.99),
      max: health.at(-1), rounds, ok: statuses.filter((s) => s === 200).length,
      other: statuses.filter((s) => s !== 200).length, loadSeconds, midCount: answered(midScrape), endCount: answered(endScrape),
      metricsP99: Math.max(lag(midScrape, 'p99'), lag(endScrape, 'p99')), loop, machineLoad,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

// Human prose of the shared AI-text sets (CONTENT_ANALYSIS_DATASETS), else the benchmarks' prose.
const real = humanTexts().length > 0;
const text = real ? humanProse(chars) : proseOf(chars);
console.log(`fresh serve: rounds of ${requests} concurrent ${chars}-character AI-text requests (${real ? 'human prose of the shared AI-text sets' : 'the benchmarks\' prose'}) ` +
  `for ${seconds} s from the moment it listens; GET /health every 10 ms`);
const results = [];
// --modes warm or --modes no-warm runs one mode only.
const modes = option('modes', 'warm,no-warm').split(',');
for (const warm of [true, false]) if (modes.includes(warm ? 'warm' : 'no-warm')) results.push(await measure(warm, text));
console.log('(/health p50 / p99 / max in ms; loop: the server\'s event-loop delay p99 / max in ms; own: the part of it its main thread ' +
  'spent running, p99 / max; /metrics p99: the delay p99 /metrics reports, the worse of the two halves; wait: the share of the run its main ' +
  'thread waited for a core; cpu: the server\'s CPU use in cores; load: the machine\'s load average at the start)');
console.log('mode'.padEnd(8), 'load'.padStart(5), 'start s'.padStart(8), 'p50'.padStart(7), 'p99'.padStart(7), 'max'.padStart(7), 'polls'.padStart(6),
  'loop p99'.padStart(9), 'max'.padStart(7), 'own p99'.padStart(8), 'max'.padStart(7), '/metrics p99'.padStart(13), 'wait'.padStart(5), 'cpu'.padStart(5),
  'rounds'.padStart(7), '200s'.padStart(5), 'other'.padStart(6), '/metrics mid'.padStart(13), 'end'.padStart(5));
for (const r of results) {
  console.log(r.mode.padEnd(8), r.machineLoad.toFixed(1).padStart(5), (r.startMs / 1000).toFixed(1).padStart(8), r.p50.toFixed(1).padStart(7), r.p99.toFixed(1).padStart(7),
    r.max.toFixed(1).padStart(7), String(r.samples).padStart(6), r.loop.p99.toFixed(1).padStart(9), r.loop.max.toFixed(1).padStart(7),
    r.loop.ownP99.toFixed(1).padStart(8), r.loop.ownMax.toFixed(1).padStart(7), r.metricsP99.toFixed(1).padStart(13),
    r.loop.waitShare.toFixed(2).padStart(5), r.loop.cpuShare.toFixed(2).padStart(5), String(r.rounds).padStart(7), String(r.ok).padStart(5),
    String(r.other).padStart(6), String(r.midCount).padStart(13), String(r.endCount).padStart(5));
}
console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
const [warm, cold] = results;
if (warm && cold && warm.mode === 'warm') {
  console.log(`warm / no-warm: /health p99 x${(warm.p99 / cold.p99).toFixed(3)}, max x${(warm.max / cold.max).toFixed(3)}, ` +
    `loop p99 x${(warm.loop.p99 / cold.loop.p99).toFixed(3)}, own p99 x${(warm.loop.ownP99 / cold.loop.ownP99).toFixed(3)}`);
}
for (const r of results) {
  console.log(`${r.mode}: /health p99 < 50 ms: ${r.p99 < 50 ? 'yes' : 'NO'}; event-loop delay p99 < 50 ms: ${r.loop.p99 < 50 ? 'yes' : 'NO'}; ` +
    `its own part < 50 ms: ${r.loop.ownP99 < 50 ? 'yes' : 'NO'}`);
}
