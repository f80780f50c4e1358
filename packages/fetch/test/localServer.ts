import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { deflateSync, gzipSync } from 'node:zlib';
import { expect } from 'vitest';
import { FetchError } from '../src/index.js';

/** A loopback HTTP server that records what it was asked. */
export interface LocalServer {
  port: number;
  /** Paths requested, in order. */
  requests: string[];
  /** Request headers, in order. */
  requestHeaders: IncomingMessage['headers'][];
  /** Resolves when the connection of the n-th request (from 0) closes; true if the client hung up first. */
  closed: (index: number) => Promise<boolean>;
  close: () => Promise<void>;
}

export type Route = (request: IncomingMessage, response: ServerResponse, server: LocalServer) => void;

/** Starts a server on 127.0.0.1, port 0, dispatching on the path. Unknown paths answer 404. */
export async function startLocalServer(routes: Record<string, Route>): Promise<LocalServer> {
  const sockets = new Set<Socket>();
  const closings: Promise<boolean>[] = [];
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    local.requests.push(path);
    local.requestHeaders.push(request.headers);
    closings.push(
      new Promise((resolve) => response.once('close', () => resolve(!response.writableFinished))),
    );
    const route = routes[path.split('?')[0] ?? '/'];
    if (route === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    route(request, response, local);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const local: LocalServer = {
    port: (server.address() as AddressInfo).port,
    requests: [],
    requestHeaders: [],
    closed: (index) => closings[index] ?? Promise.reject(new Error(`no request ${index}`)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return local;
}

/** A public address the tests "resolve" names to; `dial` maps it to the loopback server. */
export const PUBLIC_ADDRESS = '93.184.216.34';

/** Options that send every checked address to the local server, remembering what dial saw. */
export function routeTo(server: LocalServer, answers: string[] = [PUBLIC_ADDRESS]) {
  const dialed: string[] = [];
  const resolved: string[] = [];
  return {
    dialed,
    resolved,
    resolve: async (hostname: string) => {
      resolved.push(hostname);
      return answers.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
    },
    dial: (address: string) => {
      dialed.push(address);
      return { host: '127.0.0.1', port: server.port };
    },
  };
}

/** Start of a 1x1 PNG (signature, IHDR, IDAT, IEND), written for these tests: enough for sniffing. */
export const PNG_BYTES = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

export const HTML_BYTES = Buffer.from('<!DOCTYPE html><html><body>hello</body></html>');

/** Answers with the given body and headers. */
export function send(body: Buffer | string, headers: Record<string, string | number> = {}, status = 200): Route {
  return (_request, response) => {
    response.writeHead(status, headers).end(body);
  };
}

/** Answers with a redirect. */
export function redirect(location: string, status = 302): Route {
  return (_request, response) => {
    response.writeHead(status, { location }).end();
  };
}

export { deflateSync, gzipSync };

/** The FetchError a fetch rejects with; fails the test if it resolves or rejects with anything else. */
export async function rejection(promise: Promise<unknown>): Promise<FetchError> {
  const error = await promise.then(
    () => {
      throw new Error('the fetch succeeded');
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(FetchError);
  return error as FetchError;
}
