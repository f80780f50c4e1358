import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { guardedFetch } from '../src/index.js';
import { gzipSync, routeTo, startLocalServer, rejection } from './localServer.js';
import type { LocalServer } from './localServer.js';

const MIB = 1024 * 1024;
let server: LocalServer;
// 50 MB of zeros, gzipped to about 50 KB.
const BOMB = gzipSync(Buffer.alloc(50 * 1000 * 1000), { level: 9 });

/** Writes `total` bytes (endless when undefined) in 64 KiB chunks, as fast as the client reads them. */
function stream(response: ServerResponse, total: number | undefined): void {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  const pump = (): void => {
    while (total === undefined || sent < total) {
      sent += chunk.length;
      if (!response.write(chunk)) {
        response.once('drain', pump);
        return;
      }
    }
    response.end();
  };
  response.once('close', () => response.removeAllListeners('drain'));
  pump();
}

beforeAll(async () => {
  server = await startLocalServer({
    '/declared-large': (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': 4 * MIB });
      stream(response, 4 * MIB);
    },
    '/endless': (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      stream(response, undefined);
    },
    '/bomb': (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(BOMB);
    },
    '/silent': () => {},
    '/trickle': (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => response.write('a'), 50);
      response.once('close', () => clearInterval(timer));
    },
  });
});

afterAll(async () => {
  await server.close();
});

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await run();
  return [value, performance.now() - start];
}

describe('guardedFetch limits', () => {
  it('rejects a declared Content-Length above maxBytes and hangs up', async () => {
    const index = server.requests.length;
    const error = await rejection(guardedFetch('http://files.example.com/declared-large', { ...routeTo(server), maxBytes: MIB }));
    expect(error).toMatchObject({ code: 'TOO_LARGE', message: `The resource is ${4 * MIB} bytes; the limit is ${MIB} bytes` });
    expect(await server.closed(index)).toBe(true);
  });

  it('rejects a body without Content-Length once it passes maxBytes and hangs up', async () => {
    const index = server.requests.length;
    const error = await rejection(guardedFetch('http://files.example.com/endless', { ...routeTo(server), maxBytes: MIB }));
    expect(error).toMatchObject({ code: 'TOO_LARGE', message: `The resource is more than ${MIB} bytes; the limit is ${MIB} bytes` });
    expect(await server.closed(index)).toBe(true);
  });

  it('stops decoding a gzip bomb at maxBytes', async () => {
    const [error, elapsed] = await timed(() => rejection(guardedFetch('http://files.example.com/bomb', routeTo(server))));
    expect(error.code).toBe('TOO_LARGE');
    expect(elapsed).toBeLessThan(2_000);
  });

  it('times out a server that never answers within about timeoutMs', async () => {
    const [error, elapsed] = await timed(() =>
      rejection(guardedFetch('http://files.example.com/silent', { ...routeTo(server), timeoutMs: 300 })),
    );
    expect(error).toMatchObject({ code: 'TIMEOUT', message: 'Fetching http://files.example.com/silent took longer than 300 ms' });
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1_000);
  });

  it('counts the body in the total time limit', async () => {
    const index = server.requests.length;
    const [error, elapsed] = await timed(() =>
      rejection(guardedFetch('http://files.example.com/trickle', { ...routeTo(server), timeoutMs: 300 })),
    );
    expect(error.code).toBe('TIMEOUT');
    expect(elapsed).toBeLessThan(1_000);
    expect(await server.closed(index)).toBe(true);
  });
});
