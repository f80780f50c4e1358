import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Route = (request: IncomingMessage, response: ServerResponse) => void;

/** A loopback HTTP server for the fetch tests; unknown paths answer 404. */
export interface LocalServer {
  port: number;
  requests: string[];
  close: () => Promise<void>;
}

export async function startLocalServer(routes: Record<string, Route>): Promise<LocalServer> {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push(path);
    const route = routes[path];
    if (route === undefined) response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    else route(request, response);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

/** A public address names "resolve" to; `dial` sends it to the loopback server. The address policy still applies. */
export const PUBLIC_ADDRESS = '93.184.216.34';

/** The fetcher's test hooks for a server: every name resolves to {@link PUBLIC_ADDRESS}, dialled to the server. */
export function routeTo(server: LocalServer) {
  return {
    resolve: async () => [{ address: PUBLIC_ADDRESS, family: 4 as const }],
    dial: () => ({ host: '127.0.0.1', port: server.port }),
  };
}

export function send(body: Buffer | string, headers: Record<string, string | number> = {}, status = 200): Route {
  return (_request, response) => {
    response.writeHead(status, headers).end(body);
  };
}
