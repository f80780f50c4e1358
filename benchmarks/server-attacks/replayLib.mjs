// The parts of the attack replay (replay.mjs, and packages/cli/test/attackReplay.test.ts for a fast subset): the
// attack site every attack URL points to, the two topologies as processes of the built CLI (`serve` on its embedded
// SQLite ledger; two API nodes and a worker on PostgreSQL and Redis), accounts and tokens made with the CLI, the
// input attacks of issue 26, and one attack's replay: answers, nodes up, peak RSS of every process, credits charged
// against expected from the ledger, and GET /health latency during the attack measured by a separate process.
import { execFile, fork, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { constants, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { greyPng, inflatingPdf, joinedWords, manyParagraphDocx, pixelHeavyPng, vowellessToken } from '../../scripts/fuzz/lib/attacks.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
export const ROOT = join(HERE, '..', '..');
export const BIN = join(ROOT, 'packages', 'cli', 'dist', 'bin.js');
const HOOK = pathToFileURL(join(HERE, 'dialHook.mjs')).href;
/**
 * Peak resident memory per process that the README promises during any of these attacks, in MiB (3.5 GiB): a warm
 * process (0.4-0.6 GB) plus the largest work one request may do, a 49-Mpx advanced analysis (about 2.4 GB, run
 * alone by the pixel budget); every other attack stays under about 2.1 GB.
 */
export const RSS_BOUND_MIB = 3584;
/** The public address the attack URLs name; dialHook.mjs sends its connections to the attack site. */
export const SITE = 'http://93.184.216.34';

const dist = (pkg) => import(pathToFileURL(join(ROOT, 'packages', pkg, 'dist', 'index.js')).href);

/** Prose of real words for the texts of the attacks (75 words a paragraph). */
const PARAGRAPH = 'The harbour town woke slowly that winter, and the fishermen argued about the weather before they took ' +
  'their boats beyond the breakwater. Some of them remembered the storm of the previous year, when the lighthouse ' +
  'keeper had stayed awake for three nights and the baker had fed half the village from his ovens. Nobody expected ' +
  'the sea to be kind, yet every morning they went out again and came back with something to sell at the market.';

/** `n` words of the prose, repeated as needed. */
export function proseWords(n) {
  const words = PARAGRAPH.split(' ');
  return Array.from({ length: n }, (_, i) => words[i % words.length]).join(' ');
}

/** A PNG of `width` x `height` that declares its size and whose IDAT inflates to every row (about 100 KB for 100 Mpx). */
function declaredPng(width, height) {
  // The rows deflated 100 at a time with a full flush, the segment repeated: the inflated stream is every row.
  const rows = 100;
  const segment = deflateRawSync(Buffer.alloc((width + 1) * rows), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const parts = [Buffer.from([0x78, 0xda])];
  for (let y = 0; y < height; y += rows) parts.push(segment);
  parts.push(Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff, 0, 0, 0, 0]));
  return greyPng(width, height, Buffer.concat(parts));
}

/** A web page of `text` in one paragraph. */
const page = (text) => `<!doctype html><html><head><title>Harbour</title></head><body><article><p>${text}</p></article></body></html>`;

/**
 * The attack site on loopback: what every attack URL answers, built on first use, and how often each path was
 * fetched. `/changing` answers 70 words the first time and 20,000 words after (issue 26 item 3); `/stall` never
 * answers.
 */
export async function startSite() {
  const fetches = new Map();
  const stalled = new Set();
  const cache = new Map();
  const once = (key, build) => {
    if (!cache.has(key)) cache.set(key, build());
    return cache.get(key);
  };
  const routes = {
    '/manyparas.docx': () => ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', once('docx', () => manyParagraphDocx(1_500_000))],
    '/bomb.pdf': () => ['application/pdf', once('pdf', () => inflatingPdf(1 << 30))],
    '/tags.html': () => ['text/html', once('tags', () => Buffer.from(`<!doctype html><html><body>${'<i>'.repeat(300_000)}<p>${proseWords(100)}</p></body></html>`))],
    '/pixels.png': () => ['image/png', once('pixels', () => pixelHeavyPng(7000, 7000))],
    '/huge.png': () => ['image/png', once('huge', () => declaredPng(10_000, 10_000))],
    '/small.png': () => ['image/png', once('small', () => noisePng(512, 512))],
  };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const count = (fetches.get(path) ?? 0) + 1;
    fetches.set(path, count);
    req.resume();
    if (path === '/stall') {
      stalled.add(res);
      return;
    }
    if (path === '/gzip.html') {
      const bomb = once('gzip', () => gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)));
      return void res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(bomb);
    }
    if (path.startsWith('/changing')) {
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(page(proseWords(count === 1 ? 70 : 20_000)));
    }
    const route = routes[path];
    if (!route) return void res.writeHead(404).end();
    const [type, bytes] = route();
    res.writeHead(200, { 'content-type': type }).end(bytes);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    fetches,
    /** Builds the large files before the timed part. */
    prepare(names = Object.keys(routes)) {
      for (const name of names) routes[name]?.();
    },
    bytes: (path) => routes[path]()[1],
    async close() {
      for (const res of stalled) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** This process's environment without the variables that choose stores, plus the site's port for dialHook.mjs. */
function childEnv(sitePort) {
  const env = { ...process.env, DOTENV_CONFIG_QUIET: 'true', REPLAY_SITE_PORT: String(sitePort) };
  for (const name of ['CONTENT_ANALYSIS_DATABASE_URL', 'CONTENT_ANALYSIS_DATABASE_SCHEMA', 'CONTENT_ANALYSIS_REDIS_URL',
    'CONTENT_ANALYSIS_REDIS_PREFIX', 'CONTENT_ANALYSIS_DB', 'CONTENT_ANALYSIS_SOURCES']) delete env[name];
  return env;
}

/** Runs the built CLI to completion and parses its JSON output. */
export function cli(args, env = childEnv(0)) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BIN, ...args], { env }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`content-analysis ${args.join(' ')}: ${stderr || error.message}`));
      resolve(JSON.parse(stdout));
    });
  });
}

