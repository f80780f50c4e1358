// Throughput and latency of the HTTP API scaled out, each against the embedded default (one `serve` with its SQLite
// ledger, in-process rate limits and analyses) measured in the same run:
// - text compare with 1 and 2 API nodes sharing PostgreSQL and Redis (the cost of the shared stores);
// - image detection through the analysis queue, one API node with 1 and with 2 `content-analysis worker` processes
//   (the cost of the queue, and what a second worker adds).
// Every node and worker is a real child process of the built CLI (node packages/cli/dist/bin.js), the nodes on free
// 127.0.0.1 ports; this process is the load generator and spreads requests round-robin over a setup's nodes. The
// shared setups use a fresh PostgreSQL schema and fresh Redis key prefixes, all removed at the end (also after a
// failure).
// Usage: node scripts/setup.mjs && node benchmarks/scale-out/bench.mjs [--concurrency 32] [--requests 1000]
//          [--rounds 5] [--serial 300] [--words 150] [--image-concurrency 8] [--image-requests 40]
//          [--image-serial 25] [--worker-concurrency 2]
// Environment: CONTENT_ANALYSIS_BENCH_POSTGRES (default postgres://postgres@127.0.0.1:5432/test),
//              CONTENT_ANALYSIS_BENCH_REDIS (default redis://127.0.0.1:6379),
//              CONTENT_ANALYSIS_DATASETS (default ../shared/datasets: the photo of the image requests, the ImageNet jeep
//              at its own 1280 x 960, and the human prose of the text-compare requests; benchmarks/lib/realInputs.mjs).
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
import { cameraPhotos, humanProse, humanTexts, machineLine } from '../lib/realInputs.mjs';

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
const imageConcurrency = arg('image-concurrency', 8), imageRequests = arg('image-requests', 40);
const imageSerial = arg('image-serial', 25), workerConcurrency = arg('worker-concurrency', 2);

// The server's default rate limit is 60 requests at once, then 10 a second, per token. Requests go round-robin over
// this many tokens of one account, so the benchmark never reaches a limit (it checks: a 429 fails the run) while
// every request still goes through the limiter (in process, or Redis's script).
const TOKENS = 400;

/** Two texts of about `words` words each (human prose, else the benchmarks' prose), the second with every seventh word changed. */
function texts(count) {
  const first = (humanTexts().length > 0 ? humanProse(count * 12) : proseOf(count * 7)).split(/\s+/).slice(0, count);
  const second = first.map((word, i) => (i % 7 === 3 ? `${word}s` : word));
  return JSON.stringify({ first_text: first.join(' '), second_text: second.join(' ') });
}

/**
 * Starts the CLI's `command` with `args`; `ready` resolves with the first match of `readyPattern` in its output (for
 * `serve`, its URL). Its output is kept for error messages.
 */
function startChild(command, args, cwd, readyPattern) {
  const child = spawn(process.execPath, [bin, command, ...args], {
    cwd, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CONTENT_ANALYSIS_DATABASE_URL: '', CONTENT_ANALYSIS_REDIS_URL: '', CONTENT_ANALYSIS_DB: '' },
  });
  let output = '';
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} ${args.join(' ')} did not start in 60 s:\n${output}`)), 60_000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = readyPattern.exec(output);
      if (match) { clearTimeout(timer); resolve(match[1] ?? match[0]); }
    });
    child.stderr.on('data', (chunk) => { output += chunk; });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${command} exited with ${code}:\n${output}`)); });
  });
  outputs.set(child, () => output);
  return { child, ready };
}

/** The output of each started child, for the report of a failed run. */
const outputs = new Map();

/** Starts `serve` with `args`; `url` resolves once it listens. */
function startNode(args, cwd) {
  const { child, ready } = startChild('serve', ['--port', '0', '--no-tool-server', ...args], cwd, /listening on (http:\/\/\S+)/);
  return { child, url: ready };
}

/** Starts `worker` with `args`; `ready` resolves once it takes jobs. */
function startWorker(args, cwd) {
  return startChild('worker', ['--concurrency', String(workerConcurrency), ...args], cwd, /taking jobs/);
}

