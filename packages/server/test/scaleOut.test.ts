import type { Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PostgresLedger } from '@content-analysis/credits';
import { Engine, textCompareFeature } from '@content-analysis/engine';
import { close, createApiServer, listen, RedisRateLimiter } from '../src/index.js';
import { deleteKeys, dropSchema, freshKeyPrefix, freshSchema, postgresSkipReason, postgresUrl, redisSkipReason, redisUrl } from './services.js';

/**
 * Two API nodes in this process, on their own ports, sharing one PostgreSQL schema and one Redis key prefix: fresh
 * ones for each test, removed after it.
 */
const skip = (await redisSkipReason('Scale-out tests')) ?? (await postgresSkipReason('Scale-out tests'));

interface Node {
  url: string;
  server: Server;
  ledger: PostgresLedger;
  limiter: RedisRateLimiter;
}

describe.skipIf(skip !== undefined)('two API nodes sharing Redis and PostgreSQL', () => {
  let schema: string;
  let keyPrefix: string;
  let nodes: Node[];

  beforeEach(async () => {
    schema = freshSchema();
    keyPrefix = freshKeyPrefix();
    nodes = [];
    for (let i = 0; i < 2; i++) {
      const ledger = await PostgresLedger.open({ connectionString: postgresUrl, schema, maxConnections: 4 });
      const limiter = await RedisRateLimiter.open({ url: redisUrl, keyPrefix, burst: 10, perSecond: 0.01 });
      const engine = new Engine({ ledger, features: [textCompareFeature], fetch: {} });
      const server = createApiServer({ engine, rateLimit: limiter, log: () => undefined });
      const { url } = await listen(server, 0);
      nodes.push({ url, server, ledger, limiter });
    }
  });

  afterEach(async () => {
    for (const node of nodes) {
      node.server.closeAllConnections();
      await close(node.server);
      await node.limiter.close();
      await node.ledger.close();
    }
    await deleteKeys(keyPrefix);
    await dropSchema(schema);
  });

  async function client(credits = 2000): Promise<{ accountId: string; token: string }> {
    const account = await nodes[0]!.ledger.createAccount({ credits });
    const { token } = await nodes[0]!.ledger.createToken(account.id);
    return { accountId: account.id, token };
  }

  function compare(node: Node, token: string, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${node.url}/v2/text-compare`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
      body: JSON.stringify({ first_text: 'one two three four', second_text: 'one two three five' }), // 4 credits
    });
  }

  it('holds one rate limit across both nodes: the 11th request of a limit of 10 gets 429', async () => {
    const { token } = await client();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await compare(nodes[i % 2]!, token)).status);
    expect(statuses).toEqual(Array(10).fill(200));
    for (const node of nodes) {
      const refused = await compare(node, token);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('100');
      expect(await refused.json()).toEqual({ status: 429, error: 'TOO_MANY_REQUESTS', description: 'The rate limit is exceeded.' });
    }
    // Another client has its own bucket on both nodes.
    const other = await client();
    expect((await compare(nodes[1]!, other.token)).status).toBe(200);
  });

  it('shares the ledger: a token made on node A works on node B, and a charge on A shows on B', async () => {
    const { accountId, token } = await client(100);
    const onA = await compare(nodes[0]!, token);
    expect(((await onA.json()) as { credits_remaining: number }).credits_remaining).toBe(96);
    expect(await nodes[1]!.ledger.balance(accountId)).toBe(96);
    const onB = await compare(nodes[1]!, token);
    expect(((await onB.json()) as { credits_remaining: number }).credits_remaining).toBe(92);
    expect(await nodes[0]!.ledger.balance(accountId)).toBe(92);
  });

  it('charges concurrent requests spread over both nodes exactly', async () => {
    const { accountId, token } = await client(40); // ten 4-credit requests
    const all = await Promise.all(Array.from({ length: 14 }, (_, i) => compare(nodes[i % 2]!, token)));
    const statuses = all.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 402 || s === 429)).toBe(true);
    expect(await nodes[1]!.ledger.balance(accountId)).toBe(0);
  });

  it('echoes the request id on either node, and gives one to a request without', async () => {
    const { token } = await client();
    for (const [i, node] of nodes.entries()) {
      const echoed = await compare(node, token, { 'x-request-id': `scale-out-${i}` });
      expect(echoed.headers.get('x-request-id')).toBe(`scale-out-${i}`);
      expect((await fetch(`${node.url}/health`)).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