/** The processes started here and still running. */
const children = new Set();

/** Kills the processes started here (replay.mjs calls it when interrupted). */
export function killStarted() {
  for (const child of children) child.kill('SIGKILL');
}

/** Starts `content-analysis <command> ...args` with the dial hook; resolves once `ready` matches a stdout line. */
async function startProcess(command, args, env, ready) {
  // REPLAY_NODE_ARGS: extra Node flags for the started processes (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
  const extra = (process.env.REPLAY_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...extra, '--import', HOOK, BIN, command, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const log = [];
  createInterface({ input: child.stderr }).on('line', (line) => log.push(line));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    const match = ready.exec(line);
    if (match) {
      lines.on('line', () => undefined);
      return { child, pid: child.pid, url: match[1], log, exited, name: command };
    }
  }
  throw new Error(`${command} exited before it was ready: ${log.slice(-20).join('\n')}`);
}

/**
 * `serve` on a SQLite ledger file in `dir` (and an SQLite plagiarism index there).
 * @returns {Promise<Topology>}
 */
export async function startServeTopology({ dir, sitePort, warm = true }) {
  const env = childEnv(sitePort);
  const stores = ['--db', join(dir, 'ledger.sqlite')];
  const node = await startProcess('serve', ['--port', '0', ...(warm ? [] : ['--no-warm']), ...stores, '--index', join(dir, 'sources.sqlite')], env, /listening on (http:\/\/\S+)/);
  node.name = 'serve';
  const { SqliteLedger } = await dist('credits');
  const ledger = new SqliteLedger({ path: join(dir, 'ledger.sqlite') });
  return topology('serve', [node], [], stores, env, ledger);
}

/**
 * Two API nodes (`serve --database --redis`) and one `worker`, on a schema and key prefixes of their own.
 * @returns {Promise<Topology>}
 */
