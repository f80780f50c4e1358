import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineFeature, SNAKE_CASE_CREDITS, ADVANCED_CREDITS, textCompareFeature } from '@content-analysis/engine';
import type { Feature } from '@content-analysis/engine';
import { json, startHarness } from './harness.js';
import type { Harness } from './harness.js';

/** A feature whose analysis can be told to fail, to wait, or to fetch a URL. */
function testFeature(id: string, options: { advanced?: boolean } = {}): Feature<any, any> {
  return defineFeature({
    id,
    title: id,
    description: 'test feature',
    routes: [`/v2/${id}`],
    errorStyle: options.advanced ? 'advanced' : 'v2',
    request: z.object({ fail: z.boolean().default(false), url: z.string().optional(), waitMs: z.number().default(0) }),
    result: z.object({}),
    credits: options.advanced ? ADVANCED_CREDITS : SNAKE_CASE_CREDITS,
    statusField: true,
    async plan(request: { fail: boolean; url?: string; waitMs: number }, context) {
      if (request.url) await context.fetchRemote(request.url, { accept: ['text/plain'] });
      return {
        cost: options.advanced ? 500 : 7,
        analyse: async () => {
          if (request.waitMs) await new Promise((resolve) => setTimeout(resolve, request.waitMs));
          if (request.fail) throw new Error('boom');
          return { ok: true };
        },
      };
    },
  });
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    features: [textCompareFeature, testFeature('probe'), testFeature('advanced-probe', { advanced: true })],
    // Every host resolves to a private address: any fetch must be refused before connecting.
    fetch: { resolve: async () => [{ address: '10.0.0.7', family: 4 }] },
  });
});
afterAll(async () => h.stop());

describe('POST /v2/text-compare', () => {
  it('answers the documented result and charges half a credit per word, rounded up', async () => {
    const before = await h.ledger.balance(h.accountId);
    const response = await h.post('/v2/text-compare', { first_text: 'The cat sat on the mat.', second_text: 'The cat sat on a mat.' });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.status).toBe(200);
    expect(body.credits_used).toBe(6); // 6 + 6 words = 12 -> 6 credits
    expect(body.credits_remaining).toBe(before - 6);
    expect(await h.ledger.balance(h.accountId)).toBe(before - 6);
    expect(body.first_text.total_word_count).toBe(6);
    expect(body.second_text.total_word_count).toBe(6);
  });

  it('rounds an odd total up: 3 + 2 words cost 3 credits', async () => {
    const body = await json(await h.post('/v2/text-compare', { first_text: 'one two three', second_text: 'one two' }));
    expect(body.credits_used).toBe(3);
  });
});

