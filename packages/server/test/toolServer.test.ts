import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHarness } from './harness.js';
import type { Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.stop());

async function connect(headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'content-analysis-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${h.url}/mcp/v1`), { requestInit: { headers } });
  await client.connect(transport);
  return client;
}

function rpc(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${h.url}/mcp/v1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const FIRST = 'The harbour town woke slowly that winter.';
const SECOND = 'The harbour town woke late that winter.';

describe('tools/list with the MCP SDK client', () => {
  it('lists text-compare without a token, with its schema, annotations and cost', async () => {
    const client = await connect();
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['text-compare']);
      const tool = tools[0]!;
      expect(tool.title).toBe('Text Compare');
      expect(tool.description).toMatch(/Cost: 0\.5 credits per word, counted over both texts\.$/);
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
      expect(tool.inputSchema.required).toEqual(['first_text', 'second_text']);
      expect(tool.inputSchema.properties).toMatchObject({
        first_text: { type: 'string', maxLength: 120000 },
        second_text: { type: 'string', maxLength: 120000 },
        apiKey: { type: 'string' },
      });
    } finally {
      await client.close();
    }
  });
});

describe('tools/call', () => {
  it('authenticates with the bearer header and charges what REST charges', async () => {
    const client = await connect({ authorization: `Bearer ${h.token}` });
    try {
      const before = await h.ledger.balance(h.accountId);
      const result = await client.callTool({ name: 'text-compare', arguments: { first_text: FIRST, second_text: SECOND } });
      expect(result.isError).toBeFalsy();
      const content = result.content as Array<{ type: string; text: string }>;
      expect(content).toHaveLength(1);
      const [summary, json] = content[0]!.text.split('\n');
      expect(summary).toBe('Similarity 85.71%: 6 of 7 words of the first text and 6 of 7 of the second match.');
      const body = JSON.parse(json!);
      expect(body.credits_used).toBe(7); // 7 + 7 words -> 7 credits
      expect(body.credits_remaining).toBe(before - 7);
      expect(await h.ledger.balance(h.accountId)).toBe(before - 7);
      // The same request over REST costs the same.
      const rest = ((await (await h.post('/v2/text-compare', { first_text: FIRST, second_text: SECOND })).json()) as any);
      expect(rest.credits_used).toBe(7);
      expect({ ...rest, credits_remaining: 0 }).toEqual({ ...body, credits_remaining: 0 });
    } finally {
      await client.close();
    }
  });

  it('authenticates with an apiKey argument', async () => {
    const client = await connect();
    try {
      const result = await client.callTool({ name: 'text-compare', arguments: { first_text: FIRST, second_text: SECOND, apiKey: h.token } });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('answers a tool error with isError and the error body when there is no token', async () => {
    const client = await connect();
    try {
      const result = await client.callTool({ name: 'text-compare', arguments: { first_text: FIRST, second_text: SECOND } });
      expect(result.isError).toBe(true);
      const text = (result.content as Array<{ text: string }>)[0]!.text;
      expect(JSON.parse(text)).toEqual({
        status: 401,
        error: 'UNAUTHORIZED',
        description: 'A valid API key must be passed as a bearer token in the Authorization header.',
      });
    } finally {
      await client.close();
    }
  });

  it('answers BAD_REQUEST naming the argument, and PAYMENT_REQUIRED, as tool errors', async () => {
    const poor = await h.ledger.createAccount({ credits: 1 });
    const { token } = await h.ledger.createToken(poor.id);
    const client = await connect({ authorization: `Bearer ${token}` });
    try {
      const bad = await client.callTool({ name: 'text-compare', arguments: { first_text: 5, second_text: SECOND } });
      expect(bad.isError).toBe(true);
      expect(JSON.parse((bad.content as Array<{ text: string }>)[0]!.text)).toMatchObject({
        error: 'BAD_REQUEST',
        description: 'first_text must be of type string but received number',
      });
      const poorResult = await client.callTool({ name: 'text-compare', arguments: { first_text: FIRST, second_text: SECOND } });
      expect(JSON.parse((poorResult.content as Array<{ text: string }>)[0]!.text)).toMatchObject({ status: 402, error: 'PAYMENT_REQUIRED' });
      expect(await h.ledger.balance(poor.id)).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('answers an unknown tool with a JSON-RPC error', async () => {
    const client = await connect({ authorization: `Bearer ${h.token}` });
    try {
      await expect(client.callTool({ name: 'no-such-tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    } finally {
      await client.close();
    }
  });

  it('names an unknown tool once, without the SDK prefix doubled in the client', async () => {
    const client = await connect({ authorization: `Bearer ${h.token}` });
    try {
      const error = (await client.callTool({ name: 'no-such-tool', arguments: {} }).catch((e: unknown) => e)) as Error;
      expect(error.message).toBe('MCP error -32602: Unknown tool: no-such-tool');
    } finally {
      await client.close();
    }
  });
});

describe('the JSON-RPC envelope over plain HTTP', () => {
  it('answers tools/list as JSON when the client accepts only JSON', async () => {
    const response = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = ((await response.json()) as any);
    expect(body.id).toBe(1);
    expect(body.result.tools[0].name).toBe('text-compare');
  });

  it('answers as a text/event-stream when the client lists it', async () => {
    const response = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { accept: 'application/json, text/event-stream' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await response.text();
    const data = text.split('\n').find((line) => line.startsWith('data: {'));
    expect(JSON.parse(data!.slice('data: '.length)).result.tools[0].name).toBe('text-compare');
  });

  it('calls a tool with the apiKey argument in a raw envelope', async () => {
    const response = await rpc({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'text-compare', arguments: { first_text: 'a b', second_text: 'a b', apiKey: h.token } },
    });
    const body = ((await response.json()) as any);
    expect(body.result.content[0].text.split('\n')[0]).toBe('Similarity 100%: 2 of 2 words of the first text and 2 of 2 of the second match.');
  });

  it('rejects a non-2.0 envelope with Invalid Request', async () => {
    const response = await rpc({ jsonrpc: '1.0', id: 4, method: 'tools/list' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any)).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32600, message: 'Invalid Request: a JSON-RPC 2.0 message needs "jsonrpc": "2.0" and a string "method"' },
    });
  });

  it('rejects malformed JSON with Parse error', async () => {
    const response = await rpc('{"jsonrpc": "2.0", "id": 5,');
    expect(response.status).toBe(400);
    const body = ((await response.json()) as any);
    expect(body.error.code).toBe(-32700);
    expect(body.id).toBeNull();
  });

  it('answers arguments that are not an object with Invalid params and a clear message', async () => {
    const response = await rpc(
      { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'text-compare', arguments: 'x' } },
      { authorization: `Bearer ${h.token}` },
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as any)).toEqual({
      jsonrpc: '2.0',
      id: 8,
      error: { code: -32602, message: 'Invalid params: arguments must be an object but received "x" of type string' },
    });
  });

  it('answers params without a tool name with Invalid params, in a batch too', async () => {
    const response = await rpc([
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { arguments: {} } },
      { jsonrpc: '2.0', id: 10, method: 'tools/call', params: 'text-compare' },
      { jsonrpc: '2.0', id: 11, method: 'tools/list' },
    ]);
    const body = ((await response.json()) as any[]).sort((a, b) => a.id - b.id);
    expect(body[0]).toEqual({ jsonrpc: '2.0', id: 9, error: { code: -32602, message: 'Invalid params: name must be a string but received undefined' } });
    expect(body[1]).toEqual({
      jsonrpc: '2.0',
      id: 10,
      error: { code: -32602, message: 'Invalid params: params must be an object with name and arguments but received "text-compare" of type string' },
    });
    expect(body[2].result.tools[0].name).toBe('text-compare');
  });

  // Found by the fuzzer (scripts/fuzz): the SDK answered these with -32603 and a raw validation dump, or with
  // "Parse error" for a body that parsed.
  it('answers other methods with bad params with Invalid params, not an internal or a parse error', async () => {
    const response = await rpc([
      { jsonrpc: '2.0', id: 21, method: 'initialize' },
      { jsonrpc: '2.0', id: 22, method: 'tools/list', params: { cursor: 5 } },
      { jsonrpc: '2.0', id: 23, method: 'ping', params: 'x' },
      { jsonrpc: '2.0', id: 24, method: 'tools/call', params: { name: 'text-compare', arguments: {}, _meta: 5 } },
      { jsonrpc: '2.0', id: 25, method: 'tools/list' },
    ]);
    expect(response.status).toBe(200);
    const body = ((await response.json()) as any[]).sort((a, b) => a.id - b.id);
    expect(body.slice(0, 4)).toEqual([
      { jsonrpc: '2.0', id: 21, error: { code: -32602, message: 'Invalid params: params: Invalid input: expected object, received undefined' } },
      { jsonrpc: '2.0', id: 22, error: { code: -32602, message: 'Invalid params: params.cursor: Invalid input: expected string, received number' } },
      { jsonrpc: '2.0', id: 23, error: { code: -32602, message: 'Invalid params: params must be an object but received "x" of type string' } },
      { jsonrpc: '2.0', id: 24, error: { code: -32602, message: 'Invalid params: params._meta: Invalid input: expected object, received number' } },
    ]);
    expect(body[4].result.tools[0].name).toBe('text-compare');
  });

  it('answers a single request whose params are not an object with Invalid params', async () => {
    const response = await rpc({ jsonrpc: '2.0', id: 26, method: 'tools/list', params: 5 });
    expect(response.status).toBe(200);
    expect(((await response.json()) as any)).toEqual({
      jsonrpc: '2.0',
      id: 26,
      error: { code: -32602, message: 'Invalid params: params must be an object but received 5 of type number' },
    });
  });

  it('rejects an unknown method with Method not found', async () => {
    const response = await rpc({ jsonrpc: '2.0', id: 6, method: 'resources/list' });
    const body = ((await response.json()) as any);
    expect(body.error.code).toBe(-32601);
  });

  it('rejects a wrong content type with 415', async () => {
    const response = await rpc('{}', { 'content-type': 'text/plain' });
    expect(response.status).toBe(415);
    expect((((await response.json()) as any)).error.code).toBe(-32000);
  });

  it('rejects a body over its limit and stays up', async () => {
    const response = await fetch(`${h.url}/mcp/v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: new Uint8Array(50 * 1024 * 1024).fill(0x20),
    });
    expect(response.status).toBe(400);
    expect((((await response.json()) as any)).error.code).toBe(-32600);
    expect((await rpc({ jsonrpc: '2.0', id: 7, method: 'tools/list' })).status).toBe(200);
  });
});

describe('the built-in tools', () => {
  it('lists every landed feature with its cost, and rejects a too-short ai-text-detection text', async () => {
    const { builtinFeatures } = await import('@content-analysis/engine');
    const full = await startHarness({ features: builtinFeatures() });
    try {
      const list = (await (
        await fetch(`${full.url}/mcp/v1`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        })
      ).json()) as any;
      const tools = list.result.tools as Array<{ name: string; title: string; description: string; inputSchema: any }>;
      expect(tools.map((t) => t.name).sort()).toEqual(['ai-image-detection', 'ai-text-detection', 'plagiarism-detection', 'text-compare']);
      const ai = tools.find((t) => t.name === 'ai-text-detection')!;
      expect(ai.title).toBe('AI Text Detection');
      expect(ai.description).toMatch(/Cost: 1 credit per word\.$/);
      expect(ai.inputSchema.properties.text).toMatchObject({ type: 'string', minLength: 300, maxLength: 150000 });

      const call = (await (
        await fetch(`${full.url}/mcp/v1`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${full.token}` },
          body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ai-text-detection', arguments: { text: 'short' } } }),
        })
      ).json()) as any;
      expect(call.result.isError).toBe(true);
      expect(JSON.parse(call.result.content[0].text)).toEqual({
        status: 400,
        error: 'BAD_REQUEST',
        description: 'text must be at least 300 characters long',
      });
      expect(await full.ledger.balance(full.accountId)).toBe(2000);
    } finally {
      await full.stop();
    }
  });

  it('states the human score of ai-text-detection at two decimals in the summary and the result', async () => {
    const { builtinFeatures } = await import('@content-analysis/engine');
    const full = await startHarness({ features: builtinFeatures() });
    const text =
      'My grandmother kept bees behind the shed for almost forty years, and every August the whole house smelled of ' +
      'wax. She never wore gloves. When I asked her why, she said the bees knew her hands better than she did, which ' +
      'made no sense to me at nine and makes only a little more sense now. The honey was dark, almost bitter some ' +
      'years, and she sold it from a card table at the end of the lane with a coffee tin for the money.';
    try {
      const call = (await (
        await fetch(`${full.url}/mcp/v1`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${full.token}` },
          body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ai-text-detection', arguments: { text } } }),
        })
      ).json()) as any;
      const [summary, json] = (call.result.content[0].text as string).split('\n');
      const body = JSON.parse(json!);
      expect(Math.round(body.score * 100) / 100).toBe(body.score);
      expect(summary).toMatch(new RegExp(`^Human score ${body.score} of 100 \\(`));
      expect(summary).toMatch(/^Human score \d{1,3}(\.\d{1,2})? of 100 /);
    } finally {
      await full.stop();
    }
  });
});
