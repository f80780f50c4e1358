import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineFeature, SNAKE_CASE_CREDITS, textCompareFeature } from '@content-analysis/engine';
import type { Feature } from '@content-analysis/engine';
import type { ApiServerOptions } from '../src/index.js';
import { json, startHarness } from './harness.js';
import type { Harness } from './harness.js';

/**
 * The attacks of issue 26 on the HTTP server, each built here on loopback: bodies that never finish, unauthenticated
 * bodies meant to be parsed, and the tool server's protocol abuses. The servers use short body deadlines so the
 * tests see the cut-offs quickly; the defaults are in the README's security section.
 */

/** A feature that waits `waitMs` in its analysis; offered as the `slow-probe` tool too. 7 credits. */
function slowFeature(): Feature<any, any> {
  return defineFeature({
    id: 'slow-probe',
    title: 'Slow probe',
    description: 'A test feature.',
    routes: ['/v2/slow-probe'],
    errorStyle: 'v2',
    request: z.object({ waitMs: z.number().default(0) }),
    result: z.object({}),
    credits: SNAKE_CASE_CREDITS,
    statusField: true,
    async plan(request: { waitMs: number }, context) {
      return {
        cost: 7,
        analyse: async () => {
          await new Promise<void>((resolve, reject) => {
            const timer = setTimeout(resolve, request.waitMs);
            context.signal.addEventListener('abort', () => {
              clearTimeout(timer);
              reject(new Error('aborted'));
            }, { once: true });
          });
          return { ok: true };
        },
      };
    },
    tool: {
      name: 'slow-probe',
      title: 'Slow probe',
      description: 'Waits. Cost: 7 credits.',
      arguments: z.object({ waitMs: z.number() }),
      toRequest: (args) => ({ waitMs: args.waitMs }),
      summarize: () => 'done',
    },
  });
}

const harnesses: Harness[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const h of harnesses.splice(0)) await h.stop();
});

async function harness(server: Omit<ApiServerOptions, 'engine'> = {}, credits = 2000): Promise<Harness & { logged: unknown[] }> {
  const logged: unknown[] = [];
  const h = await startHarness({
    features: [textCompareFeature, slowFeature()],
    credits,
    server: { bodyIdleTimeoutMs: 1000, log: (_message, error) => void logged.push(error), ...server },
  });
  harnesses.push(h);
  return Object.assign(h, { logged });
}

interface Stalled {
  /** What the server sent before closing, as text. */
  received: () => string;
  /** Resolves with the milliseconds from the start until the server closed the connection. */
  closed: Promise<number>;
}

/** Opens a connection that sends `head` and `bodyStart` of a body declared `declared` bytes long, then nothing. */
async function stall(url: string, head: string, bodyStart: string, declared: number): Promise<Stalled> {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  const socket = connect(Number(port), hostname);
  sockets.push(socket);
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now() - started)));
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write(`${head}Content-Length: ${declared}\r\n\r\n${bodyStart}`);
  return { received: () => text, closed };
}

const toolHead = (host: string) =>
  `POST /mcp/v1 HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json\r\n`;
const restHead = (host: string, token?: string) =>
  `POST /v2/text-compare HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
  (token === undefined ? '' : `Authorization: Bearer ${token}\r\n`);

async function health(url: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${url}/health`);
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

const COMPARE = { first_text: 'one two three four', second_text: 'one two three five' }; // 4 credits

