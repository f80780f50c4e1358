import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, InitializeRequestSchema, ListToolsRequestSchema, PingRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { ApiError, toApiError, toJsonSchema, validateRequest } from '@content-analysis/engine';
import type { Engine, Feature } from '@content-analysis/engine';
import { bearerToken, clientKey } from './auth.js';
import { isJsonContentType, readBody } from './body.js';
import { ToolParamsError } from './errors.js';
import type { RateLimiter } from './rateLimiter.js';

export interface ToolServerContext {
  engine: Engine;
  limiter: RateLimiter | undefined;
  maxBodyBytes: number;
  version: string;
  log: (message: string, error: unknown) => void;
}

const API_KEY_ARGUMENT = z
  .string()
  .optional()
  .describe('Access token, for clients that cannot send an Authorization header.');

function jsonRpcError(res: ServerResponse, httpStatus: number, code: number, message: string, id: unknown = null): void {
  const payload = JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
  res.writeHead(httpStatus, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(payload)) });
  res.end(payload);
}

function isEnvelope(message: unknown): boolean {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return false;
  const m = message as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return false;
  if ('method' in m) return typeof m.method === 'string';
  return 'result' in m || 'error' in m;
}

function described(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const shown = typeof value === 'string' ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value) : String(value);
  return `${shown} of type ${typeof value}`;
}

/**
 * What is wrong with the params of a `tools/call` request, or undefined when their shape is right. The SDK would
 * refuse such params with an internal error and a raw validation dump; they are the caller's mistake.
 */
function toolCallParamsProblem(params: unknown): string | undefined {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    return `params must be an object with name and arguments but received ${described(params)}`;
  }
  const { name, arguments: args } = params as Record<string, unknown>;
  if (typeof name !== 'string') return `name must be a string but received ${described(name)}`;
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
    return `arguments must be an object but received ${described(args)}`;
  }
  return undefined;
}

/** The SDK's schema of each request the server answers: their params are checked before the SDK sees them. */
const REQUEST_SCHEMAS: Readonly<Record<string, { safeParse(value: unknown): { success: boolean; error?: { issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }> } } }>> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
};

/** What is wrong with the params of a request or notification, or undefined when nothing is. */
function paramsProblem(message: Record<string, unknown>): string | undefined {
  if (message.method === 'tools/call') {
    const problem = toolCallParamsProblem(message.params);
    if (problem !== undefined) return problem;
  }
  const { params } = message;
  if ('params' in message && (params === null || typeof params !== 'object' || Array.isArray(params))) {
    return `params must be an object but received ${described(params)}`;
  }
  const parsed = REQUEST_SCHEMAS[message.method as string]?.safeParse(message);
  if (parsed === undefined || parsed.success) return undefined;
  const issue = parsed.error?.issues[0];
  return issue ? `${issue.path.map(String).join('.') || 'params'}: ${issue.message}` : 'params are not valid';
}

/**
 * Takes the requests whose params have the wrong shape out of the SDK's way. The SDK answers params that are not
 * an object with "Parse error" (the body parsed fine), and params its schema refuses with an internal error and a
 * raw validation dump; both are the caller's mistake. Such a request becomes a well-formed `tools/call` with the
 * same id, whose handler answers "Invalid params" with the problem kept here; a notification loses its params
 * (nothing answers a notification).
 */
function setAsideBadParams(messages: unknown[]): { messages: unknown[]; problems: Map<unknown, string> } {
  const problems = new Map<unknown, string>();
  const kept = messages.map((message) => {
    const m = message as Record<string, unknown>;
    if (typeof m.method !== 'string') return message;
    const problem = paramsProblem(m);
    if (problem === undefined) return message;
    if (!('id' in m)) {
      const { params: _dropped, ...notification } = m;
      return notification;
    }
    problems.set(m.id, problem);
    return { jsonrpc: '2.0', id: m.id, method: 'tools/call', params: { name: '', arguments: {} } };
  });
  return { messages: kept, problems };
}

function toolOf(feature: Feature<any, any>): Tool {
  const binding = feature.tool!;
  const { $schema: _dialect, ...inputSchema } = toJsonSchema(binding.arguments.extend({ apiKey: API_KEY_ARGUMENT }), 'input');
  return {
    name: binding.name,
    title: binding.title,
    description: binding.description,
    inputSchema: inputSchema as Tool['inputSchema'],
    annotations: { title: binding.title, readOnlyHint: true, openWorldHint: true },
  };
}

