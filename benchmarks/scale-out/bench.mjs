// Text-compare throughput and latency of the HTTP API with 1 and 2 API nodes sharing PostgreSQL and Redis, against
// the embedded default (one `serve` with its SQLite ledger and in-process rate limits) measured in the same run.
// Every node is a real `content-analysis serve` child process on a free 127.0.0.1 port (node packages/cli/dist/bin.js);
// this process is the load generator and spreads requests round-robin over a setup's nodes. The shared setups use a
// fresh PostgreSQL schema and Redis key prefix, both removed at the end (also after a failure).
// Usage: node scripts/setup.mjs && node benchmarks/scale-out/bench.mjs [--concurrency 32] [--requests 1000]
//          [--rounds 5] [--serial 300] [--words 150]
// Environment: CONTENT_ANALYSIS_BENCH_POSTGRES (default postgres://postgres@127.0.0.1:5432/test),
//              CONTENT_ANALYSIS_BENCH_REDIS (default redis://127.0.0.1:6379).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PostgresLedger, SqliteLedger } from '../../packages/credits/dist/index.js';
import { proseOf } from '../lib/prose.mjs';

// pg and ioredis are dependencies of the server package, not of the benchmarks: load them from there.
const fromServer = createRequire(fileURLToPath(new URL('../../packages/server/package.json', import.meta.url)));
const pg = fromServer('pg');
const { Redis } = fromServer('ioredis');

const bin = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));
const postgresUrl = process.env.CONTENT_ANALYSIS_BENCH_POSTGRES || 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.CONTENT_ANALYSIS_BENCH_REDIS || 'redis://127.0.0.1:6379';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`Expected positive integer for --${name} but received ${process.argv[at + 1]}`);
  return value;
};
const concurrency = arg('concurrency', 32), requests = arg('requests', 1000), rounds = arg('rounds', 5);
const serial = arg('serial', 300), words = arg('words', 150);

// The server's default rate limit is 60 requests at once, then 10 a second, per token. Requests go round-robin over
// this many tokens of one account, so the benchmark never reaches a limit (it checks: a 429 fails the run) while
// every request still goes through the limiter (in process, or Redis's script).
const TOKENS = 400;

/** Two texts of about `words` words each, the second with every seventh word changed. */
function texts(count) {
  const first = proseOf(count * 7).split(/\s+/).slice(0, count);
  const second = first.map((word, i) => (i % 7 === 3 ? `${word}s` : word));
  return JSON.stringify({ first_text: first.join(' '), second_text: second.join(' ') });
}