describe('bodies that never finish', () => {
  it('300 unauthenticated /mcp/v1 bodies that stall hold no place: an authenticated request and /health answer 200, and the stalled connections are cut', async () => {
    const h = await harness({ maxConcurrent: 8 });
    const host = new URL(h.url).host;
    const attack = await Promise.all(Array.from({ length: 300 }, () => stall(h.url, toolHead(host), '{"jsonrpc":"2.0",', 100_000)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const probes = [];
    for (let i = 0; i < 5; i++) probes.push(await health(h.url));
    expect(probes.map((p) => p.status)).toEqual([200, 200, 200, 200, 200]);
    const response = await h.post('/v2/text-compare', COMPARE);
    expect(response.status).toBe(200);
    expect((await json(response)).credits_used).toBe(4);
    // Past the 32 bodies read at once without a token, the rest are refused at once with 503; those being read are
    // answered 400 once a second passes without bytes, and every connection is closed.
    const closedAfter = await Promise.all(attack.map((a) => a.closed));
    const refused = attack.filter((a) => /^HTTP\/1\.1 503 /.test(a.received()));
    const cut = attack.filter((a) => /^HTTP\/1\.1 400 /.test(a.received()));
    expect(refused.length + cut.length).toBe(300);
    expect(refused.length).toBeGreaterThanOrEqual(300 - 32 * 3);
    for (const a of refused) expect(a.received()).toContain('"code":-32000');
    for (const a of cut) expect(a.received()).toContain('no bytes of the body arrived for 1 s');
    expect(Math.max(...closedAfter)).toBeLessThan(8000);
  }, 20_000);

  it('a REST request without a valid token is answered 401 before its body is read, and a stalled body is cut', async () => {
    const h = await harness({ maxConcurrent: 1 });
    const host = new URL(h.url).host;
    const attack = await Promise.all(Array.from({ length: 20 }, (_, i) => stall(h.url, restHead(host, i % 2 ? 'ca_wrong' : undefined), '{"first_text":', 100_000)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const a of attack) expect(a.received()).toMatch(/^HTTP\/1\.1 401 /);
    expect((await h.post('/v2/text-compare', COMPARE)).status).toBe(200);
    expect(Math.max(...(await Promise.all(attack.map((a) => a.closed))))).toBeLessThan(5000);
  }, 20_000);

  it('an authenticated body that stalls is answered 400 and cut, and holds no analysis place while it is read', async () => {
    const h = await harness({ maxConcurrent: 1 });
    const host = new URL(h.url).host;
    const stalled = await stall(h.url, restHead(host, h.token), '{"first_text":', 100_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await h.post('/v2/text-compare', COMPARE)).status).toBe(200);
    const closedAfter = await stalled.closed;
    expect(stalled.received()).toMatch(/^HTTP\/1\.1 400 /);
    expect(stalled.received()).toContain('The request body was not received in time: no bytes of the body arrived for 1 s.');
    expect(closedAfter).toBeGreaterThan(900);
    expect(closedAfter).toBeLessThan(4000);
  }, 20_000);

  it('a body that trickles a byte at a time is cut at the total deadline', async () => {
    const h = await harness({ bodyIdleTimeoutMs: 1000, bodyTimeoutMs: 1500 });
    const host = new URL(h.url).host;
    const trickle = await stall(h.url, restHead(host, h.token), '{', 1000);
    const socket = sockets.at(-1)!;
    const timer = setInterval(() => socket.writable && socket.write(' '), 200);
    try {
      const closedAfter = await trickle.closed;
      expect(trickle.received()).toContain('the body took longer than 1.5 s');
      expect(closedAfter).toBeLessThan(4000);
    } finally {
      clearInterval(timer);
    }
  }, 20_000);
});

describe('/health and the analysis places', () => {
  it('answers /health when every analysis place is taken, while a further analysis gets 503', async () => {
    const h = await harness({ maxConcurrent: 1 });
    const slow = h.post('/v2/slow-probe', { waitMs: 600 });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await health(h.url)).status).toBe(200);
    expect((await h.post('/v2/text-compare', COMPARE)).status).toBe(503);
    expect((await slow).status).toBe(200);
  });
});

/** A tools/list body with `keys` members in its params. */
function wideToolsList(keys: number): string {
  const params = Array.from({ length: keys }, (_, i) => `"k${i}":0`).join(',');
  return `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{${params}}}`;
}

