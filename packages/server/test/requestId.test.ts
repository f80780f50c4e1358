import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineFeature, SNAKE_CASE_CREDITS, textCompareFeature } from '@content-analysis/engine';
import { MAX_REQUEST_ID_LENGTH } from '../src/index.js';
import { startHarness } from './harness.js';
import type { Harness } from './harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const failing = defineFeature({
  id: 'failing',
  title: 'failing',
  description: 'test feature that always fails',
  routes: ['/v2/failing'],
  errorStyle: 'v2',
  request: z.object({}),
  result: z.object({}),
  credits: SNAKE_CASE_CREDITS,
  statusField: true,
  async plan() {
    return { cost: 1, analyse: async () => { throw new Error('boom'); } };
  },
});

let h: Harness;
const logged: string[] = [];
beforeAll(async () => {
  h = await startHarness({ features: [textCompareFeature, failing], server: { log: (message) => logged.push(message) } });
});
afterAll(() => h.stop());

describe('x-request-id', () => {
  it('echoes a well-formed incoming id', async () => {
    const response = await h.post('/v2/text-compare', { first_text: 'a b', second_text: 'a c' }, { headers: { 'x-request-id': 'lb-7f3a.12:trace/9+=' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('lb-7f3a.12:trace/9+=');
  });

  it('replaces an id that is too long or has unsafe characters with a new UUID', async () => {
    for (const id of ['x'.repeat(MAX_REQUEST_ID_LENGTH + 1), 'a b', 'a"b', 'é', '<script>']) {
      const response = await fetch(`${h.url}/health`, { headers: { 'x-request-id': id } });
      expect(response.headers.get('x-request-id')).toMatch(UUID);
    }
    const longest = 'x'.repeat(MAX_REQUEST_ID_LENGTH);
    expect((await fetch(`${h.url}/health`, { headers: { 'x-request-id': longest } })).headers.get('x-request-id')).toBe(longest);
  });

  it('gives every request its own id when none comes in', async () => {
    const ids = await Promise.all([0, 1, 2].map(async () => (await fetch(`${h.url}/health`)).headers.get('x-request-id')));
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(3);
  });

  it('is on every answer: /health, HEAD, 404, 405, 401, 415, /openapi.json and the tool server', async () => {
    const answers = await Promise.all([
      fetch(`${h.url}/health`),
      fetch(`${h.url}/health`, { method: 'HEAD' }),
      fetch(`${h.url}/nowhere`),
      fetch(`${h.url}/v2/text-compare`),
      h.post('/v2/text-compare', {}, { token: null }),
      h.post('/v2/text-compare', {}, { headers: { 'content-type': 'text/plain' } }),
      fetch(`${h.url}/openapi.json`),
      fetch(`${h.url}/mcp/v1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
      fetch(`${h.url}/mcp/v1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 404, 405, 401, 415, 200, 200, 400]);
    for (const response of answers) expect(response.headers.get('x-request-id')).toMatch(UUID);
  });

  it('names the request id in the log line of a failed request', async () => {
    const response = await h.post('/v2/failing', {}, { headers: { 'x-request-id': 'req-failing-1' } });
    expect(response.status).toBe(500);
    expect(response.headers.get('x-request-id')).toBe('req-failing-1');
    expect(logged).toContain('request failed (x-request-id req-failing-1)');
  });
});
