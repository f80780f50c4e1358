import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, InitializeRequestSchema, ListToolsRequestSchema, PingRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { ApiError, toApiError, toJsonSchema, validateRequest } from '@content-analysis/engine';
import type { Engine, ExecuteOutcome, Feature } from '@content-analysis/engine';
import { bearerToken, clientKey } from './auth.js';
import { BodyTimeoutError, closeAfterAnswer, drain, isJsonContentType, readBody } from './body.js';
import type { BodyDeadlines } from './body.js';
import type { ByteRate } from './byteRate.js';
import type { Capacity } from './capacity.js';
import { ToolParamsError } from './errors.js';
import { JsonShapeScanner } from './jsonShape.js';
import type { RateLimiter } from './rateLimiter.js';
import type { TurnPacer } from './turnPacer.js';

export interface ToolServerContext {
  engine: Engine;
  limiter: RateLimiter | undefined;
  /** Largest body of a caller authenticated by its `Authorization` header. */
  maxBodyBytes: number;
  /** Largest body read before the caller is authenticated (no valid header: `tools/list`, an `apiKey` call). */
  maxUnauthenticatedBodyBytes: number;
  /** Deadlines of an authenticated caller's body; an unauthenticated one has at most 10 s. */
  deadlines: BodyDeadlines;
  /** The places of the requests analysed at once, shared with the REST routes: a `tools/call` takes one. */
  analysing: Capacity;
  /** The places of the bodies read at once before their caller is authenticated. */
  unauthenticatedReads: Capacity;
  /** The bytes per second read of bodies without a valid `Authorization` header, all requests together. */
  unpaidBytes?: ByteRate;
  /** Spreads the synchronous preparation of calls (validating, pricing) over turns of the event loop. */
  pacer?: TurnPacer;
  /** Told the credits of each `tools/call` whose charge stands (its answer delivered), for the request's log line. */
  onCharged?: (credits: number) => void;
  version: string;
  log: (message: string, error: unknown) => void;
}

/** Longest time to receive the body of a caller that is not authenticated. */
const UNAUTHENTICATED_BODY_MS = 10_000;

/** Bounds on the shape of a body, checked before it is parsed: MCP messages are small and shallow. */
const JSON_SHAPE_LIMITS = { maxDepth: 64, maxMembers: 10_000 } as const;

const API_KEY_ARGUMENT = z
  .string()
  .optional()
  .describe('Access token, for clients that cannot send an Authorization header.');

function jsonRpcError(res: ServerResponse, httpStatus: number, code: number, message: string, id: unknown = null,
  headers: Record<string, string> = {}): void {
  const payload = JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
  res.writeHead(httpStatus, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(payload)), ...headers });
  res.end(payload);
}

function isEnvelope(message: unknown): boolean {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return false;
  const m = message as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return false;
  if ('method' in m) return typeof m.method === 'string';
  return 'result' in m || 'error' in m;
}

/**
 * Whether an `id` member can correlate an answer: a string or an integer JSON numbers hold exactly (MCP forbids
 * null ids; `1e308` or `1.5` would not come back as sent). A message without one is a notification.
 */
