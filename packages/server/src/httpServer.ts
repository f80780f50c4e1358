import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { ApiError, openApiDocument } from '@content-analysis/engine';
import type { Engine } from '@content-analysis/engine';
import { bearerToken, clientKey } from './auth.js';
import { BodyTimeoutError, closeAfterAnswer, drain, isJsonContentType, parseJson, readBody } from './body.js';
import type { BodyDeadlines } from './body.js';
import { ByteRate } from './byteRate.js';
import { Capacity } from './capacity.js';
import { ServerConfigError } from './errors.js';
import type { JsonLog } from './jsonLog.js';
import { ServerMetrics } from './metrics.js';
import { TurnPacer } from './turnPacer.js';
import { MemoryRateLimiter, isRateLimiter } from './rateLimiter.js';
import type { RateLimiter, RateLimitOptions } from './rateLimiter.js';
import { requestIdOf } from './requestId.js';
import { defaultLog, deliverHtml, deliverJson, sendError, sendJson } from './respond.js';
import { handleToolServer } from './toolServer.js';

export const TOOL_SERVER_PATH = '/mcp/v1';

export interface ApiServerOptions {
  /** The engine to serve; it must have a ledger. */
  engine: Engine;
  /**
   * Per-client rate limit: the options of an in-process limiter, a limiter (a `RedisRateLimiter` shared by several
   * nodes), or `false` for none.
   * @default { burst: 60, perSecond: 10 }
   */
  rateLimit?: RateLimitOptions | RateLimiter | false;
  /**
   * Largest request body of a feature that does not set its own.
   * @default 2 MiB
   */
  maxBodyBytes?: number;
  /**
   * Largest request body of the tool server.
   * @default 8 MiB
   */
  maxToolBodyBytes?: number;
  /**
   * Whether the tool server is mounted at /mcp/v1.
   * @default true
   */
  toolServer?: boolean;
  /**
   * Version reported by the tool server and the OpenAPI document.
   * @default '0.1.0'
   */
  version?: string;
  /**
   * Requests analysed at once; past it a request is refused with SERVICE_UNAVAILABLE (and Retry-After) rather
   * than queued without bound. A request takes its place once it is authenticated and its body read: a client
   * without a valid token, or one still sending, never holds one, and `/health` needs none.
   * @default 256
   */
  maxConcurrent?: number;
  /**
   * Longest wait for the next bytes of a request body, in milliseconds; a stalled body is answered 400 and its
   * connection closed.
   * @default 10_000
   */
  bodyIdleTimeoutMs?: number;
  /**
   * Longest time to receive a whole request body, in milliseconds.
   * @default 60_000
   */
  bodyTimeoutMs?: number;
  /**
   * Longest time to receive the request headers, in milliseconds (node's `headersTimeout`).
   * @default 10_000
   */
  headersTimeoutMs?: number;
  /**
   * Largest tool server body read before the caller is authenticated (no valid `Authorization` header: a
   * `tools/list`, or a `tools/call` carrying an `apiKey` argument); larger calls need the header.
   * @default 1 MiB
   */
  maxUnauthenticatedToolBodyBytes?: number;
  /**
   * Tool server bodies read at once before their caller is authenticated; past it such a request is refused
   * with 503. They are read within `bodyIdleTimeoutMs` and at most 10 s.
   * @default 32
   */
  maxUnauthenticatedToolReads?: number;
  /**
   * Bytes per second the node reads, all requests together, of bodies nobody pays for: those of tool server callers
   * without a valid `Authorization` header, and those of requests refused before their caller was authenticated
   * (read and discarded so that the client reads its error). Over it such reads pause until the budget refills (up
   * to 1 MiB at once after a quiet spell, one unauthenticated body); an authenticated caller's body is never held back.
   * @default 16 MiB
   */
  unauthenticatedBytesPerSecond?: number;
  /** Where unexpected failures are reported; the message names the request's `x-request-id`. @default standard error */
  log?: (message: string, error: unknown) => void;
  /**
   * One structured line per request (but /health, /ready and /metrics): `request_id`, `method`, `route`, `status`
   * (0 when the connection closed before an answer), `duration_ms`, `credits`.
   * @default none
   */
  requestLog?: JsonLog;
  /**
   * The Prometheus metrics served at GET /metrics, or `false` for no endpoint.
   * @default a fresh `ServerMetrics`
   */
  metrics?: ServerMetrics | false;
  /** A bearer token GET /metrics requires. @default none (the endpoint is open) */
  metricsToken?: string;
  /**
   * What GET /ready checks (models warm, database and Redis answering): each check's name and whether it passed. The
   * answer is 200 when all passed, else 503; /health answers 200 while the process runs.
   * @default no checks (ready)
   */
  ready?: () => Promise<Record<string, boolean>>;
}

