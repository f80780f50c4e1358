import { afterEach, describe, expect, it } from 'vitest';
import { jsonLog, ServerMetrics } from '../src/index.js';
import { startHarness } from './harness.js';
import type { Harness } from './harness.js';

const COMPARE = { first_text: 'one two three four', second_text: 'one two three five' };

describe('request logs, /metrics and /ready', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it('logs one JSON line per request with its id, route, status, duration and credits, and none for probes', async () => {
    const lines: string[] = [];
    harness = await startHarness({ server: { requestLog: jsonLog((line) => lines.push(line)) } });
    const paid = await harness.post('/v2/text-compare', COMPARE, { headers: { 'x-request-id': 'req-ops-1' } });
    expect(paid.status).toBe(200);
    const refused = await harness.post('/v2/text-compare', COMPARE, { token: null, headers: { 'x-request-id': 'req-ops-2' } });
    expect(refused.status).toBe(401);
    await fetch(`${harness.url}/health`);
    await fetch(`${harness.url}/nowhere`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const entries = lines.map((line) => JSON.parse(line));
    expect(entries).toEqual([
      { time: expect.any(String), level: 'info', event: 'request', request_id: 'req-ops-1', method: 'POST', route: '/v2/text-compare', status: 200, duration_ms: expect.any(Number), credits: 4 },
      { time: expect.any(String), level: 'info', event: 'request', request_id: 'req-ops-2', method: 'POST', route: '/v2/text-compare', status: 401, duration_ms: expect.any(Number), credits: 0 },
      { time: expect.any(String), level: 'info', event: 'request', request_id: expect.any(String), method: 'GET', route: 'unmatched', status: 404, duration_ms: expect.any(Number), credits: 0 },
    ]);
    expect(lines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
  });

  it('logs and counts the credits a tool-server call charged: each delivered tools/call of a batch, none for tools/list or a failed call', async () => {
    const lines: string[] = [];
    const metrics = new ServerMetrics({ defaultMetrics: false });
    harness = await startHarness({ server: { requestLog: jsonLog((line) => lines.push(line)), metrics } });
    const rpc = (body: unknown, id: string, token: string | null = harness!.token) => fetch(`${harness!.url}/mcp/v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-request-id': id, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const call = (id: number, args: Record<string, unknown> = COMPARE) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'text-compare', arguments: args } });
    expect((await rpc(call(1), 'mcp-one')).status).toBe(200);
    expect((await rpc([call(2), call(3)], 'mcp-batch')).status).toBe(200);
    expect((await rpc({ jsonrpc: '2.0', id: 4, method: 'tools/list' }, 'mcp-list', null)).status).toBe(200);
    const failed = await (await rpc(call(5, { first_text: 'x' }), 'mcp-failed')).json() as any;
    expect(failed.result.isError).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const credits = Object.fromEntries(lines.map((line) => JSON.parse(line)).map((e) => [e.request_id, [e.route, e.status, e.credits]]));
    expect(credits).toEqual({
      'mcp-one': ['/mcp/v1', 200, 4], 'mcp-batch': ['/mcp/v1', 200, 8], 'mcp-list': ['/mcp/v1', 200, 0], 'mcp-failed': ['/mcp/v1', 200, 0],
    });
    expect(await harness.ledger.balance(harness.accountId)).toBe(2000 - 12);
    expect(await metrics.text()).toContain('content_analysis_credits_charged_total{route="/mcp/v1"} 12\n');
  });

  it('serves Prometheus text with request counts, latency and credits per route', async () => {
    const metrics = new ServerMetrics({ defaultMetrics: false });
    harness = await startHarness({ server: { metrics } });
    for (let i = 0; i < 3; i++) expect((await harness.post('/v2/text-compare', COMPARE)).status).toBe(200);
    await harness.post('/v2/text-compare', COMPARE, { token: null });
    const response = await fetch(`${harness.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toContain('content_analysis_http_requests_total{route="/v2/text-compare",method="POST",status="200"} 3\n');
    expect(text).toContain('content_analysis_http_requests_total{route="/v2/text-compare",method="POST",status="401"} 1\n');
    expect(text).toContain('content_analysis_http_request_duration_seconds_count{route="/v2/text-compare",method="POST"} 4\n');
    expect(text).toContain('content_analysis_credits_charged_total{route="/v2/text-compare"} 12\n');
  });

  it('asks for the metrics token when one is set', async () => {
    harness = await startHarness({ server: { metricsToken: 'scrape-secret' } });
    expect((await fetch(`${harness.url}/metrics`)).status).toBe(401);
    const scraped = await fetch(`${harness.url}/metrics`, { headers: { authorization: 'Bearer scrape-secret' } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('content_analysis_process_cpu_seconds_total');
  });

  it('answers /ready 503 while a check fails and 200 once all pass, while /health answers throughout', async () => {
    let warm = false;
    harness = await startHarness({ server: { ready: async () => ({ models: warm, database: true }) } });
    const before = await fetch(`${harness.url}/ready`);
    expect(before.status).toBe(503);
    expect(await before.json()).toEqual({ status: 'not ready', checks: { models: false, database: true } });
    expect((await fetch(`${harness.url}/health`)).status).toBe(200);
    warm = true;
    const after = await fetch(`${harness.url}/ready`);
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual({ status: 'ready', checks: { models: true, database: true } });
  });
});
