// GET /health latency of a freshly started `content-analysis serve` under AI-text load: the operator's view, the CLI's
// own process (SQLite ledger in a temporary folder, the account made with the CLI), with the warm start (the
// default: models load before the node prints that it listens) and without it (`--no-warm`, the baseline: models load
// on the first request), measured in the same run. As soon as the node prints its address, rounds of `--requests`
// concurrent `--chars`-character POST /v2/ai-content-detection run for `--seconds`, while this process polls GET
// /health every 10 ms (one at a time) and scrapes GET /metrics once mid-run and once at the end.
// Usage: node scripts/setup.mjs && node benchmarks/server/freshStart.mjs [--requests 50] [--chars 10000] [--seconds 5]
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { proseOf } from '../lib/prose.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`Expected positive integer for --${name} but received ${process.argv[at + 1]}`);
  return value;
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
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', db, '--index', join(dir, 'sources.sqlite'), ...(warm ? [] : ['--no-warm'])],
    { stdio: ['ignore', 'pipe', 'ignore'] });
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
    const endScrape = await (await fetch(`${url}/metrics`)).text();
    const answered = (text) => Number(/content_analysis_http_requests_total\{route="\/v2\/ai-content-detection",method="POST",status="200"\} (\d+)/.exec(text ?? '')?.[1] ?? 0);
    health.sort((a, b) => a - b);
    return {
      mode: warm ? 'warm' : 'no-warm', startMs, samples: health.length, p50: quantile(health, 0.5), p99: quantile(health, 0.99),
      max: health.at(-1), rounds, ok: statuses.filter((s) => s === 200).length,
      other: statuses.filter((s) => s !== 200).length, loadSeconds, midCount: answered(midScrape), endCount: answered(endScrape),
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

const text = proseOf(chars);
console.log(`fresh serve: rounds of ${requests} concurrent ${chars}-character AI-text requests for ${seconds} s from the moment it listens; GET /health every 10 ms`);
const results = [];
for (const warm of [true, false]) results.push(await measure(warm, text));
console.log('mode'.padEnd(8), 'start s'.padStart(8), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'max ms'.padStart(8), 'polls'.padStart(6),
  'rounds'.padStart(7), '200s'.padStart(5), 'other'.padStart(6), '/metrics mid'.padStart(13), 'end'.padStart(5));
for (const r of results) {
  console.log(r.mode.padEnd(8), (r.startMs / 1000).toFixed(1).padStart(8), r.p50.toFixed(1).padStart(8), r.p99.toFixed(1).padStart(8),
    r.max.toFixed(1).padStart(8), String(r.samples).padStart(6), String(r.rounds).padStart(7), String(r.ok).padStart(5),
    String(r.other).padStart(6), String(r.midCount).padStart(13), String(r.endCount).padStart(5));
}
const [warm, cold] = results;
console.log(`warm / no-warm: /health p99 x${(warm.p99 / cold.p99).toFixed(3)}, max x${(warm.max / cold.max).toFixed(3)}; ` +
  `/health p99 < 50 ms with the warm start: ${warm.p99 < 50 ? 'yes' : 'NO'}`);
