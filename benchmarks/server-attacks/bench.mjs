// GET /health latency, the answers of an authenticated client and the server's peak memory while the server attacks
// of issue 26 run against `createApiServer` with its defaults, each phase against the same server's quiet baseline
// measured in the same run. Three processes: the server, the attacker, and this one, which measures.
// Usage: node scripts/setup.mjs && node benchmarks/server-attacks/bench.mjs [--seconds 6]
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { serveChild } from '../lib/serveChild.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`Expected positive integer for --${name} but received ${process.argv[at + 1]}`);
  return value;
};

if (process.argv[2] === '--serve') await serveChild();
else if (process.argv[2] === '--attack') await attack(process.argv[3], process.argv[4], Number(process.argv[5]));
else await measure();

/** Opens a connection that sends a head and the start of a body declared 100,000 bytes long, then nothing. */
function stall(url, head) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined);
  socket.once('connect', () => socket.write(`${head}Content-Length: 100000\r\n\r\n{"jsonrpc":"2.0",`));
  return socket;
}

/** A tools/list body of 600,000 members in its params (about 6.8 MB). */
function wideToolsList() {
  const params = Array.from({ length: 600_000 }, (_, i) => `"k${i}":0`).join(',');
  return `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{${params}}}`;
}

/**
 * The attacker, for `seconds`: `slow-mcp` keeps 300 unauthenticated /mcp/v1 connections open that never finish
 * their body (reopening the ones the server closes); `slow-rest` does the same on POST /v2/text-compare without a
 * token; `wide-mcp` sends 20 unauthenticated 6.8 MB tools/list bodies at a time, over and over.
 */
async function attack(kind, url, seconds) {
  const end = Date.now() + seconds * 1000;
  const host = new URL(url).host;
  if (kind === 'slow-mcp' || kind === 'slow-rest') {
    const head = kind === 'slow-mcp'
      ? `POST /mcp/v1 HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json\r\n`
      : `POST /v2/text-compare HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n`;
    const open = new Set();
    const keep = () => {
      while (open.size < 300 && Date.now() < end) {
        const socket = stall(url, head);
        open.add(socket);
        socket.once('close', () => {
          open.delete(socket);
          setTimeout(keep, 10);
        });
      }
    };
    keep();
    await new Promise((resolve) => setTimeout(resolve, end - Date.now()));
    for (const socket of open) socket.destroy();
  } else {
    const body = wideToolsList();
    const send = async () => {
      while (Date.now() < end) {
        await fetch(`${url}/mcp/v1`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body })
          .then((r) => r.arrayBuffer()).catch(() => undefined);
      }
    };
    await Promise.all(Array.from({ length: 20 }, send));
  }
  process.exit(0);
}

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Peak resident memory of a process so far, in MiB (Linux). */
function peakMiB(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmHWM:'));
  return line ? Number(line.split(/\s+/)[1]) / 1024 : NaN;
}

/** For `seconds`: GET /health every 10 ms, and an authenticated text-compare every 100 ms, each one at a time. */
async function probe({ url, token }, seconds) {
  const end = performance.now() + seconds * 1000;
  const health = [];
  const calls = [];
  const statuses = {};
  const timed = async (request, into) => {
    const t = performance.now();
    const response = await request();
    await response.arrayBuffer();
    into.push(performance.now() - t);
    return response.status;
  };
  const healthLoop = async () => {
    while (performance.now() < end) {
      const status = await timed(() => fetch(`${url}/health`), health);
      if (status !== 200) statuses[`health ${status}`] = (statuses[`health ${status}`] ?? 0) + 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const callLoop = async () => {
    while (performance.now() < end) {
      const status = await timed(() => fetch(`${url}/v2/text-compare`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ first_text: 'The harbour town woke slowly that winter.', second_text: 'The harbour town woke late that winter.' }),
      }), calls);
      statuses[status] = (statuses[status] ?? 0) + 1;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  await Promise.all([healthLoop(), callLoop()]);
  health.sort((a, b) => a - b);
  calls.sort((a, b) => a - b);
  return { health, calls, statuses };
}

async function measure() {
  const seconds = arg('seconds', 6);
  const server = fork(fileURLToPath(import.meta.url), ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const target = await new Promise((resolve, reject) => {
    server.once('message', resolve);
    server.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
  const rows = [];
  try {
    await probe(target, 1); // warm-up
    for (const phase of ['quiet', 'slow-mcp', 'slow-rest', 'wide-mcp']) {
      const attacker = phase === 'quiet' ? undefined
        : fork(fileURLToPath(import.meta.url), ['--attack', phase, target.url, String(seconds + 1)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      if (attacker) await new Promise((resolve) => setTimeout(resolve, 1000)); // the attack is under way
      const load = loadavg()[0];
      const result = await probe(target, seconds);
      if (attacker) await new Promise((resolve) => attacker.once('exit', resolve));
      rows.push({ phase, load, ...result, peak: peakMiB(server.pid) });
    }
  } finally {
    server.disconnect();
  }
  console.log(`createApiServer defaults, GET /health every 10 ms and an authenticated POST /v2/text-compare every 100 ms ` +
    `for ${seconds} s per phase; Node ${process.version}, ${availableParallelism()} cores`);
  console.log('phase'.padEnd(10), 'load'.padStart(5), 'health p50'.padStart(11), 'p99'.padStart(8), 'max'.padStart(8), 'n'.padStart(5),
    'auth p50'.padStart(9), 'p99'.padStart(8), 'max'.padStart(8), 'statuses'.padStart(10), 'peak RSS'.padStart(10));
  for (const r of rows) {
    const ms = (v) => `${v.toFixed(1)}`.padStart(8);
    console.log(r.phase.padEnd(10), r.load.toFixed(1).padStart(5), ms(quantile(r.health, 0.5)).padStart(11), ms(quantile(r.health, 0.99)),
      ms(r.health.at(-1)), String(r.health.length).padStart(5), ms(quantile(r.calls, 0.5)).padStart(9), ms(quantile(r.calls, 0.99)),
      ms(r.calls.at(-1)), JSON.stringify(r.statuses).padStart(10), `${r.peak.toFixed(0)} MiB`.padStart(10));
  }
  const quiet = rows[0];
  for (const r of rows.slice(1)) {
    console.log(`${r.phase} / quiet: health p99 x${(quantile(r.health, 0.99) / quantile(quiet.health, 0.99)).toFixed(2)}, ` +
      `authenticated p99 x${(quantile(r.calls, 0.99) / quantile(quiet.calls, 0.99)).toFixed(2)}`);
  }
}