export async function startScaleOut({ sitePort, postgres, redis, warm = true }) {
  const env = childEnv(sitePort);
  const tag = `replay_${process.pid}_${Date.now().toString(36)}`;
  const database = ['--database', postgres, '--database-schema', tag];
  const queue = ['--redis', redis, '--queue-prefix', `${tag}:queue:`];
  const warmFlag = warm ? [] : ['--no-warm'];
  // The first node migrates the schema; the second starts once it exists.
  const first = await startProcess('serve', ['--port', '0', ...warmFlag, ...database, ...queue, '--redis-prefix', `${tag}:rate:`], env, /listening on (http:\/\/\S+)/);
  const [second, worker] = await Promise.all([
    startProcess('serve', ['--port', '0', ...warmFlag, ...database, ...queue, '--redis-prefix', `${tag}:rate:`], env, /listening on (http:\/\/\S+)/),
    startProcess('worker', [...warmFlag, ...database, ...queue, '--concurrency', '2'], env, /(taking jobs)/),
  ]);
  first.name = 'node A';
  second.name = 'node B';
  worker.name = 'worker';
  worker.url = undefined;
  const { PostgresLedger } = await dist('credits');
  const ledger = await PostgresLedger.open({ connectionString: postgres, schema: tag, maxConnections: 2 });
  const t = topology('2 nodes + worker', [first, second], [worker], database, env, ledger);
  const close = t.close;
  t.close = async () => {
    await close();
    const pg = createRequire(join(ROOT, 'packages', 'credits', 'package.json'))('pg');
    const client = new pg.Client({ connectionString: postgres });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${tag}" CASCADE`);
    await client.end();
  };
  return t;
}

/**
 * @typedef {object} Topology
 * @property {string} name
 * @property {Array<{ child: import('node:child_process').ChildProcess, pid: number, url: string, name: string, log: string[] }>} nodes
 * @property {Array<{ child: import('node:child_process').ChildProcess, pid: number, name: string, log: string[] }>} workers
 */
function topology(name, nodes, workers, stores, env, ledger) {
  let accounts = 0;
  return {
    name,
    nodes,
    workers,
    ledger,
    processes: [...nodes, ...workers],
    /** An account of `credits` credits and a token for it, made with the CLI. */
    async account(credits) {
      const id = `replay-${process.pid}-${++accounts}`;
      await cli(['accounts', 'create', id, '--credits', String(credits), ...stores], env);
      const { token } = await cli(['tokens', 'create', '--account', id, ...stores], env);
      return { id, token };
    },
    async close() {
      await ledger.close();
      for (const p of [...workers, ...nodes]) {
        if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
      }
      await Promise.all([...workers, ...nodes].map((p) => Promise.race([p.exited, new Promise((r) => setTimeout(r, 15_000))])));
      for (const p of [...workers, ...nodes]) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    },
  };
}