describe('tool server bodies before authentication', () => {
  it('refuses an unauthenticated body over 1 MiB before parsing it (600,000 keys), naming the Authorization header', async () => {
    const h = await harness();
    const body = wideToolsList(600_000);
    expect(body.length).toBeGreaterThan(6 * 1024 * 1024);
    const response = await fetch(`${h.url}/mcp/v1`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as any;
    expect(answer.error.code).toBe(-32600);
    expect(answer.error.message).toContain('exceeds the limit of 1 MiB');
    expect(answer.error.message).toContain('Authorization header');
  });

  it('refuses a body with more than 10,000 object members before parsing it, even when authenticated', async () => {
    const h = await harness();
    const response = await fetch(`${h.url}/mcp/v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${h.token}` },
      body: wideToolsList(20_000),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).error).toEqual({ code: -32600, message: 'Invalid Request: The request body has more than 10000 object members.' });
  });

  it('refuses a body nested deeper than 64 levels before parsing it', async () => {
    const h = await harness();
    const deep = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"a":${'['.repeat(100)}${']'.repeat(100)}}}`;
    const response = await fetch(`${h.url}/mcp/v1`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: deep });
    expect(((await response.json()) as any).error.message).toBe('Invalid Request: The request body nests deeper than 64 levels.');
  });

  it('holds unauthenticated bodies to the shared byte budget, while an authenticated call is answered at once', async () => {
    const h = await harness({ unauthenticatedBytesPerSecond: 256 * 1024 });
    // Three valid 400 KB tools/list bodies without a token: 1.2 MB at 256 KiB/s (256 KiB at once) take over 3.5 s.
    const padded = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'x'.repeat(400_000) } });
    const finished: string[] = [];
    const started = performance.now();
    const unauthenticated = Array.from({ length: 3 }, () =>
      fetch(`${h.url}/mcp/v1`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: padded })
        .then(async (response) => {
          finished.push('unauthenticated');
          return { status: response.status, tools: ((await response.json()) as any).result?.tools?.length, ms: performance.now() - started };
        }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const call = await fetch(`${h.url}/mcp/v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${h.token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'text-compare', arguments: COMPARE } }),
    });
    finished.push('authenticated');
    expect(call.status).toBe(200);
    expect(((await call.json()) as any).result.isError).toBeUndefined();
    const listed = await Promise.all(unauthenticated);
    expect(finished).toEqual(['authenticated', 'unauthenticated', 'unauthenticated', 'unauthenticated']);
    for (const l of listed) expect(l).toMatchObject({ status: 200, tools: 2 });
    expect(Math.max(...listed.map((l) => l.ms))).toBeGreaterThan(3000);
  }, 20_000);

  it('still lists the tools without a token, and calls one with an apiKey argument', async () => {
    const h = await harness();
    const rpc = (body: unknown) => fetch(`${h.url}/mcp/v1`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
    const list = (await (await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).json()) as any;
    expect(list.result.tools.map((t: { name: string }) => t.name)).toContain('slow-probe');
    const call = (await (await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow-probe', arguments: { waitMs: 0, apiKey: h.token } } })).json()) as any;
    expect(call.result.isError).toBeUndefined();
    expect(await h.ledger.balance(h.accountId)).toBe(2000 - 7);
  });
});

describe('tool server protocol abuse', () => {
  function rpc(h: Harness, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${h.url}/mcp/v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  it('answers the methods __proto__ and constructor with Method not found, logging nothing', async () => {
    const h = await harness();
    for (const method of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const response = await rpc(h, `{"jsonrpc":"2.0","id":2,"method":${JSON.stringify(method)}}`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as any;
      expect(body).toMatchObject({ jsonrpc: '2.0', id: 2, error: { code: -32601 } });
    }
    expect(h.logged).toEqual([]);
  });

  it('answers ids that cannot correlate (1e308, null, 1.5, true, an object) with Invalid Request and id null', async () => {
    const h = await harness();
    for (const id of ['1e308', 'null', '1.5', 'true', '{}', '[1]']) {
      const response = await rpc(h, `{"jsonrpc":"2.0","id":${id},"method":"tools/list"}`);
      expect(response.status).toBe(400);
      const body = (await response.json()) as any;
      expect(body.id).toBeNull();
      expect(body.error.code).toBe(-32600);
      expect(body.error.message).toMatch(/^Invalid Request: the id .* is not a string or a safe integer$/);
    }
    // A string id and a safe integer still work.
    expect((await rpc(h, { jsonrpc: '2.0', id: 'a', method: 'tools/list' })).status).toBe(200);
    expect((await rpc(h, { jsonrpc: '2.0', id: Number.MAX_SAFE_INTEGER, method: 'tools/list' })).status).toBe(200);
  });

  it('refuses a batch of two tools/call with the same id, before charging anything', async () => {
    const h = await harness();
    const call = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'slow-probe', arguments: { waitMs: 0 } } };
    const response = await rpc(h, [call, call], { authorization: `Bearer ${h.token}` });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).error).toEqual({
      code: -32600, message: 'Invalid Request: the id 9 of type number appears twice in the batch; each answer is matched by its id',
    });
    expect(await h.ledger.balance(h.accountId)).toBe(2000);
    // Distinct ids are answered each and charged each.
    const both = (await (await rpc(h, [call, { ...call, id: 10 }], { authorization: `Bearer ${h.token}` })).json()) as any[];
    expect(both.map((b) => b.id).sort((a, b) => a - b)).toEqual([9, 10]);
    expect(await h.ledger.balance(h.accountId)).toBe(2000 - 14);
  });

  it('withdraws the charge of a tools/call whose client is gone before the answer, as REST does', async () => {
    const h = await harness();
    const abort = new AbortController();
    const call = rpc(h, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow-probe', arguments: { waitMs: 800 } } }, { authorization: `Bearer ${h.token}` });
    const gone = fetch(`${h.url}/mcp/v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${h.token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow-probe', arguments: { waitMs: 800 } } }),
      signal: abort.signal,
    }).catch(() => 'aborted');
    setTimeout(() => abort.abort(), 300);
    expect(await gone).toBe('aborted');
    expect((await call).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 900));
    // The delivered call is charged; the one whose client left is not (its reservation was released).
    expect(await h.ledger.balance(h.accountId)).toBe(2000 - 7);
    const entries = await h.ledger.history(h.accountId);
    expect(entries.filter((e) => e.kind === 'charge')).toHaveLength(2);
    expect(entries.filter((e) => e.kind === 'refund')).toHaveLength(1);
  });
});