function isValidId(message: Record<string, unknown>): boolean {
  if (!('id' in message)) return true;
  const { id } = message;
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

/** Why a parsed body is not a JSON-RPC message or batch the server takes, or undefined when it is. */
function envelopeProblem(messages: unknown[]): string | undefined {
  if (messages.length === 0) return 'an empty batch';
  if (!messages.every(isEnvelope)) return 'a JSON-RPC 2.0 message needs "jsonrpc": "2.0" and a string "method"';
  const seen = new Set<unknown>();
  for (const message of messages as Record<string, unknown>[]) {
    if (!isValidId(message)) return `the id ${described(message.id)} is not a string or a safe integer`;
    if (!('id' in message)) continue;
    if (seen.has(message.id)) return `the id ${described(message.id)} appears twice in the batch; each answer is matched by its id`;
    seen.add(message.id);
  }
  return undefined;
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
  // An own property only: `__proto__` or `constructor` is an unknown method (the SDK answers Method not found).
  const method = message.method as string;
  const parsed = Object.hasOwn(REQUEST_SCHEMAS, method) ? REQUEST_SCHEMAS[method]!.safeParse(message) : undefined;
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

/**
 * The answer of one HTTP request to the tool server: resolves once all of it has been handed to the operating
 * system, rejects when the connection closed before (the client is gone). A `tools/call` charge stands only if it
 * resolves, as a REST charge stands only once its answer is delivered.
 */
function deliveryOf(res: ServerResponse): { delivered: Promise<void>; fail(): void } {
  let fail!: () => void;
  const delivered = new Promise<void>((resolve, reject) => {
    fail = () => reject(new ApiError('SERVICE_UNAVAILABLE', 'The connection closed before the result was delivered; nothing was charged.'));
    res.once('finish', () => resolve());
    res.once('close', fail);
  });
  delivered.catch(() => undefined);
  return { delivered, fail };
}

/** What a request to the tool server brings to its MCP server. */
interface CallScope {
  /** The `Authorization` header's token, and its account when it is valid. */
  headerToken: string | undefined;
  headerAccountId: string | undefined;
  req: IncomingMessage;
  badParams: Map<unknown, string>;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  /** The answer of this HTTP request, handed over. */
  delivered: Promise<void>;
  /** Charges still settling: the request is done when they are. */
  settling: Promise<unknown>[];
}

/** An MCP server for one HTTP request: stateless, so any instance of the service can answer any request. */
function mcpServer(context: ToolServerContext, scope: CallScope): Server {
  const { engine } = context;
  const server = new Server(
    { name: 'content-analysis', title: 'Content Analysis', version: context.version },
    { capabilities: { tools: { listChanged: false } } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: engine.features.list().filter((f) => f.tool).map(toolOf),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const problem = scope.badParams.get(extra.requestId);
    if (problem !== undefined) throw new ToolParamsError(`Invalid params: ${problem}`);
    const feature = engine.features.byTool(request.params.name);
    if (!feature?.tool) throw new ToolParamsError(`Unknown tool: ${request.params.name}`);
    const { apiKey, ...args } = (request.params.arguments ?? {}) as Record<string, unknown>;
    try {
      let accountId: string;
      if (scope.headerToken !== undefined) {
        // Rate-limited before its body was read.
        if (scope.headerAccountId === undefined) throw new ApiError('UNAUTHORIZED');
        accountId = scope.headerAccountId;
      } else {
        const token = typeof apiKey === 'string' ? apiKey : undefined;
        accountId = await engine.authenticate(token);
        const decision = await context.limiter?.take(clientKey(scope.req, token));
        if (decision && !decision.allowed) {
          throw new ApiError('TOO_MANY_REQUESTS', undefined, { retryAfter: decision.retryAfterSeconds });
        }
      }
      await context.pacer?.turn();
      const validated = validateRequest(feature.tool.arguments, args) as Record<string, unknown>;
      const release = context.analysing.take();
      const signal = AbortSignal.any([extra.signal, scope.signal]);
      // The answer goes back to the SDK as soon as the charge is reserved and the result exists; the charge then
      // stands only if the HTTP answer that carries it is delivered (REST's rule).
      let handOver!: (outcome: ExecuteOutcome) => void;
      const handedOver = new Promise<ExecuteOutcome>((resolve) => (handOver = resolve));
      const executed = engine.execute(feature.id, feature.tool.toRequest(validated), {
        accountId,
        signal,
        deliver: async (outcome) => {
          handOver(outcome);
          await scope.delivered;
          context.onCharged?.(outcome.creditsUsed);
        },
      });
      scope.settling.push(executed.catch(() => undefined).finally(release));
      const outcome = await Promise.race([handedOver, executed]);
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

/** Answers a request refused before its body was read, and discards the body within the deadlines. */
function refuseUnread(req: IncomingMessage, res: ServerResponse, context: ToolServerContext, status: number, message: string,
  headers: Record<string, string> = {}): void {
  void drain(req, context.deadlines, context.unpaidBytes);
  jsonRpcError(res, status, -32000, message, null, headers);
}

/**
 * POST /mcp/v1: a Model Context Protocol server over streamable HTTP. Answers are JSON, or a
 * `text/event-stream` when the client lists it in `accept`. `tools/list` needs no token; `tools/call` takes the
 * bearer token or an `apiKey` argument.
 *
 * A caller is rate-limited (by its header token, else its address) and its header token checked before any of the
 * body is read. Without a valid header the body is read within tighter bounds (`maxUnauthenticatedBodyBytes`, 10 s,
 * a few at once) and never holds a place among the requests analysed; a `tools/call` takes one once authenticated.
 */
export async function handleToolServer(req: IncomingMessage, res: ServerResponse, context: ToolServerContext): Promise<void> {
  const { deadlines } = context;
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST');
    refuseUnread(req, res, context, 405, 'Method not allowed: the tool server is stateless and answers POST only.');
    return;
  }
  if (!isJsonContentType(req.headers['content-type'])) {
    refuseUnread(req, res, context, 415, 'Unsupported Media Type: Content-Type must be application/json');
    return;
  }
  const headerToken = bearerToken(req);
  const decision = await context.limiter?.take(clientKey(req, headerToken));
  if (decision && !decision.allowed) {
    refuseUnread(req, res, context, 429, 'Too many requests: the rate limit is exceeded.', { 'retry-after': String(decision.retryAfterSeconds) });
    return;
  }
  const headerAccountId = headerToken === undefined ? undefined : await context.engine.authenticate(headerToken).catch(() => undefined);
  const authenticated = headerAccountId !== undefined;
  let releaseRead: (() => void) | undefined;
  if (!authenticated) {
    releaseRead = context.unauthenticatedReads.tryTake();
    if (!releaseRead) {
      refuseUnread(req, res, context, 503, 'Service unavailable: too many requests without a valid Authorization header; retry shortly.', { 'retry-after': '1' });
      return;
    }
  }
  let message: unknown;
  try {
    // The shape is checked chunk by chunk as the body arrives: a body too wide or too deep is refused as soon as it
    // crosses the bound, and one that is not needs no pass of its own before JSON.parse.
    const shape = new JsonShapeScanner(JSON_SHAPE_LIMITS);
    const inspect = (chunk: Buffer) => {
      const problem = shape.scan(chunk);
      return problem === undefined ? undefined : `The request body ${problem}.`;
    };
    const bytes = authenticated
      ? await readBody(req, context.maxBodyBytes, deadlines, { inspect })
      : await readBody(req, context.maxUnauthenticatedBodyBytes, { idleMs: deadlines.idleMs, totalMs: Math.min(deadlines.totalMs, UNAUTHENTICATED_BODY_MS) },
        { inspect, meter: context.unpaidBytes, discard: context.unpaidBytes });
    message = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    if (error instanceof BodyTimeoutError) closeAfterAnswer(req, res);
    if (error instanceof ApiError) {
      const hint = !authenticated && /exceeds the limit/.test(error.description) ? ' Send the token in the Authorization header for larger requests.' : '';
      jsonRpcError(res, 400, -32600, `Invalid Request: ${error.description}${hint}`);
    } else {
      jsonRpcError(res, 400, -32700, `Parse error: ${(error as Error).message}`);
    }
    return;
  } finally {
    releaseRead?.();
  }
  const messages = Array.isArray(message) ? message : [message];
  const problem = envelopeProblem(messages);
  if (problem !== undefined) {
    const single = !Array.isArray(message) && message !== null && typeof message === 'object' ? (message as Record<string, unknown>) : undefined;
    const id = single && isValidId(single) ? (single.id ?? null) : null;
    jsonRpcError(res, 400, -32600, `Invalid Request: ${problem}`, id);
    return;
  }

  const wantsStream = /\btext\/event-stream\b/i.test(req.headers.accept ?? '');
  const { messages: checked, problems } = setAsideBadParams(messages);
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  const delivery = deliveryOf(res);
  const settling: Promise<unknown>[] = [];
  const server = mcpServer(context, {
    headerToken, headerAccountId, req, badParams: problems, signal: abort.signal, delivered: delivery.delivered, settling,
  });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !wantsStream });
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
        if (!res.write(chunk)) {
          await new Promise((resolve) => {
            res.once('drain', resolve);
            res.once('close', resolve);
          });
        }
      }
    }
    res.end();
  } finally {
    // An answer that was not written is not delivered: its charges are withdrawn.
    if (!res.writableEnded) delivery.fail();
    await Promise.all(settling);
    await transport.close().catch(() => undefined);
    await server.close().catch(() => undefined);
  }
}
