// GET /health latency and AI-text throughput of the HTTP API under load, with the analysis pool and with the
// analyses on the main thread (the baseline), measured in the same run. Each mode runs a server in a child process on
// 127.0.0.1 (a free port), warms it up, then sends `--requests` concurrent `--chars`-character POST
// /v2/ai-content-detection requests while this process polls GET /health every 10 ms until the last answer.
// The text: human prose of the shared AI-text sets (benchmarks/lib/realInputs.mjs, CONTENT_ANALYSIS_DATASETS), else
// the benchmarks' own prose; the machine's load is printed at the start and the end.
// Usage: node scripts/setup.mjs && node benchmarks/server/bench.mjs [--requests 50] [--chars 10000] [--rounds 10]
import { fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { proseOf } from '../lib/prose.mjs';
import { humanProse, humanTexts, machineLine } from '../lib/realInputs.mjs';
import { serveChild } from '../lib/serveChild.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`Expected positive integer for --${name} but received ${process.argv[at + 1]}`);
  return value;
};

const textOf = (chars) => (humanTexts().length > 0 ? humanProse(chars) : proseOf(chars));

if (process.argv[2] === '--serve') await serveChild({ mode: process.argv[3] });
else await measure();

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** One burst: `requests` concurrent AI-text posts, /health polled every 10 ms while they run. */
async function burst({ url, token }, text, requests) {
  const post = () => fetch(`${url}/v2/ai-content-detection`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ text, sentences: true }),
  }).then(async (r) => { await r.arrayBuffer(); return r.status; });
  const started = performance.now();
  let pending = true;
  const load = Promise.all(Array.from({ length: requests }, post)).then((statuses) => {
    pending = false;
    return { statuses, seconds: (performance.now() - started) / 1000 };
  });
  const health = [];
  // Bounded: stops with the burst, or after two minutes whatever happens.
  while (pending && performance.now() - started < 120_000) {
    const t = performance.now();
    const r = await fetch(`${url}/health`);
    await r.arrayBuffer();
    health.push(performance.now() - t);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { ...(await load), health };
}

async function measureMode(mode, text, requests, rounds) {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', mode], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const server = await new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`the ${mode} server exited with ${code}`)));
    });
    // Warm-up: the detector's model loads (in the worker, or on the main thread) before anything is timed.
    await burst(server, text, 4);
    const health = [];
    let ok = 0, refused = 0, seconds = 0;
    for (let round = 0; round < rounds; round++) {
      const result = await burst(server, text, requests);
      health.push(...result.health);
      ok += result.statuses.filter((s) => s === 200).length;
      refused += result.statuses.filter((s) => s === 503).length;
      seconds += result.seconds;
      if (ok + refused !== (round + 1) * requests) throw new Error(`${mode}: unexpected statuses ${result.statuses.join(',')}`);
    }
    health.sort((a, b) => a - b);
    return {
      mode, samples: health.length, p50: quantile(health, 0.5), p99: quantile(health, 0.99), max: health.at(-1),
      perSecond: ok / seconds, refused,
    };
  } finally {
    child.disconnect();
  }
}

async function measure() {
  const requests = arg('requests', 50), chars = arg('chars', 10_000), rounds = arg('rounds', 10);
  const text = textOf(chars);
  console.log(`server benchmark; ${machineLine()}; text: ${humanTexts().length > 0 ? 'human prose of the shared AI-text sets' : 'the benchmarks\' prose (datasets absent)'}`);
  const pool = await measureMode('pool', text, requests, rounds);
  const thread = await measureMode('thread', text, requests, rounds);
  console.log(`${rounds} rounds of ${requests} concurrent ${chars}-character AI-text requests, GET /health every 10 ms; ` +
    `Node ${process.version}, ${availableParallelism()} cores (pool threads: ${Math.max(1, availableParallelism() - 1)})`);
  console.log('mode'.padEnd(8), 'health p50 ms'.padStart(14), 'p99 ms'.padStart(9), 'max ms'.padStart(9), 'samples'.padStart(8),
    'AI-text req/s'.padStart(14), '503s'.padStart(6));
  for (const r of [pool, thread]) {
    console.log(r.mode.padEnd(8), r.p50.toFixed(1).padStart(14), r.p99.toFixed(1).padStart(9), r.max.toFixed(1).padStart(9),
      String(r.samples).padStart(8), r.perSecond.toFixed(1).padStart(14), String(r.refused).padStart(6));
  }
  console.log(`pool / main thread: health p99 x${(pool.p99 / thread.p99).toFixed(3)}, max x${(pool.max / thread.max).toFixed(3)}, ` +
    `throughput x${(pool.perSecond / thread.perSecond).toFixed(2)}`);
  console.log(`at the end: ${machineLine()}`);
}
