import { createServer, request } from 'node:http';
import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '@content-analysis/engine';
import { readBody } from '../src/body.js';
import { ByteRate } from '../src/byteRate.js';
import { JsonShapeScanner } from '../src/jsonShape.js';
import { close, listen } from '../src/index.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await close(server);
  }
});

/** POSTs `chunks` one by one (chunked transfer), each once the previous one is written; resolves with the answer. */
function postChunks(url: string, chunks: Buffer[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    let next = 0;
    const write = (): void => {
      if (next === chunks.length) {
        req.end();
        return;
      }
      req.write(chunks[next++], () => setTimeout(write, 2));
    };
    write();
  });
}

describe('readBody', () => {
  it('refuses a body as soon as `inspect` finds a problem, inspecting nothing after it, and answers once the rest is drained', async () => {
    // 16 chunks of 64 KiB of object members: the 10,000 members are crossed in the second chunk.
    const members = Array.from({ length: 100_000 }, (_, i) => `"k${i}":0`).join(',');
    const text = Buffer.from(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{${members}}}`);
    const chunks = Array.from({ length: 16 }, (_, i) => text.subarray(i * 65_536, (i + 1) * 65_536));
    let inspected = 0;
    const server = createServer((req, res) => {
      const shape = new JsonShapeScanner({ maxDepth: 64, maxMembers: 10_000 });
      readBody(req, 2 * 1024 * 1024, { idleMs: 5000, totalMs: 10_000 }, {
        inspect: (chunk) => {
          inspected += chunk.length;
          const problem = shape.scan(chunk);
          return problem === undefined ? undefined : `The request body ${problem}.`;
        },
      }).then(
        () => res.end('read'),
        (error: ApiError) => res.writeHead(400).end(error.description),
      );
    });
    servers.push(server);
    const { url } = await listen(server, 0);
    const answer = await postChunks(url, chunks);
    expect(answer).toEqual({ status: 400, body: 'The request body has more than 10000 object members.' });
    expect(inspected).toBeLessThanOrEqual(2 * 65_536);
  });

  it('holds back a metered body to its byte budget, and not an unmetered one read at the same time', async () => {
    const rate = new ByteRate(256 * 1024, 64 * 1024);
    const finished: string[] = [];
    const server = createServer((req, res) => {
      const metered = req.url === '/metered';
      readBody(req, 2 * 1024 * 1024, { idleMs: 5000, totalMs: 20_000 }, metered ? { meter: rate } : {}).then((body) => {
        finished.push(req.url!);
        res.end(String(body.length));
      });
    });
    servers.push(server);
    const { url } = await listen(server, 0);
    const chunks = Array.from({ length: 16 }, () => Buffer.alloc(32 * 1024, 0x20));
    const started = performance.now();
    const metered = postChunks(`${url}/metered`, chunks).then((answer) => ({ ...answer, ms: performance.now() - started }));
    const free = await postChunks(`${url}/free`, [Buffer.concat(chunks)]);
    expect(free).toEqual({ status: 200, body: String(512 * 1024) });
    const held = await metered;
    expect(held.body).toBe(String(512 * 1024));
    // Before its last 32 KiB chunk is read, 416 KiB past the 64 KiB burst at 256 KiB/s: at least 1.6 s.
    expect(held.ms).toBeGreaterThan(1600);
    expect(finished).toEqual(['/free', '/metered']);
  });
});

describe('ByteRate', () => {
  it('lets a burst through, then asks for the wait that the rate sets', () => {
    let now = 0;
    const rate = new ByteRate(1000, 100, () => now);
    expect(rate.spend(100)).toBe(0);
    expect(rate.spend(50)).toBe(50);
    expect(rate.spend(50)).toBe(100);
    now = 150;
    expect(rate.spend(50)).toBe(0);
    // A quiet spell refills no more than the burst.
    now = 10_000;
    expect(rate.spend(100)).toBe(0);
    expect(rate.spend(1)).toBe(1);
  });
});
