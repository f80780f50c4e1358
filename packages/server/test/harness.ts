import type { Server } from 'node:http';
import { expect } from 'vitest';
import { MemoryLedger } from '@content-analysis/credits';
import type { Ledger } from '@content-analysis/credits';
import { Engine, textCompareFeature } from '@content-analysis/engine';
import type { EngineOptions, Feature } from '@content-analysis/engine';
import { close, createApiServer, listen } from '../src/index.js';
import type { ApiServerOptions } from '../src/index.js';

export interface Harness {
  url: string;
  ledger: Ledger;
  engine: Engine;
  server: Server;
  accountId: string;
  token: string;
  post(path: string, body: unknown, init?: { token?: string | null; headers?: Record<string, string>; raw?: string | Uint8Array }): Promise<Response>;
  stop(): Promise<void>;
}

/** A real server on a free loopback port, with one funded account. */
export async function startHarness(
  options: {
    features?: Feature<any, any>[];
    credits?: number;
    server?: Omit<ApiServerOptions, 'engine'>;
    fetch?: EngineOptions['fetch'];
    services?: EngineOptions['services'];
    analysis?: EngineOptions['analysis'];
    ledger?: Ledger;
  } = {},
): Promise<Harness> {
  const ledger = options.ledger ?? new MemoryLedger();
  const engine = new Engine({
    ledger,
    features: options.features ?? [textCompareFeature],
    fetch: options.fetch ?? {},
    ...(options.services ? { services: options.services } : {}),
    ...(options.analysis ? { analysis: options.analysis } : {}),
  });
  const server = createApiServer({ engine, rateLimit: false, log: () => undefined, ...options.server });
  const { url } = await listen(server, 0);
  const account = await ledger.createAccount({ credits: options.credits ?? 2000 });
  const { token } = await ledger.createToken(account.id);
  return {
    url,
    ledger,
    engine,
    server,
    accountId: account.id,
    token,
    post(path, body, init = {}) {
      const headers: Record<string, string> = { 'content-type': 'application/json', ...init.headers };
      const bearer = init.token === undefined ? token : init.token;
      if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
      return fetch(`${url}${path}`, { method: 'POST', headers, body: init.raw ?? JSON.stringify(body) });
    },
    async stop() {
      server.closeAllConnections();
      await close(server);
      await ledger.close();
    },
  };
}

/** The JSON body of a response, after checking that it says it is JSON. */
export async function json(response: Response): Promise<any> {
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return response.json();
}