function errorResult(error: unknown): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(toApiError(error).toBody()) }] };
}

/** An MCP server for one HTTP request: stateless, so any instance of the service can answer any request. */
function mcpServer(
  context: ToolServerContext, headerToken: string | undefined, req: IncomingMessage, badParams: Map<unknown, string>,
): Server {
  const { engine } = context;
  const server = new Server(
    { name: 'content-analysis', title: 'Content Analysis', version: context.version },
    { capabilities: { tools: { listChanged: false } } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: engine.features.list().filter((f) => f.tool).map(toolOf),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const problem = badParams.get(extra.requestId);
    if (problem !== undefined) throw new ToolParamsError(`Invalid params: ${problem}`);
    const feature = engine.features.byTool(request.params.name);
    if (!feature?.tool) throw new ToolParamsError(`Unknown tool: ${request.params.name}`);
    const { apiKey, ...args } = (request.params.arguments ?? {}) as Record<string, unknown>;
    try {
      const token = headerToken ?? (typeof apiKey === 'string' ? apiKey : undefined);
      const accountId = await engine.authenticate(token);
      const decision = await context.limiter?.take(clientKey(req, token));
      if (decision && !decision.allowed) {
        throw new ApiError('TOO_MANY_REQUESTS', undefined, { retryAfter: decision.retryAfterSeconds });
      }
      const validated = validateRequest(feature.tool.arguments, args) as Record<string, unknown>;
      const outcome = await engine.execute(feature.id, feature.tool.toRequest(validated), { accountId, signal: extra.signal });
      return {
        content: [{ type: 'text', text: `${feature.tool.summarize(outcome.result as never)}\n${JSON.stringify(outcome.result)}` }],
      };
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.code === 'INTERNAL_SERVER_ERROR' && apiError.cause !== undefined) context.log('tool call failed', apiError.cause);
      return errorResult(apiError);
    }
  });
  return server;
}

/**
 * POST /mcp/v1: a Model Context Protocol server over streamable HTTP. Answers are JSON, or a
 * `text/event-stream` when the client lists it in `accept`. `tools/list` needs no token; `tools/call` takes the
 * bearer token or an `apiKey` argument.
 */
export async function handleToolServer(req: IncomingMessage, res: ServerResponse, context: ToolServerContext): Promise<void> {
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST');
    jsonRpcError(res, 405, -32000, 'Method not allowed: the tool server is stateless and answers POST only.');
    req.resume();
    return;
  }
  if (!isJsonContentType(req.headers['content-type'])) {
    jsonRpcError(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    req.resume();
    return;
  }
  let message: unknown;
  try {
    const bytes = await readBody(req, context.maxBodyBytes);
    message = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    if (error instanceof ApiError) jsonRpcError(res, 400, -32600, `Invalid Request: ${error.description}`);
    else jsonRpcError(res, 400, -32700, `Parse error: ${(error as Error).message}`);
    return;
  }
  const messages = Array.isArray(message) ? message : [message];
  if (messages.length === 0 || !messages.every(isEnvelope)) {
    const id = !Array.isArray(message) && message !== null && typeof message === 'object' ? ((message as { id?: unknown }).id ?? null) : null;
    jsonRpcError(res, 400, -32600, 'Invalid Request: a JSON-RPC 2.0 message needs "jsonrpc": "2.0" and a string "method"', id);
    return;
  }

  const wantsStream = /\btext\/event-stream\b/i.test(req.headers.accept ?? '');
  const headerToken = bearerToken(req);
  const { messages: checked, problems } = setAsideBadParams(messages);
  const server = mcpServer(context, headerToken, req, problems);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !wantsStream });
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  try {
    await server.connect(transport);
    const headers = new Headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string') headers.set('mcp-protocol-version', version);
    const request = new Request(`http://localhost${req.url ?? '/mcp/v1'}`, { method: 'POST', headers, signal: abort.signal });
    const response = await transport.handleRequest(request, { parsedBody: Array.isArray(message) ? checked : checked[0] });
    const outHeaders: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      outHeaders[key] = value;
    });
    res.writeHead(response.status, outHeaders);
    if (response.body) {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
      }
    }
    res.end();
  } finally {
    await transport.close().catch(() => undefined);
    await server.close().catch(() => undefined);
  }
}