describe('errors', () => {
  it('UNAUTHORIZED without a token, with a wrong one, and with a malformed header', async () => {
    for (const token of [null, 'ca_notarealtoken', '']) {
      const response = await h.post('/v2/text-compare', { first_text: 'a', second_text: 'b' }, { token });
      expect(response.status).toBe(401);
      expect(await json(response)).toEqual({
        status: 401,
        error: 'UNAUTHORIZED',
        description: 'A valid API key must be passed as a bearer token in the Authorization header.',
      });
    }
  });

  it('UNSUPPORTED_MEDIA_TYPE for a body that is not declared JSON', async () => {
    const response = await h.post('/v2/text-compare', null, { raw: 'first_text=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(response.status).toBe(415);
    const body = await json(response);
    expect(body.error).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(body.description).toMatch(/application\/x-www-form-urlencoded/);
  });

  it('accepts application/json with a charset', async () => {
    const response = await h.post('/v2/text-compare', { first_text: 'a', second_text: 'a' }, { headers: { 'content-type': 'Application/JSON; charset=utf-8' } });
    expect(response.status).toBe(200);
  });

  it('BAD_REQUEST for malformed JSON, saying so', async () => {
    const response = await h.post('/v2/text-compare', null, { raw: '{"first_text": "a",' });
    expect(response.status).toBe(400);
    const body = await json(response);
    expect(body.error).toBe('BAD_REQUEST');
    expect(body.description).toMatch(/^Malformed JSON body: /);
  });

  it('BAD_REQUEST naming the field', async () => {
    const response = await h.post('/v2/text-compare', { first_text: 'a', second_text: ['b'] });
    expect(response.status).toBe(400);
    expect((await json(response)).description).toBe('second_text must be of type string but received array');
  });

  it('BAD_REQUEST for a 50 MB body, without reading it into memory, and the server stays up', async () => {
    const big = new Uint8Array(50 * 1024 * 1024).fill(0x20);
    const response = await h.post('/v2/text-compare', null, { raw: big });
    expect(response.status).toBe(400);
    expect((await json(response)).description).toBe('The request body exceeds the limit of 2 MiB for this endpoint.');
    const after = await h.post('/v2/text-compare', { first_text: 'still', second_text: 'up' });
    expect(after.status).toBe(200);
  });

  it('BAD_REQUEST for an over-long chunked body, answered only after the client has sent it all', async () => {
    // No content-length: the limit is found while reading. The answer must wait for the rest of the upload, or the
    // server closes the connection under a client that is still writing and the client sees a reset, not the 400.
    const { request } = await import('node:http');
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${h.url}/v2/text-compare`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      let sent = 0;
      const writeMore = (): void => {
        while (sent < 12) {
          sent++;
          if (!req.write(chunk)) {
            req.once('drain', () => setTimeout(writeMore, 5));
            return;
          }
        }
        req.end();
      };
      writeMore();
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).description).toBe('The request body exceeds the limit of 2 MiB for this endpoint.');
  });

  it('PAYMENT_REQUIRED when the balance is short, and nothing is charged', async () => {
    const poor = await h.ledger.createAccount({ credits: 6 });
    const { token } = await h.ledger.createToken(poor.id);
    const response = await h.post('/v2/probe', {}, { token });
    expect(response.status).toBe(402);
    expect(await json(response)).toEqual({
      status: 402,
      error: 'PAYMENT_REQUIRED',
      description: 'Insufficient credits: this request costs 7 credits and the balance is 6.',
    });
    expect(await h.ledger.balance(poor.id)).toBe(6);
  });

  it('FORBIDDEN for a URL that resolves to a private address', async () => {
    const response = await h.post('/v2/probe', { url: 'http://files.example.com/a.txt' });
    expect(response.status).toBe(403);
    const body = await json(response);
    expect(body.error).toBe('FORBIDDEN');
    expect(body.description).toMatch(/^Host files\.example\.com resolves to .*; only public addresses are allowed$/);
    expect(body.description).not.toMatch(/10\.0\.0\.7/);
  });

  it('BAD_REQUEST for a URL that is not public by its shape', async () => {
    const response = await h.post('/v2/probe', { url: 'http://localhost/a.txt' });
    expect(response.status).toBe(400);
    expect((await json(response)).error).toBe('BAD_REQUEST');
  });

  it('INTERNAL_SERVER_ERROR when an analysis fails, with no charge and no leak of the cause', async () => {
    const before = await h.ledger.balance(h.accountId);
    const response = await h.post('/v2/probe', { fail: true });
    expect(response.status).toBe(500);
    expect(await json(response)).toEqual({ status: 500, error: 'INTERNAL_SERVER_ERROR', description: 'Unexpected error.' });
    expect(await h.ledger.balance(h.accountId)).toBe(before);
  });

  it('404 for a path no mounted feature serves, never a fake result', async () => {
    for (const path of ['/v2/plagiarism', '/v2/ai-content-detection', '/v1/image-detection', '/v2/image-detection', '/v3/image-detection', '/v2/nothing']) {
      const response = await h.post(path, { text: 'x'.repeat(400) });
      expect(response.status).toBe(404);
      expect((await json(response)).error).toBe('NOT_FOUND');
    }
  });

  it('405 for another method on a feature path', async () => {
    const response = await fetch(`${h.url}/v2/text-compare`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});

describe('the advanced image detection error strings', () => {
  it('Unauthorized, Insufficient credits, Invalid URL provided, and the analysis failure without description', async () => {
    const unauthorized = await h.post('/v2/advanced-probe', {}, { token: null });
    expect(unauthorized.status).toBe(401);
    expect((await json(unauthorized)).error).toBe('Unauthorized');

    const poor = await h.ledger.createAccount({ credits: 499 });
    const { token } = await h.ledger.createToken(poor.id);
    const insufficient = await h.post('/v2/advanced-probe', {}, { token });
    expect(insufficient.status).toBe(402);
    expect((await json(insufficient)).error).toBe('Insufficient credits');

    const invalid = await h.post('/v2/advanced-probe', { url: 'http://user:pw@example.com/' });
    expect(invalid.status).toBe(400);
    const invalidBody = await json(invalid);
    expect(invalidBody.error).toBe('Invalid URL provided');
    expect(invalidBody.description).toMatch(/credentials/i);

    const before = await h.ledger.balance(h.accountId);
    const failed = await h.post('/v2/advanced-probe', { fail: true });
    expect(failed.status).toBe(500);
    expect(await json(failed)).toEqual({ status: 500, error: 'Error while analyzing image, please try again later or contact support' });
    expect(await h.ledger.balance(h.accountId)).toBe(before);

    const ok = await json(await h.post('/v2/advanced-probe', {}));
    expect(ok.cost).toBe(500);
    expect(ok.balance).toBe(before - 500);
  });
});

describe('GET /openapi.json', () => {
  it('serves the OpenAPI 3.1 document of the mounted paths', async () => {
    const response = await fetch(`${h.url}/openapi.json`);
    expect(response.status).toBe(200);
    const doc = await json(response);
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(['/mcp/v1', '/v2/advanced-probe', '/v2/probe', '/v2/text-compare']);
    expect(doc.servers[0].url).toBe(h.url);
  });
});

describe('/health', () => {
  it('answers GET with the status and the mounted features', async () => {
    const response = await fetch(`${h.url}/health`);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ status: 'ok', features: ['text-compare', 'probe', 'advanced-probe'] });
  });

  it('answers HEAD with 200 and no body, like GET', async () => {
    const response = await fetch(`${h.url}/health`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.text()).toBe('');
  });
});

describe('rate limiting and load shedding', () => {
  it('TOO_MANY_REQUESTS past the burst, with Retry-After', async () => {
    const limited = await startHarness({ server: { rateLimit: { burst: 3, perSecond: 0.5 } } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        statuses.push((await limited.post('/v2/text-compare', { first_text: 'a', second_text: 'a' })).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const response = await limited.post('/v2/text-compare', { first_text: 'a', second_text: 'a' });
      expect(response.headers.get('retry-after')).toBe('2');
      expect(await json(response)).toEqual({ status: 429, error: 'TOO_MANY_REQUESTS', description: 'The rate limit is exceeded.' });
      // Another client has its own bucket.
      const other = await limited.ledger.createAccount();
      const { token } = await limited.ledger.createToken(other.id);
      expect((await limited.post('/v2/text-compare', { first_text: 'a', second_text: 'a' }, { token })).status).toBe(200);
    } finally {
      await limited.stop();
    }
  });

  it('SERVICE_UNAVAILABLE when more requests are in flight than the server takes', async () => {
    const busy = await startHarness({ features: [testFeature('probe')], server: { maxConcurrent: 2 } });
    try {
      const slow = [busy.post('/v2/probe', { waitMs: 300 }), busy.post('/v2/probe', { waitMs: 300 })];
      await new Promise((resolve) => setTimeout(resolve, 50));
      const refused = await busy.post('/v2/probe', {});
      expect(refused.status).toBe(503);
      expect((await json(refused)).error).toBe('SERVICE_UNAVAILABLE');
      expect(refused.headers.get('retry-after')).toBe('1');
      expect((await Promise.all(slow)).map((r) => r.status)).toEqual([200, 200]);
    } finally {
      await busy.stop();
    }
  });
});

describe('concurrency', () => {
  it('200 concurrent charges over HTTP end with the exact balance, never below zero', async () => {
    const account = await h.ledger.createAccount({ credits: 1000 });
    const { token } = await h.ledger.createToken(account.id);
    // 7 credits each: 142 fit in 1000 (994), 58 must be refused.
    const responses = await Promise.all(Array.from({ length: 200 }, () => h.post('/v2/probe', {}, { token })));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(142);
    expect(statuses.filter((s) => s === 402)).toHaveLength(58);
    expect(await h.ledger.balance(account.id)).toBe(6);
  });
});
