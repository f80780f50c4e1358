import { createServer } from 'node:http';
import type { RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import * as z from 'zod';
import { MemoryLedger } from '@content-analysis/credits';
import { ApiError, defineFeature, Engine, SNAKE_CASE_CREDITS } from '../src/index.js';
import type { EngineOptions, Feature } from '../src/index.js';

export interface Probe {
  events: string[];
}

/**
 * A feature for tests: costs `cost` credits, records when it plans and analyses, and fails its analysis when
 * the request says so. It is a real feature in every other respect (validated request, result schema).
 */
export function probeFeature(probe: Probe, options: { id?: string; cost?: number; errorStyle?: 'v2' | 'advanced'; fetch?: boolean } = {}): Feature<any, any> {
  const id = options.id ?? 'probe';
  return defineFeature({
    id,
    title: 'Probe',
    description: 'A test feature.',
    routes: [`/v2/${id}`],
    errorStyle: options.errorStyle ?? 'v2',
    request: z.object({ fail: z.boolean().default(false), url: z.string().optional() }),
    result: z.object({ status: z.number(), echo: z.string(), credits_used: z.number(), credits_remaining: z.number() }),
    credits: SNAKE_CASE_CREDITS,
    statusField: true,
    async plan(request: { fail: boolean; url?: string }, context) {
      probe.events.push('plan');
      let echo = 'ok';
      if (options.fetch && request.url) {
        const fetched = await context.fetchRemote(request.url, { accept: ['text/plain'] });
        echo = fetched.bytes.toString('utf8');
      }
      return {
        cost: options.cost ?? 10,
        analyse: async () => {
          probe.events.push('analyse');
          if (request.fail) throw new Error('analysis exploded');
          return { echo };
        },
      };
    },
  });
}

/** The ApiError a promise rejects with; fails the test if it resolves or rejects with anything else. */
export async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

/** An engine with an in-memory ledger and one account of `credits` credits, and that account's token. */
export async function meteredEngine(options: Omit<EngineOptions, 'ledger'> & { credits?: number } = {}) {
  const { credits = 2000, ...engineOptions } = options;
  const ledger = new MemoryLedger();
  const engine = new Engine({ ledger, ...engineOptions });
  const account = await ledger.createAccount({ credits });
  const { token } = await ledger.createToken(account.id);
  return { ledger, engine, accountId: account.id, token };
}

/** Fetch options that route every host name to a local test server, through a public-looking address. */
export function routeToLocal(port: () => number): NonNullable<EngineOptions['fetch']> {
  return { resolve: async () => [{ address: '93.184.216.34', family: 4 }], dial: () => ({ host: '127.0.0.1', port: port() }) };
}

/** A loopback HTTP server for the duration of a test file. */
export async function startLocalServer(handler: RequestListener): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