/** Starts `serve` with `args`; resolves with its URL once it listens. Its output is kept for error messages. */
function startNode(args, cwd) {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--no-tool-server', ...args], {
    cwd, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CONTENT_ANALYSIS_DATABASE_URL: '', CONTENT_ANALYSIS_REDIS_URL: '', CONTENT_ANALYSIS_DB: '' },
  });
  let output = '';
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve ${args.join(' ')} did not start in 60 s:\n${output}`)), 60_000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) { clearTimeout(timer); resolve(match[1]); }
    });
    child.stderr.on('data', (chunk) => { output += chunk; });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`serve exited with ${code}:\n${output}`)); });
  });
  return { child, url };
}

async function stopNode(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** One POST /v2/text-compare; resolves with its status and latency in ms. */
function post(agent, url, token, body) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(`${url}/v2/text-compare`, {
      method: 'POST', agent,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'content-length': Buffer.byteLength(body) },
    }, (res) => {
      res.resume();
      res.once('end', () => resolve({ status: res.statusCode, ms: performance.now() - started }));
    });
    req.once('error', reject);
    req.end(body);
  });
}

/** `count` requests, `parallel` at a time, round-robin over the setup's nodes and the tokens. */
async function load(setup, count, parallel, body) {
  let next = 0;
  const latencies = [], statuses = new Map();
  const started = performance.now();
  const lane = async () => {
    while (next < count) {
      const i = next++;
      const { status, ms } = await post(setup.agent, setup.urls[i % setup.urls.length], setup.tokens[i % setup.tokens.length], body);
      latencies.push(ms);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  const seconds = (performance.now() - started) / 1000;
  if (statuses.size !== 1 || !statuses.has(200)) {
    throw new Error(`${setup.name}: statuses ${[...statuses].map(([s, n]) => `${n} x ${s}`).join(', ')}`);
  }
  return { latencies, seconds };
}

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function summary(runs) {
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const seconds = runs.reduce((sum, r) => sum + r.seconds, 0);
  return { perSecond: latencies.length / seconds, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), count: latencies.length };
}

async function fund(ledger) {
  const account = await ledger.createAccount({ credits: 1e12 });
  const tokens = [];
  for (let i = 0; i < TOKENS; i++) tokens.push((await ledger.createToken(account.id, `bench ${i}`)).token);
  return tokens;
}

async function deleteKeys(prefix) {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

async function dropSchema(schema) {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

async function main() {
  const unique = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const schema = `bench_scale_out_${unique}`;
  const prefix = `content-analysis-bench:${unique}:`;
  const dir = mkdtempSync(join(tmpdir(), 'content-analysis-scale-out-'));
  const children = [];
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  try {
    // The embedded default: the SQLite ledger file, funded before the node opens it.
    const sqlitePath = join(dir, 'ledger.sqlite');
    const sqlite = new SqliteLedger({ path: sqlitePath });
    const embeddedTokens = await fund(sqlite);
    await sqlite.close();
    // The shared stores: a fresh schema (migrated by this ledger), one account for both nodes.
    const postgres = await PostgresLedger.open({ connectionString: postgresUrl, schema });
    const sharedTokens = await fund(postgres);
    await postgres.close();

    const embedded = startNode(['--db', sqlitePath], dir);
    const shared = ['--database', postgresUrl, '--database-schema', schema, '--redis', redisUrl, '--redis-prefix', prefix];
    const nodeA = startNode(shared, dir), nodeB = startNode(shared, dir);
    children.push(embedded.child, nodeA.child, nodeB.child);
    const [embeddedUrl, urlA, urlB] = await Promise.all([embedded.url, nodeA.url, nodeB.url]);
    // The one-node setup is node A alone; node B idles meanwhile.
    const setups = [
      { name: 'embedded (SQLite, in-process limits)', urls: [embeddedUrl], tokens: embeddedTokens, agent },
      { name: '1 node (PostgreSQL + Redis)', urls: [urlA], tokens: sharedTokens, agent },
      { name: '2 nodes (PostgreSQL + Redis)', urls: [urlA, urlB], tokens: sharedTokens, agent },
    ];
    const body = texts(words);
    for (const setup of setups) await load(setup, 200, concurrency, body); // warm-up: JIT, connections, pools

    // Rounds alternate between the setups, so that a change of load on a shared machine touches all of them.
    const results = setups.map(() => ({ serial: [], loaded: [] }));
    for (let round = 0; round < rounds; round++) {
      for (const [i, setup] of setups.entries()) {
        results[i].loaded.push(await load(setup, requests, concurrency, body));
        results[i].serial.push(await load(setup, Math.ceil(serial / rounds), 1, body));
      }
    }

    console.log(`POST /v2/text-compare, two texts of ${words} words; ${rounds} rounds of ${requests} requests ` +
      `${concurrency} at a time, and ${serial} one at a time; Node ${process.version}, ${availableParallelism()} cores, ` +
      `load average ${loadavg()[0].toFixed(1)} at the end`);
    console.log('setup'.padEnd(38), 'req/s'.padStart(8), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), '| 1 at a time: p50 ms'.padStart(22), 'p99 ms'.padStart(8));
    const table = results.map((r) => ({ loaded: summary(r.loaded), serial: summary(r.serial) }));
    for (const [i, setup] of setups.entries()) {
      const { loaded, serial: one } = table[i];
      console.log(setup.name.padEnd(38), loaded.perSecond.toFixed(0).padStart(8), loaded.p50.toFixed(2).padStart(8),
        loaded.p99.toFixed(2).padStart(8), one.p50.toFixed(2).padStart(22), one.p99.toFixed(2).padStart(8));
    }
    const [base, one, two] = table;
    console.log(`req/s against embedded: 1 node x${(one.loaded.perSecond / base.loaded.perSecond).toFixed(2)}, ` +
      `2 nodes x${(two.loaded.perSecond / base.loaded.perSecond).toFixed(2)}; 2 nodes / 1 node x${(two.loaded.perSecond / one.loaded.perSecond).toFixed(2)}`);
    console.log(`per-request overhead of PostgreSQL + Redis (p50 one at a time, 1 node - embedded): ` +
      `${(one.serial.p50 - base.serial.p50).toFixed(2)} ms`);
  } finally {
    agent.destroy();
    await Promise.all(children.map(stopNode));
    rmSync(dir, { recursive: true, force: true });
    await deleteKeys(prefix);
    await dropSchema(schema);
  }
}

await main();