/** Routes that are not features, as the `route` label of the metrics and logs. */
const FIXED_ROUTES = new Set(['/health', '/ready', '/metrics', '/openapi.json', TOOL_SERVER_PATH]);


/**
 * The HTTP API: every mounted feature's POST paths, `/openapi.json`, `/health` and the tool server. A path no
 * mounted feature serves answers 404. A request is rate-limited and authenticated on its headers before any of its
 * body is read, and its body must arrive within the body deadlines (see the README's security section).
 */
export function createApiServer(options: ApiServerOptions): Server {
  const { engine } = options;
  if (!engine.ledger) throw new ServerConfigError('The engine of an API server needs a ledger (accounts, tokens and credits)');
  const limiter = options.rateLimit === false ? undefined
    : isRateLimiter(options.rateLimit) ? options.rateLimit
    : new MemoryRateLimiter(options.rateLimit ?? {});
  const maxBodyBytes = options.maxBodyBytes ?? 2 * 1024 * 1024;
  const version = options.version ?? '0.1.0';
  const serverLog = options.log ?? defaultLog;
  const analysing = new Capacity(positiveInteger('maxConcurrent', options.maxConcurrent ?? 256));
  const deadlines: BodyDeadlines = {
    idleMs: positiveInteger('bodyIdleTimeoutMs', options.bodyIdleTimeoutMs ?? 10_000),
    totalMs: positiveInteger('bodyTimeoutMs', options.bodyTimeoutMs ?? 60_000),
  };
  const headersTimeoutMs = positiveInteger('headersTimeoutMs', options.headersTimeoutMs ?? 10_000);
  const unauthenticatedReads = new Capacity(positiveInteger('maxUnauthenticatedToolReads', options.maxUnauthenticatedToolReads ?? 32));
  const maxUnauthenticatedToolBodyBytes = positiveInteger('maxUnauthenticatedToolBodyBytes', options.maxUnauthenticatedToolBodyBytes ?? 1024 * 1024);
  const unpaidBytesPerSecond = positiveInteger('unauthenticatedBytesPerSecond', options.unauthenticatedBytesPerSecond ?? 16 * 1024 * 1024);
  const unpaidBytes = new ByteRate(unpaidBytesPerSecond, Math.min(unpaidBytesPerSecond, 1024 * 1024));
  const discard = (req: IncomingMessage) => drain(req, deadlines, unpaidBytes);
  let openApi: Record<string, unknown> | undefined;
  const pacer = new TurnPacer();
  const metrics = options.metrics === false ? undefined : options.metrics ?? new ServerMetrics();
  const routeOf = (path: string) => (FIXED_ROUTES.has(path) || engine.features.byRoute(path) ? path : 'unmatched');

  async function handle(req: IncomingMessage, res: ServerResponse, path: string, log: typeof serverLog, requestId: string, charged: { credits: number }): Promise<void> {
    if (path === TOOL_SERVER_PATH && options.toolServer !== false) {
      await handleToolServer(req, res, {
        engine, limiter, version, log, deadlines, analysing, unauthenticatedReads, unpaidBytes, pacer,
        onCharged: (credits) => {
          charged.credits += credits;
        },
        maxBodyBytes: options.maxToolBodyBytes ?? 8 * 1024 * 1024,
        maxUnauthenticatedBodyBytes: maxUnauthenticatedToolBodyBytes,
      });
      return;
    }
    if (req.method === 'GET' && path === '/openapi.json') {
      const host = req.headers.host ?? 'localhost';
      openApi ??= openApiDocument(engine.features, { serverUrl: `http://${host}`, version, toolServer: options.toolServer !== false });
      sendJson(res, 200, openApi);
      return;
    }
    if ((req.method === 'GET' || req.method === 'HEAD') && path === '/ready') {
      const checks = options.ready ? await options.ready().catch(() => ({ checks: false })) : {};
      const ready = Object.values(checks).every(Boolean);
      sendJson(res, ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', checks });
      return;
    }
    if (req.method === 'GET' && path === '/metrics' && metrics) {
      void discard(req);
      if (options.metricsToken !== undefined && bearerToken(req) !== options.metricsToken) {
        sendJson(res, 401, { status: 401, error: 'UNAUTHORIZED', description: '/metrics needs the metrics token as a bearer token.' });
        return;
      }
      const text = await metrics.text();
      res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
      res.end(text);
      return;
    }
    const feature = engine.features.byRoute(path);
    if (!feature) {
      void discard(req);
      sendJson(res, 404, { status: 404, error: 'NOT_FOUND', description: `No endpoint at ${path}` });
      return;
    }
    const style = feature.errorStyle;
    if (req.method !== 'POST') {
      void discard(req);
      sendJson(res, 405, { status: 405, error: 'METHOD_NOT_ALLOWED', description: `${path} accepts POST only` }, { allow: 'POST' });
      return;
    }
    // The body of a request refused before its caller was authenticated is discarded within the unpaid bytes' budget.
    let authenticated = false;
    try {
      // Everything that can refuse a request on its headers alone does so before a byte of the body is read.
      const token = bearerToken(req);
      const decision = await limiter?.take(clientKey(req, token));
      if (decision && !decision.allowed) {
        throw new ApiError('TOO_MANY_REQUESTS', undefined, { retryAfter: decision.retryAfterSeconds });
      }
      if (!isJsonContentType(req.headers['content-type'])) {
        throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `The request content type must be application/json, not ${req.headers['content-type'] ?? 'missing'}.`);
      }
      const accountId = await engine.authenticate(token);
      authenticated = true;
      const bytes = await readBody(req, feature.maxBodyBytes ?? maxBodyBytes, deadlines);
      // Parsing, validating and pricing run synchronously up to the charge: one request per turn of the event loop.
      await pacer.turn();
      const body = parseJson(bytes);
      const release = analysing.take();
      res.once('close', release);
      const abort = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) abort.abort();
      });
      // The answer is written before the charge is final, so that no request is charged without it.
      await engine.execute(feature.id, body, { accountId, requestId, signal: abort.signal, deliver: (outcome) => {
        charged.credits = outcome.creditsUsed;
        // A feature may answer a page instead (the advanced report asked with `report: "html"`); a page that cannot be
        // written fails the delivery, which refunds the charge.
        const answer = async () => {
          const html = feature.htmlAnswer?.(outcome.result);
          return html === undefined ? deliverJson(res, outcome.result) : deliverHtml(res, html);
        };
        return answer().catch((error: unknown) => {
          charged.credits = 0;
          throw error;
        });
      } });
    } catch (error) {
      if (error instanceof BodyTimeoutError) closeAfterAnswer(req, res);
      else if (!req.complete) void drain(req, deadlines, authenticated ? undefined : unpaidBytes);
      sendError(res, error, style, log);
    }
  }

  const server = createServer({ connectionsCheckingInterval: 1_000 }, (req, res) => {
    // Set before anything is written, so every answer carries it: errors, 404s, /health and the tool server's.
    const requestId = requestIdOf(req);
    res.setHeader('x-request-id', requestId);
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const started = performance.now();
    const charged = { credits: 0 };
    res.once('close', () => setImmediate(() => {
      // After the close handlers of the delivery: a charge refunded because the answer was not handed over counts 0.
      const route = routeOf(path);
      const seconds = (performance.now() - started) / 1000;
      const status = res.headersSent ? res.statusCode : 0;
      metrics?.requests.inc({ route, method: req.method ?? 'GET', status: String(status) });
      metrics?.requestSeconds.observe({ route, method: req.method ?? 'GET' }, seconds);
      if (charged.credits > 0) metrics?.credits.inc({ route }, charged.credits);
      // Probes are counted, not logged: a balancer polling /health every second would drown the requests.
      if (route === '/health' || route === '/ready' || route === '/metrics') return;
      options.requestLog?.(status >= 500 || status === 0 ? 'warn' : 'info', 'request', {
        request_id: requestId, method: req.method, route, status, duration_ms: Math.round(seconds * 1e4) / 10, credits: charged.credits,
      });
    }));
    // HEAD is GET without the body (node's response drops it): load balancers probe with either. It needs no
    // place among the requests analysed, so a full node still says it is alive.
    if ((req.method === 'GET' || req.method === 'HEAD') && path === '/health') {
      void discard(req);
      sendJson(res, 200, { status: 'ok', features: engine.features.list().map((f) => f.id) });
      return;
    }
    const log = (message: string, error: unknown) => serverLog(`${message} (x-request-id ${requestId})`, error);
    handle(req, res, path, log, requestId, charged).catch((error: unknown) => sendError(res, error, 'v2', log));
  });
  server.headersTimeout = headersTimeoutMs;
  // A backstop behind the body deadlines: node answers 408 to a request not received in this time.
  server.requestTimeout = headersTimeoutMs + deadlines.totalMs;
  return server;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ServerConfigError(`Expected positive integer for ${name} but received ${String(value)} of type ${typeof value}`);
  }
  return value;
}

/** Listens on `port` (0 for any free one) and resolves with the bound address. */
export async function listen(server: Server, port: number, host = '127.0.0.1'): Promise<{ host: string; port: number; url: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new ServerConfigError('The server has no TCP address');
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { host: address.address, port: address.port, url: `http://${shownHost}:${address.port}` };
}

/** Stops accepting connections and closes idle ones; resolves when the server is closed. */
export async function close(server: Server): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeIdleConnections();
  });
}
