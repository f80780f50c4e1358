// GET /health latency, the answers of an authenticated client and the server's peak memory while the server attacks
// of issue 26 run against `createApiServer` with its defaults, each phase against the same server's quiet baseline
// measured in the same run. Three processes: the server, the attacker, and this one, which measures.
// Usage: node scripts/setup.mjs && node benchmarks/server-attacks/bench.mjs [--seconds 6] [--phases quiet,wide-mcp-1m]
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { readLoopDelay } from '../lib/loopDelay.mjs';
import { serveChild } from '../lib/serveChild.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`Expected positive integer for --${name} but received ${process.argv[at + 1]}`);
  return value;
};

const PHASES = ['quiet', 'slow-mcp', 'slow-rest', 'wide-mcp', 'wide-mcp-1m'];

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

/** A tools/list body of `members` members in its params: 600,000 make about 6.8 MB, 90,000 just under 1 MiB. */
function wideToolsList(members) {
  const params = Array.from({ length: members }, (_, i) => `"k${i}":0`).join(',');
  return `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{${params}}}`;
}

/**
 * The attacker, for `seconds`: `slow-mcp` keeps 300 unauthenticated /mcp/v1 connections open that never finish
 * their body (reopening the ones the server closes); `slow-rest` does the same on POST /v2/text-compare without a
 * token; `wide-mcp` sends 20 unauthenticated 6.8 MB tools/list bodies at a time, over and over; `wide-mcp-1m` the
 * same with bodies of 90,000 members, just under the 1 MiB an unauthenticated body may have.
 */
async function attack(kind, url, seconds) {
  const end = Date.now() + seconds * 1000;
  const host = new URL(url).host;
  const answered = {};
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
    const body = Buffer.from(wideToolsList(kind === 'wide-mcp' ? 600_000 : 90_000));
    const send = async () => {
      while (Date.now() < end) {
        const status = await postRaw(url, body);
        answered[status] = (answered[status] ?? 0) + 1;
      }
    };
    await Promise.all(Array.from({ length: 20 }, send));
  }
  process.send({ answered });
  process.exit(0);
}

/**
 * POSTs `body` to /mcp/v1 without a token on a connection of its own, written from a prepared buffer (the attacker
 * spends next to no CPU of its own, unlike `fetch`); resolves with the answer's status, or 'closed' when the
 * connection closed without one.
 */
function postRaw(url, body) {
  const { hostname, port, host } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let status = 'closed';
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      socket.write(`POST /mcp/v1 HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json\r\n` +
        `Connection: close\r\nContent-Length: ${body.length}\r\n\r\n`);
      socket.write(body);
    });
    socket.once('data', (chunk) => {
      status = /^HTTP\/1\.1 (\d+)/.exec(chunk.toString('latin1'))?.[1] ?? 'garbled';
      socket.destroy();
    });
    socket.once('close', () => resolve(status));
  });
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
  const at = process.argv.indexOf('--phases');
  const phases = at === -1 ? PHASES : process.argv[at + 1].split(',');
  const unknown = phases.filter((p) => !PHASES.includes(p));
  if (unknown.length > 0) throw new RangeError(`Expected phases among ${PHASES.join(', ')} for --phases but received ${unknown.join(', ')}`);
  const server = fork(fileURLToPath(import.meta.url), ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const target = await new Promise((resolve, reject) => {
    server.once('message', resolve);
    server.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
  const rows = [];
  try {
    await probe(target, 1); // warm-up
    for (const phase of phases) {
      const attacker = phase === 'quiet' ? undefined
        : fork(fileURLToPath(import.meta.url), ['--attack', phase, target.url, String(seconds + 1)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      const answered = attacker ? new Promise((resolve) => attacker.once('message', (m) => resolve(m.answered))) : {};
      if (attacker) await new Promise((resolve) => setTimeout(resolve, 1000)); // the attack is under way
      const load = loadavg()[0];
      await readLoopDelay(server);
      const result = await probe(target, seconds);
      const loop = await readLoopDelay(server);
      if (attacker) await new Promise((resolve) => attacker.once('exit', resolve));
      rows.push({ phase, load, ...result, loop, attacks: await answered, peak: peakMiB(server.pid) });
    }
  } finally {
    server.disconnect();
  }
  console.log(`createApiServer defaults, GET /health every 10 ms and an authenticated POST /v2/text-compare every 100 ms ` +
    `for ${seconds} s per phase; Node ${process.version}, ${availableParallelism()} cores; load average at the end ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log('(loop: the server\'s event-loop delay p99 / max in ms; own: the part of it the main thread spent running, p99 / max; ' +
    'wait: the share of the phase its main thread waited for a core; cpu: the server\'s CPU use in cores)');
  console.log('phase'.padEnd(12), 'load'.padStart(5), 'health p50'.padStart(11), 'p99'.padStart(8), 'max'.padStart(8), 'n'.padStart(5),
    'auth p50'.padStart(9), 'p99'.padStart(8), 'max'.padStart(8), 'loop p99'.padStart(9), 'max'.padStart(8), 'own p99'.padStart(8), 'max'.padStart(8), 'wait'.padStart(5), 'cpu'.padStart(5),
    'statuses'.padStart(12), 'peak RSS'.padStart(10));
  for (const r of rows) {
    const ms = (v) => `${v.toFixed(1)}`.padStart(8);
    console.log(r.phase.padEnd(12), r.load.toFixed(1).padStart(5), ms(quantile(r.health, 0.5)).padStart(11), ms(quantile(r.health, 0.99)),
      ms(r.health.at(-1)), String(r.health.length).padStart(5), ms(quantile(r.calls, 0.5)).padStart(9), ms(quantile(r.calls, 0.99)),
      ms(r.calls.at(-1)), ms(r.loop.p99).padStart(9), ms(r.loop.max), ms(r.loop.ownP99), ms(r.loop.ownMax),
      r.loop.waitShare.toFixed(2).padStart(5), r.loop.cpuShare.toFixed(2).padStart(5),
      JSON.stringify(r.statuses).padStart(12), `${r.peak.toFixed(0)} MiB`.padStart(10));
  }
  for (const r of rows) {
    const answers = Object.entries(r.attacks).map(([status, n]) => `${n} x ${status}`).join(', ');
    if (answers) console.log(`${r.phase}: the attacker's requests, answered over ${seconds + 1} s: ${answers}`);
  }
  const quiet = rows[0];
  for (const r of rows.slice(1)) {
    console.log(`${r.phase} / ${quiet.phase}: health p99 x${(quantile(r.health, 0.99) / quantile(quiet.health, 0.99)).toFixed(2)}, ` +
      `authenticated p99 x${(quantile(r.calls, 0.99) / quantile(quiet.calls, 0.99)).toFixed(2)}, loop p99 x${(r.loop.p99 / quiet.loop.p99).toFixed(2)}, own p99 ${r.loop.ownP99.toFixed(1)} ms against ${quiet.loop.ownP99.toFixed(1)} ms`);
  }
}