/** Resident memory of a process now, in MiB (Linux), or NaN once it is gone. */
export function rssMiB(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
    return line ? Number(line.split(/\s+/)[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

const b64 = (bytes) => Buffer.from(bytes).toString('base64');
const json = (value) => JSON.stringify(value);

/**
 * The attacks. Each: the route, the body of each request, how many are sent at once, the answers allowed, and the
 * credits each answer should cost (from the price list and the words of the text as a reader counts them, not from
 * the server's answer); `credits` is the account's opening balance.
 */
export function attacks(site) {
  const spaced = proseWords(172);
  const ai = (words) => words; // 1 credit a word
  return [
    // No attack: the same /health measure for 3 s, the baseline of the run.
    { name: 'quiet', item: 0, quiet: 3000, route: '', body: () => '', allowed: [], cost: () => 0 },
    { name: 'docx-1.5M-paragraphs', item: 1, route: '/v2/ai-content-detection', body: () => json({ file: `${SITE}/manyparas.docx` }), allowed: [400], cost: () => 0 },
    { name: 'pdf-flate-1GiB', item: 6, route: '/v2/ai-content-detection', body: () => json({ file: `${SITE}/bomb.pdf` }), allowed: [400], cost: () => 0 },
    { name: 'pdf-flate-1GiB-plagiarism', item: 6, route: '/v2/plagiarism', body: () => json({ file: `${SITE}/bomb.pdf` }), allowed: [400], cost: () => 0 },
    { name: 'html-300k-tags', item: 2, route: '/v2/ai-content-detection', body: () => json({ website: `${SITE}/tags.html` }), allowed: [400], cost: () => 0 },
    { name: 'html-gzip-64MiB', item: 2, route: '/v2/ai-content-detection', body: () => json({ website: `${SITE}/gzip.html` }), allowed: [400, 403], cost: () => 0 },
    { name: 'png-7000x7000 x60', item: 7, route: '/v2/image-detection', at: 60, body: () => json({ image: b64(site.bytes('/pixels.png')) }), allowed: [200, 503], cost: (s) => (s === 200 ? 300 : 0), credits: 60 * 300 },
    { name: 'png-7000x7000-url x20', item: 7, route: '/v2/image-detection', at: 20, body: () => json({ url: `${SITE}/pixels.png` }), allowed: [200, 503], cost: (s) => (s === 200 ? 300 : 0), credits: 20 * 300 },
    { name: 'png-100Mpx-declared', item: 7, route: '/v2/image-detection', body: () => json({ image: b64(site.bytes('/huge.png')) }), allowed: [400], cost: () => 0 },
    { name: 'advanced-png-7000x7000 x8', item: 7, route: '/v2/advanced-image-detection', at: 8, body: () => json({ image_url: `${SITE}/pixels.png` }), allowed: [200, 503], cost: (s) => (s === 200 ? 500 : 0), credits: 8 * 500 },
    { name: 'advanced-png-100Mpx', item: 7, route: '/v2/advanced-image-detection', body: () => json({ image_url: `${SITE}/huge.png` }), allowed: [400], cost: () => 0 },
    { name: 'plagiarism-1,1,1-120k', item: 4, route: '/v2/plagiarism', body: () => json({ text: vowellessToken(119_000, `${proseWords(40)} `) }), allowed: [200], cost: (s, ctx) => (s === 200 ? 2 * ctx.words(vowellessToken(119_000, `${proseWords(40)} `)) : 0) },
    ...['.', '_', ':', "'"].map((joiner) => ({
      name: `ai-text-joined-by-${joiner}`, item: 5, route: '/v2/ai-content-detection', body: () => json({ text: joinedWords(spaced, joiner) }),
      // The text as written with spaces: what the detector reads.
      allowed: [200], cost: (s, ctx) => (s === 200 ? ai(ctx.words(spaced)) : 0),
    })),
    // A page of its own per replay (`/changing-<n>`): its first fetch is the 70 words.
    { name: 'website-70-then-20k-ai-text', item: 3, route: '/v2/ai-content-detection', body: (_, page) => json({ website: `${SITE}${page}` }), allowed: [200], cost: (s, ctx) => (s === 200 ? ai(ctx.words(proseWords(70))) : 0), fetchedOnce: true },
    { name: 'website-70-then-20k-plagiarism', item: 3, route: '/v2/plagiarism', body: (_, page) => json({ website: `${SITE}${page}` }), allowed: [200], cost: (s, ctx) => (s === 200 ? 2 * ctx.words(proseWords(70)) : 0), fetchedOnce: true },
    { name: 'race-40-images-balance-for-6', item: 8, route: '/v2/image-detection', at: 40, body: () => json({ image: b64(site.bytes('/small.png')) }), allowed: [200, 402], cost: (s) => (s === 200 ? 300 : 0), credits: 2000, exactly: { 200: 6, 402: 34 } },
    { name: 'mcp-duplicate-id-batch', item: 9, route: '/mcp/v1', body: (token) => json([1, 2].map(() => ({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'ai-content-detection', arguments: { text: proseWords(120) } } }))), allowed: [200, 400], cost: () => 0, mcp: true },
    { name: 'slow-mcp-300-unauthenticated', item: 2, stall: '/mcp/v1', route: '/v2/text-compare', at: 1, repeat: 20, body: () => json({ first_text: proseWords(30), second_text: proseWords(31) }), allowed: [200], cost: (s, ctx) => (s === 200 ? Math.ceil((ctx.words(proseWords(30)) + ctx.words(proseWords(31))) * 0.5) : 0) },
  ];
}

/** Keeps 300 unauthenticated connections to `path` that declare a 100,000-byte body and never send it. */
function stallConnections(url, path) {
  const { hostname, port, host } = new URL(url);
  const open = new Set();
  let stopped = false;
  const keep = () => {
    while (!stopped && open.size < 300) {
      const socket = connect(Number(port), hostname);
      socket.on('error', () => undefined);
      socket.once('connect', () => socket.write(`POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: 100000\r\n\r\n{"jsonrpc":"2.0",`));
      open.add(socket);
      socket.once('close', () => {
        open.delete(socket);
        if (!stopped) setTimeout(keep, 10);
      });
    }
  };
  keep();
  return () => {
    stopped = true;
    for (const socket of open) socket.destroy();
  };
}

/** The health poller, a process of its own so that the replay's own work does not slow what it measures. */
export function startHealthPoller(urls) {
  const child = fork(join(HERE, 'replay.mjs'), ['--poll', ...urls], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = new Promise((resolve) => child.once('message', resolve));
  return {
    ready,
    stop: () => new Promise((resolve) => {
      child.once('message', resolve);
      child.send('stop');
    }),
  };
}

/** The poller's body: GET /health on every URL every 10 ms, one at a time per URL, until told to stop. */
export async function pollHealth(urls) {
  let stopped = false;
  process.on('message', () => (stopped = true));
  const times = [];
  const statuses = {};
  // One request per node first, not counted: this process's first fetch pays for its own start (connection, JIT).
  await Promise.all(urls.map((url) => fetch(`${url}/health`).then((r) => r.arrayBuffer(), () => undefined)));
  process.send('ready');
  await Promise.all(urls.map(async (url) => {
    while (!stopped) {
      const t = performance.now();
      let status;
      try {
        const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(30_000) });
        await response.arrayBuffer();
        status = response.status;
      } catch {
        status = 'error';
      }
      times.push(performance.now() - t);
      statuses[status] = (statuses[status] ?? 0) + 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }));
  process.send({ times, statuses });
  process.disconnect();
}

export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

const creditsOf = (body) => (body && typeof body === 'object' ? body.credits_used ?? body.cost ?? body.creditsUsed : undefined);

/** Sends one request and reads its answer: status, error code and the credits it says it used. */
async function send(url, attack, token, page) {
  const started = performance.now();
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  if (attack.mcp) headers.accept = 'application/json';
  try {
    const response = await fetch(`${url}${attack.route}`, { method: 'POST', headers, body: attack.body(token, page), signal: AbortSignal.timeout(300_000) });
    const text = await response.text();
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      body = text.slice(0, 200);
    }
    const error = Array.isArray(body) ? body.map((b) => b.error?.code ?? (b.result?.isError ? 'tool-error' : 'ok')).join('+')
      : typeof body?.error === 'object' && body.error !== null ? body.error.code : body?.error;
    return { status: response.status, error, credits: creditsOf(body), ms: performance.now() - started };
  } catch (error) {
    return { status: 'lost', error: error.message, ms: performance.now() - started };
  }
}

/** True while the process runs and, for an API node, answers GET /health 200. */
async function isUp(p) {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return false;
  if (!p.url) return true;
  try {
    return (await fetch(`${p.url}/health`, { signal: AbortSignal.timeout(10_000) })).status === 200;
  } catch {
    return false;
  }
}

let pages = 0;

/** The opening balance of an attack's account unless the attack names one. */
export const OPENING_CREDITS = 1_000_000;

/**
 * Replays one attack on a topology: `at` requests at once (spread over the API nodes), `repeat` rounds of them, on
 * a new account of `attack.credits` (or `account`, made beforehand with that balance).
 * @returns {Promise<object>} a row of the table
 */
export async function replayAttack(t, attack, site, { words, account }) {
  const opening = attack.credits ?? OPENING_CREDITS;
  const { id, token } = account ?? await t.account(opening);
  const poller = startHealthPoller(t.nodes.map((n) => n.url));
  await poller.ready;
  const peaks = Object.fromEntries(t.processes.map((p) => [p.name, rssMiB(p.pid)]));
  const before = { ...peaks };
  const sampler = setInterval(() => {
    for (const p of t.processes) peaks[p.name] = Math.max(peaks[p.name], rssMiB(p.pid) || 0);
  }, 20);
  const page = `/changing-${++pages}`;
  const unstall = attack.stall ? stallConnections(t.nodes[0].url, attack.stall) : undefined;
  if (unstall) await new Promise((resolve) => setTimeout(resolve, 500));
  const started = performance.now();
  const answers = [];
  if (attack.quiet) await new Promise((resolve) => setTimeout(resolve, attack.quiet));
  for (let round = 0; round < (attack.quiet ? 0 : attack.repeat ?? 1); round++) {
    answers.push(...await Promise.all(Array.from({ length: attack.at ?? 1 }, (_, i) => send(t.nodes[i % t.nodes.length].url, attack, token, page))));
    if (attack.repeat) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  unstall?.();
  await new Promise((resolve) => setTimeout(resolve, 300));
  clearInterval(sampler);
  const health = await poller.stop();
  const up = await Promise.all(t.processes.map(isUp));
  const balance = await t.ledger.balance(id);
  const charged = opening - balance;
  const expected = answers.reduce((sum, a) => sum + attack.cost(a.status, { words }), 0);
  const reported = answers.reduce((sum, a) => sum + (a.status === 200 && typeof a.credits === 'number' ? a.credits : 0), 0);
  const statuses = {};
  for (const a of answers) {
    const key = a.status === 200 || a.error === undefined ? String(a.status) : `${a.status} ${typeof a.error === 'string' ? a.error : JSON.stringify(a.error)}`;
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  const problems = [];
  for (const a of answers) if (!attack.allowed.includes(a.status)) problems.push(`answer ${a.status} ${a.error ?? ''}`.trim());
  if (attack.exactly) {
    for (const [status, n] of Object.entries(attack.exactly)) {
      const got = answers.filter((a) => String(a.status) === status).length;
      if (got !== n) problems.push(`${got} answers ${status}, expected ${n}`);
    }
  }
  if (charged !== expected) problems.push(`charged ${charged}, expected ${expected}`);
  if (charged !== reported && !attack.mcp) problems.push(`charged ${charged}, answers report ${reported}`);
  up.forEach((ok, i) => ok || problems.push(`${t.processes[i].name} down`));
  const fetched = attack.fetchedOnce ? site.fetches.get(page) ?? 0 : undefined;
  if (fetched !== undefined && fetched !== (attack.at ?? 1)) problems.push(`${page} fetched ${fetched} times for ${attack.at ?? 1} request(s)`);
  return {
    topology: t.name,
    attack: attack.name,
    item: attack.item,
    requests: answers.length,
    statuses,
    up: up.every(Boolean),
    rss_before_mib: Object.fromEntries(Object.entries(before).map(([k, v]) => [k, Math.round(v)])),
    rss_peak_mib: Object.fromEntries(Object.entries(peaks).map(([k, v]) => [k, Math.round(v)])),
    charged,
    expected,
    ...(fetched === undefined ? {} : { fetched }),
    health_n: health.times.length,
    health_statuses: health.statuses,
    health_p50_ms: +quantile(health.times, 0.5).toFixed(1),
    health_p99_ms: +quantile(health.times, 0.99).toFixed(1),
    health_max_ms: +Math.max(...health.times).toFixed(1),
    seconds: +seconds.toFixed(2),
    problems,
  };
}

/** A PNG of grey noise (does not compress: 512 x 512 is about 260 KB). */
function noisePng(width, height) {
  const raw = Buffer.alloc((width + 1) * height);
  let x = 12345;
  for (let i = 0; i < raw.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    raw[i] = i % (width + 1) === 0 ? 0 : x >>> 24;
  }
  return greyPng(width, height, deflateSync(raw));
}