async function stopNode(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * One POST of `body` to `path`; resolves with its status and latency in ms. A kept-alive connection that the server
 * closed as it was reused (the race every keep-alive client has) is retried once on a new one, as Node's docs advise.
 */
function post(agent, url, path, token, body, retried = false) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(`${url}${path}`, {
      method: 'POST', agent,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'content-length': Buffer.byteLength(body) },
    }, (res) => {
      res.on('error', reject);
      res.resume();
      res.once('end', () => resolve({ status: res.statusCode, ms: performance.now() - started }));
    });
    req.on('error', (error) => {
      if (!retried && req.reusedSocket && error.code === 'ECONNRESET') resolve(post(agent, url, path, token, body, true));
      else {
        error.message += ` (${url}${path}, after ${(performance.now() - started).toFixed(0)} ms on a ${req.reusedSocket ? 'reused' : 'new'} connection${retried ? ', a retry' : ''})`;
        reject(error);
      }
    });
    req.end(body);
  });
}

/** `count` requests (the setup's `path` and `body`), `parallel` at a time, round-robin over its nodes and the tokens. */
async function load(setup, count, parallel) {
  let next = 0;
  const latencies = [], statuses = new Map();
  const started = performance.now();
  const lane = async () => {
    while (next < count) {
      const i = next++;
      const { status, ms } = await post(setup.agent, setup.urls[i % setup.urls.length], setup.path, setup.tokens[i % setup.tokens.length], setup.body);
      latencies.push(ms);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  // Every lane ends before a failure is reported, so that no request is left running when the children stop.
  const failed = (await Promise.allSettled(Array.from({ length: parallel }, lane))).find((lane) => lane.status === 'rejected');
  if (failed) throw new Error(`${setup.name}: ${failed.reason.message}`, { cause: failed.reason });
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

/** A camera photo at its own resolution (the ImageNet jeep, 1280 x 960, 216 KB) as base64, the body of every image request. */
async function photo() {
  const [jeep] = cameraPhotos(['jeep']);
  if (jeep === undefined) throw new Error('the ImageNet jeep photo of the shared datasets was not found: set CONTENT_ANALYSIS_DATASETS');
  return jeep.bytes.toString('base64');
}

/**
 * Warms every setup up, then runs `rounds` rounds that alternate between the setups (so that a change of load on a
 * shared machine touches all of them): `count` requests `parallel` at a time, then `serialCount / rounds` one at a time.
 */
async function measure(setups, { count, parallel, serialCount, warmup }) {
  for (const setup of setups) await load(setup, warmup, parallel); // JIT, connections, pools, models
  const results = setups.map(() => ({ serial: [], loaded: [] }));
  for (let round = 0; round < rounds; round++) {
    for (const [i, setup] of setups.entries()) {
      results[i].loaded.push(await load(setup, count, parallel));
      results[i].serial.push(await load(setup, Math.ceil(serialCount / rounds), 1));
    }
  }
  return results.map((r) => ({ loaded: summary(r.loaded), serial: summary(r.serial) }));
}

function report(title, setups, table) {
  console.log(`${title}; Node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0].toFixed(1)} at the end`);
  console.log('setup'.padEnd(44), 'req/s'.padStart(8), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), '| 1 at a time: p50 ms'.padStart(22), 'p99 ms'.padStart(8));
  for (const [i, setup] of setups.entries()) {
    const { loaded, serial: one } = table[i];
    console.log(setup.name.padEnd(44), loaded.perSecond.toFixed(1).padStart(8), loaded.p50.toFixed(2).padStart(8),
      loaded.p99.toFixed(2).padStart(8), one.p50.toFixed(2).padStart(22), one.p99.toFixed(2).padStart(8));
  }
}

async function main() {
  console.log(`scale-out benchmark; ${machineLine()}; text compare on ${humanTexts().length > 0 ? 'human prose of the shared AI-text sets' : 'the benchmarks\' prose (datasets absent)'}`);
  const unique = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const schema = `bench_scale_out_${unique}`;
  const prefix = `content-analysis-bench:${unique}:`;
  // Rate-limit keys, and the two queues: node A's (one worker) and node B's (two workers).
  const rateLimits = `${prefix}rate:`, queueOne = `${prefix}queue-1`, queueTwo = `${prefix}queue-2`;
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
    const shared = ['--database', postgresUrl, '--database-schema', schema, '--redis', redisUrl, '--redis-prefix', rateLimits];
    const nodeA = startNode([...shared, '--queue-prefix', queueOne], dir), nodeB = startNode([...shared, '--queue-prefix', queueTwo], dir);
    const workers = [queueOne, queueTwo, queueTwo].map((queue) => startWorker(['--redis', redisUrl, '--queue-prefix', queue], dir));
    children.push(embedded.child, nodeA.child, nodeB.child, ...workers.map((w) => w.child));
    const [embeddedUrl, urlA, urlB] = await Promise.all([embedded.url, nodeA.url, nodeB.url, ...workers.map((w) => w.ready)]);

    // Text compare: the one-node setup is node A alone; node B idles meanwhile. No worker takes part.
    const compare = { agent, path: '/v2/text-compare', body: texts(words) };
    const textSetups = [
      { name: 'embedded (SQLite, in-process limits)', urls: [embeddedUrl], tokens: embeddedTokens, ...compare },
      { name: '1 node (PostgreSQL + Redis)', urls: [urlA], tokens: sharedTokens, ...compare },
      { name: '2 nodes (PostgreSQL + Redis)', urls: [urlA, urlB], tokens: sharedTokens, ...compare },
    ];
    const text = await measure(textSetups, { count: requests, parallel: concurrency, serialCount: serial, warmup: 200 });
    report(`POST /v2/text-compare, two texts of ${words} words; ${rounds} rounds of ${requests} requests ${concurrency} ` +
      `at a time, and ${serial} one at a time`, textSetups, text);
    const [base, one, two] = text;
    console.log(`req/s against embedded: 1 node x${(one.loaded.perSecond / base.loaded.perSecond).toFixed(2)}, ` +
      `2 nodes x${(two.loaded.perSecond / base.loaded.perSecond).toFixed(2)}; 2 nodes / 1 node x${(two.loaded.perSecond / one.loaded.perSecond).toFixed(2)}`);
    const stores = one.serial.p50 - base.serial.p50;
    console.log(`per-request overhead of PostgreSQL + Redis (p50 one at a time, 1 node - embedded): ${stores.toFixed(2)} ms`);

    // Image detection: node A queues to its one worker, node B to its two; the embedded node analyses in-process.
    const detect = { agent, path: '/v2/image-detection', body: JSON.stringify({ image: await photo() }) };
    const imageSetups = [
      { name: 'embedded (in-process analysis)', urls: [embeddedUrl], tokens: embeddedTokens, ...detect },
      { name: `1 node + 1 worker (queue, concurrency ${workerConcurrency})`, urls: [urlA], tokens: sharedTokens, ...detect },
      { name: `1 node + 2 workers (queue, concurrency ${workerConcurrency})`, urls: [urlB], tokens: sharedTokens, ...detect },
    ];
    const image = await measure(imageSetups, { count: imageRequests, parallel: imageConcurrency, serialCount: imageSerial, warmup: 2 * imageConcurrency });
    console.log();
    report(`POST /v2/image-detection, one 1280 x 960 camera JPEG (ImageNet jeep); ${rounds} rounds of ${imageRequests} requests ${imageConcurrency} at a ` +
      `time, and ${imageSerial} one at a time`, imageSetups, image);
    const [inProcess, oneWorker, twoWorkers] = image;
    console.log(`req/s against embedded: 1 worker x${(oneWorker.loaded.perSecond / inProcess.loaded.perSecond).toFixed(2)}, ` +
      `2 workers x${(twoWorkers.loaded.perSecond / inProcess.loaded.perSecond).toFixed(2)}; 2 workers / 1 worker ` +
      `x${(twoWorkers.loaded.perSecond / oneWorker.loaded.perSecond).toFixed(2)}`);
    const queued = oneWorker.serial.p50 - inProcess.serial.p50;
    console.log(`per-request overhead of the queue (p50 one at a time, 1 node + 1 worker - embedded): ${queued.toFixed(2)} ms, ` +
      `of which the shared stores (text compare above) ${stores.toFixed(2)} ms`);
    console.log(`at the end: ${machineLine()}`);
  } catch (error) {
    // What the children said, and whether they are still up, before they are stopped.
    console.log(`failed: ${machineLine()}`);
    for (const [i, child] of children.entries()) {
      const said = outputs.get(child)?.() ?? '';
      console.log(`child ${i} (${child.spawnargs.slice(2, 3).join(' ')}): exit ${child.exitCode ?? 'running'}${child.signalCode ? ` signal ${child.signalCode}` : ''}; last output:\n${said.slice(-1500)}`);
    }
    throw error;
  } finally {
    agent.destroy();
    await Promise.all(children.map(stopNode));
    rmSync(dir, { recursive: true, force: true });
    await deleteKeys(prefix);
    await dropSchema(schema);
  }
}

await main();
